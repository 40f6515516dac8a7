import fs from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { createApp } from './app.ts';
import { ConfigError, loadEnv, type Env } from './env.ts';
import { openDb } from './db/index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, seedRbac } from './db/seed.ts';
import { DiskBlobStore } from './storage/index.ts';
import { LoginLimiter } from './auth/rate-limit.ts';
import { startSyncRetention } from './sync/horizon.ts';

const DIST = path.resolve('dist');

/** The built PWA: hashed assets cached for a year, everything else revalidated, unknown paths -> the shell. */
function staticApp(): Hono {
  const web = new Hono();
  // The shell and its assets are text; gzip cuts the first route's transfer about threefold (budget B10).
  web.use('*', compress());
  web.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  web.use('*', serveStatic({ root: path.relative(process.cwd(), DIST) || '.' }));
  web.get('*', async (c) => {
    const index = path.join(DIST, 'index.html');
    if (!fs.existsSync(index)) return c.text('The web app is not built. Run npm run build.', 503);
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(index, 'utf8'));
  });
  return web;
}

async function main(env: Env) {
  const db = openDb(env.DATABASE_PATH);
  const store = new DiskBlobStore(env.PHOTO_DIR);
  seedRbac(db);
  startSyncRetention(db);
  const empty = db.$client.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
  const wantSeed = env.SEED_DEMO === 'on' || (env.SEED_DEMO === 'auto' && empty.n === 0);
  if (wantSeed && (await seedDemo(db, store)).seeded) {
    console.log(`Seeded demo data. Sign in with any of these (password "${DEMO_PASSWORD}"):`);
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(24)} ${a.role.padEnd(14)} ${a.company}`);
  }
  const app = createApp(
    { db, env, store, now: () => new Date(), loginLimiter: new LoginLimiter() },
    { staticApp: staticApp() },
  );
  const server = serve({ fetch: app.fetch, port: env.PORT }, (info) => {
    console.log(`SiteCommand listening on http://localhost:${info.port} (database ${env.DATABASE_PATH})`);
  });
  const stop = () => {
    server.close(() => {
      db.$client.close();
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

try {
  await main(loadEnv());
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
