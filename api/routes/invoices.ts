import { Hono } from 'hono';
import { desc, eq } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { sessionUser } from './helpers.ts';

const { invoices } = schema;

/** GET /api/invoices (spec 01 section 7, read-only): the company's invoices, newest first, money in cents. */
export const invoiceRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { db } = c.var.deps;
  const rows = db
    .select()
    .from(invoices)
    .where(eq(invoices.companyId, sessionUser(c).companyId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .all();
  return c.json(rows);
});
