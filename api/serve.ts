import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { compress } from 'hono/compress';
import { createApp } from './app.ts';
import { loadSessionUser, purgeExpiredSessions, userPayload } from './auth/session.ts';
import type { AppEnv } from './context.ts';
import { PREPAINTED_SCREENS, sessionUserBlock } from '#shared/page-bootstrap.ts';
import { ConfigError, type Env } from './env.ts';
import { openDb } from './db/index.ts';
import { postgresDatabase, sqliteDatabase, type Database } from './db/database.ts';
import { preparePostgres } from './db/pg/bootstrap.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, seedRbac } from './db/seed.ts';
import { openBlobStore } from './storage/index.ts';
import { DatabaseLoginLimiter, LoginLimiter } from './auth/rate-limit.ts';
import { eventStreams } from './sync/events.ts';
import { startSyncRetention } from './sync/horizon.ts';
import { repairDeletedProjects } from './mutators/repair.ts';

const DIST = path.resolve('dist');
const REQUEST_TIMEOUT_MS = 120_000;
const HEADERS_TIMEOUT_MS = 20_000;

/**
 * The built PWA: hashed assets cached for a year, everything else revalidated, unknown paths -> the shell.
 * A missing asset is a 404: answering the shell there would cache HTML as a script chunk for a year.
 */
export function staticApp(dist = DIST): Hono<AppEnv> {
  const web = new Hono<AppEnv>();
  // The shell and its assets are text; compression cuts the first route's transfer about threefold (budget
  // B10). The build writes brotli and gzip copies of its assets (vite.config.ts), sent as they are; what
  // has no copy (the shell, small files) is gzipped on the way out.
  web.use('*', compress());
  web.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  // '/' would be served as the built index.html file; it is the app's page like any other address.
  web.get('/', async (c) => shell(c, dist));
  web.use('*', serveStatic({ root: path.relative(process.cwd(), dist) || '.', precompressed: true }));
  web.all('/assets/*', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.text('Not found', 404);
  });
  web.get('*', async (c) => shell(c, dist));
  return web;
}

/**
 * The app's page. A browser's navigation gets the answer GET /api/auth/user would give written into it
 * (shared/page-bootstrap.ts): the signed-in user, or null for a visitor or an ended session. So the first
 * screen (the Dashboard, or sign-in) paints without first asking who is signed in; that page belongs to
 * this request's cookie alone and is never stored. A fetch (the service worker caching the shell for
 * offline starts) gets the page as built, and the app asks.
 */
async function shell(c: Context<AppEnv>, dist: string) {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return c.text('The web app is not built. Run npm run build.', 503);
  const html = fs.readFileSync(index, 'utf8');
  if (!isNavigation(c) || !c.var.deps) {
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  }
  const user = await loadSessionUser(c, c.var.deps);
  c.header('Cache-Control', 'private, no-store');
  c.header('Vary', 'Cookie');
  const page = html.replace('</head>', `${sessionUserBlock(user ? userPayload(user) : null)}</head>`);
  return c.html(user ? page : prepainted(page, new URL(c.req.url).pathname, dist));
}

/**
 * A visitor's page with its screen already inside (ADR 029), when the build rendered one for the address:
 * it paints with the page, and the app replaces it with the same screen, live, once its code has run.
 */
function prepainted(page: string, pathname: string, dist: string): string {
  const prepaint = PREPAINTED_SCREENS[pathname];
  if (!prepaint) return page;
  let screen: string;
  try {
    screen = fs.readFileSync(path.join(dist, prepaint.file), 'utf8');
  } catch {
    return page; // a build without it: the app renders the screen, as it always could
  }
  return page.replace('<div id="root"></div>', () => `<div id="root">${screen}</div>`);
}

/** A top-level page load or link followed in a tab; not a fetch (the service worker's precache is one). */
const isNavigation = (c: Context) =>
  c.req.header('sec-fetch-mode') === 'navigate' && c.req.header('sec-fetch-dest') === 'document';

function postgresWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || u.searchParams.get('host') || 'localhost'}${u.pathname}`;
  } catch {
    return '(address not shown)';
  }
}

export interface RunningServer {
  port: number;
  database: Database;
  /** Ends the event streams, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database (PostgreSQL with DATABASE_URL, else the SQLite file), seeds it when asked, and listens
 * (port 0 picks a free port).
 */
export async function startServer(
  env: Env,
  options: { staticApp?: Hono<AppEnv>; log?: (line: string) => void; shutdownGraceMs?: number } = {},
): Promise<RunningServer> {
  const log = options.log ?? console.log;
  // The store first: an unreachable bucket stops the start before the database is opened.
  const store = await openBlobStore(env);
  let database: Database;
  let seeded: boolean;
  if (env.DATABASE_URL) {
    const url = env.DATABASE_URL;
    let prepared = { seeded: false };
    database = await postgresDatabase(url, {
      prepare: async (d) => {
        prepared = await preparePostgres(d, url, store, env.SEED_DEMO, log);
      },
    }).catch((err: unknown) => {
      const why = unreachable(err);
      throw why
        ? new ConfigError(`Invalid configuration: DATABASE_URL: cannot use the database (${why})`)
        : err;
    });
    seeded = prepared.seeded;
  } else {
    const db = openDb(env.DATABASE_PATH);
    database = sqliteDatabase(db);
    seedRbac(db);
    const empty = db.$client.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
    const wantSeed = env.SEED_DEMO === 'on' || (env.SEED_DEMO === 'auto' && empty.n === 0);
    seeded = wantSeed && (await seedDemo(db, store)).seeded;
  }
  if (seeded) {
    log(`Seeded demo data. Sign in with any of these (password "${DEMO_PASSWORD}"):`);
    for (const a of DEMO_ACCOUNTS) log(`  ${a.email.padEnd(24)} ${a.role.padEnd(14)} ${a.company}`);
  }
  // Databases from before deleting a project took its communications and change orders with it (W21).
  const repaired = await repairDeletedProjects(database);
  if (repaired) log(`Deleted what ${repaired} deleted project(s) had left behind.`);
  const stopRetention = startSyncRetention(database, { also: [purgeExpiredSessions] });
  const app = createApp(
    {
      database,
      env,
      store,
      now: () => new Date(),
      // Several API processes may share a PostgreSQL database: the throttle must see all their tries.
      loginLimiter: database.dialect === 'postgres' ? new DatabaseLoginLimiter(database) : new LoginLimiter(),
    },
    { staticApp: options.staticApp },
  );
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT }, () => resolve(s as Server));
  });
  // A body trickled a byte at a time must not hold a socket for Node's default 5 minutes; two minutes
  // still lets a 10 MiB photo through a slow site connection (~1 Mbit/s).
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  const port = (server.address() as AddressInfo).port;
  const photos = env.STORAGE_URL ? `s3://${env.STORAGE_URL.bucket}/${env.STORAGE_URL.prefix}` : env.PHOTO_DIR;
  // A PostgreSQL address may carry a password: only its host and database are printed.
  const where = env.DATABASE_URL ? `PostgreSQL ${postgresWhere(env.DATABASE_URL)}` : env.DATABASE_PATH;
  log(`SiteCommand listening on http://localhost:${port} (database ${where}, photos ${photos})`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve, reject) => {
      // Open event streams would keep server.close waiting forever. Ended, their keep-alive connections
      // turn idle a few ticks later; those are closed until the server has finished.
      stopRetention();
      const idle = setInterval(() => server.closeIdleConnections(), 25);
      // A request still running after the grace period (a stalled upload) is cut, so the database is always
      // closed cleanly rather than the process being killed around it.
      const cut = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 3000);
      server.close((err) => {
        clearInterval(idle);
        clearTimeout(cut);
        database.close().then(
          () => (err ? reject(err) : resolve()),
          (closeErr: unknown) => reject(err ?? closeErr),
        );
      });
      eventStreams(database).closeAll();
    }));
  return { port, database, close };
}

/**
 * Why PostgreSQL could not be used at start, when the cause is the address, the network or the account (one
 * line for the operator), or undefined for anything else (a failing migration: its stack is wanted).
 */
function unreachable(err: unknown): string | undefined {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(err);
  // Node's network errors (ECONNREFUSED, ENOTFOUND, ETIMEDOUT...), PostgreSQL's connection exceptions (08),
  // refused sign-ins (28) and a database that does not exist (3D000); the driver's connect timeout.
  const byCode = typeof code === 'string' && /^(E[A-Z]+|08...|28...|3D000)$/.test(code);
  return byCode || /connection timeout/i.test(text) ? text.replace(/\s+/g, ' ') : undefined;
}
