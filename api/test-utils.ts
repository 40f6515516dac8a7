import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createApp } from './app.ts';
import type { AppDeps } from './context.ts';
import { openDb, type Db } from './db/index.ts';
import { postgresDatabase, sqliteDatabase, type AnyDb, type Database } from './db/database.ts';
import { io } from './db/op.ts';
import { upsertRbac } from './db/seed/rbac.ts';
import { rowsStmt, type Params, type Stmt } from './db/sql.ts';
import { templateCopy } from './test-global-setup.ts';
import { DEMO_PASSWORD, seedDemo, seedRbac } from './db/seed.ts';
import { parseEnv } from './env.ts';
import { DatabaseLoginLimiter, LoginLimiter } from './auth/rate-limit.ts';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { openBlobStore } from './storage/index.ts';
import { s3ClientFor } from './storage/s3.ts';
import { startTestS3, type TestS3 } from './storage/s3-test-server.ts';

/** The demo database seeded once per vitest run (api/test-global-setup.ts), when running under vitest. */
function seededTemplate(): string | undefined {
  try {
    return inject('seededTemplateDir');
  } catch {
    return undefined;
  }
}

/** Which database the app runs on. */
export type DatabaseBackend = 'sqlite' | 'postgres';

/**
 * The backend of this run: the vitest project `postgres` (vite.config.ts) runs its suites with
 * TEST_DATABASE=postgres, on a throwaway cluster its global setup started.
 */
export const TEST_DATABASE: DatabaseBackend =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** Stands for the SQLite handle in a run on PostgreSQL: a test that reads SQLite directly fails loudly. */
const NOT_ON_POSTGRES = new Proxy({} as Db, {
  get(_target, key) {
    throw new Error(`t.db.${String(key)}: this app runs on PostgreSQL; use t.query / t.exec`);
  },
});

const adHoc = new Map<string, Stmt<Record<string, unknown>>>();
const statementOf = (text: string) => {
  let s = adHoc.get(text);
  if (!s) adHoc.set(text, (s = rowsStmt<Record<string, unknown>>(text)));
  return s;
};

export const ORIGIN = 'http://localhost:3000';

export interface RequestOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Socket address the request appears to come from (for the sign-in limiter). */
  ip?: string;
}

/** Where photo bytes go: the disk (the default) or a local S3-compatible server (ADR 024). */
export type StorageBackend = 'disk' | 's3';
/** Tests about photo bytes run once per backend: every rule must behave the same on both. */
export const STORAGE_BACKENDS: StorageBackend[] = ['disk', 's3'];

/**
 * A real app on a real SQLite file with the real migrations and the demo seed, one per test file.
 * The clock is injectable so expiry and rate-limit windows can be tested without waiting.
 */
export async function createTestApp(
  options: { seed?: boolean; storage?: StorageBackend; database?: DatabaseBackend } = {},
) {
  const backend = options.database ?? TEST_DATABASE;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-test-'));
  const s3: TestS3 | undefined = options.storage === 's3' ? await startTestS3() : undefined;
  const env = parseEnv({
    DATABASE_PATH: path.join(dir, 'test.db'),
    PHOTO_DIR: path.join(dir, 'photos'),
    NODE_ENV: 'test',
    ...s3?.env,
  });
  const template = options.seed !== false ? seededTemplate() : undefined;
  const store = await openBlobStore(env);
  if (template) {
    fs.copyFileSync(path.join(template, 'test.db'), env.DATABASE_PATH);
    // The seeded photo bytes, into whichever store this app uses.
    const photos = path.join(template, 'photos');
    if (s3) {
      await Promise.all(
        fs.readdirSync(photos).map(async (name) => store.put(name, fs.readFileSync(path.join(photos, name)))),
      );
    } else fs.cpSync(photos, env.PHOTO_DIR, { recursive: true });
  }
  let db: Db;
  let database: Database;
  /** The PostgreSQL database's URL (a process of the API started by a test can run on it); none on SQLite. */
  let databaseUrl: string | undefined;
  if (backend === 'postgres') {
    const cluster = inject('postgresCluster');
    if (!cluster) throw new Error('No PostgreSQL cluster: run this suite in the vitest project "postgres"');
    databaseUrl = await templateCopy(cluster, options.seed !== false);
    database = await postgresDatabase(databaseUrl, { max: 4 });
    await database.writeTx(null, upsertRbac);
    db = NOT_ON_POSTGRES;
  } else {
    db = openDb(env.DATABASE_PATH);
    database = sqliteDatabase(db);
    seedRbac(db);
    if (options.seed !== false && !template) await seedDemo(db, store);
  }
  const clock = { offsetMs: 0 };
  const now = () => new Date(Date.now() + clock.offsetMs);
  const clockMs = () => now().getTime();
  // As the server does (api/serve.ts): in memory on SQLite, in the database on PostgreSQL.
  const loginLimiter =
    backend === 'postgres' ? new DatabaseLoginLimiter(database, clockMs) : new LoginLimiter(clockMs);
  const deps: AppDeps = { database, env, store, now, loginLimiter };
  const app = createApp(deps);

  async function request(method: string, url: string, opts: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (!['GET', 'HEAD'].includes(method)) headers.origin ??= ORIGIN;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData || opts.body instanceof Uint8Array || typeof opts.body === 'string') {
      body = opts.body as BodyInit;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const init: RequestInit = { method, headers, body };
    const bindings = { incoming: { socket: { remoteAddress: opts.ip ?? '127.0.0.1', remotePort: 50000 } } };
    return app.request(url, init, bindings);
  }

  async function login(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await request('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
    const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (!token) throw new Error('no session cookie');
    return `sc_session=${token}`;
  }

  /**
   * PUTs bytes to an upload address `POST /api/objects/upload` gave: the app's own (disk), or the store's
   * presigned one (S3), reached over real HTTP as a browser would, without the app's cookie.
   */
  async function putUpload(url: string, bytes: Uint8Array, opts: RequestOptions = {}): Promise<Response> {
    if (!/^https?:/.test(url)) return request('PUT', url, { ...opts, body: bytes });
    const { cookie: _notSent, ...rest } = opts;
    return fetch(url, { method: 'PUT', body: bytes as BodyInit, headers: rest.headers });
  }

  /**
   * GETs image bytes as a browser shows them: the app's answer, or with S3 the store's answer at the
   * presigned address the app redirected to (fetched without the app's cookie, as a browser would).
   */
  async function getImage(url: string, opts: RequestOptions = {}): Promise<Response> {
    const res = await request('GET', url, opts);
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) return res;
    if (!s3 || new URL(location).origin !== s3.endpoint)
      throw new Error(`redirected off the store: ${location}`);
    return fetch(location);
  }

  /** Names of the objects in the store (uploads waiting under `incoming/` on S3 not among them). */
  async function storedObjects(): Promise<string[]> {
    if (!s3) return fs.existsSync(env.PHOTO_DIR) ? fs.readdirSync(env.PHOTO_DIR) : [];
    const client = s3ClientFor(env);
    const prefix = `${env.STORAGE_URL!.prefix}/`;
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: env.STORAGE_URL!.bucket,
          Prefix: prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) names.push(o.Key!.slice(prefix.length));
      token = page.NextContinuationToken;
    } while (token);
    client.destroy();
    return names.filter((n) => !n.startsWith('incoming/'));
  }

  /** Rows of a statement (SQLite's `?` and `@name` parameters), on whichever database the app runs. */
  function query<R = Record<string, unknown>>(text: string, params: Params = []): Promise<R[]> {
    return database.read((c) => io(c.sql.all(statementOf(text), params))) as Promise<R[]>;
  }

  /**
   * A query-builder statement on whichever database the app runs, e.g.
   * `await t.orm((db) => db.select().from(schema.tasks).where(eq(schema.tasks.id, id)).get())`.
   */
  function orm<T>(statement: (db: AnyDb) => T | PromiseLike<T>): Promise<T> {
    return database.read(({ db }) => io(statement(db)));
  }

  /** Runs a statement in a write transaction of its own; the number of rows it wrote. */
  function exec(text: string, params: Params = []): Promise<number> {
    return database.writeTx(null, (c) => io(c.sql.run(statementOf(text), params)));
  }

  const companyIds = new Map(
    (await query<{ id: string; domain: string | null }>('SELECT id, domain FROM companies')).map((r) => [
      r.domain,
      r.id,
    ]),
  );

  async function close() {
    await database.close();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /** Ids of a company's rows, by email domain of the company ('summit.test' or 'harbor.test'). */
  function companyId(domain: string): string {
    const id =
      backend === 'sqlite'
        ? db.$client
            .prepare<[string], string>('SELECT id FROM companies WHERE domain = ?')
            .pluck()
            .get(domain)
        : companyIds.get(domain);
    if (!id) throw new Error(`no company ${domain}`);
    return id;
  }

  return {
    app,
    db,
    database,
    get databaseUrl() {
      return databaseUrl;
    },
    backend,
    query,
    exec,
    orm,
    deps,
    env,
    store,
    s3,
    clock,
    dir,
    request,
    putUpload,
    getImage,
    storedObjects,
    login,
    close,
    companyId,
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
