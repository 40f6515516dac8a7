import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations, from the tables derived from the one schema definition (ADR 027). Both configs
// run with `npm run db:generate`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './api/db/pg/schema.ts',
  out: './api/db/migrations-pg',
});
