import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createApp } from './app.ts';
import type { AppDeps } from './context.ts';
import { openDb, type Db } from './db/index.ts';
import { DEMO_PASSWORD, seedDemo, seedRbac } from './db/seed.ts';
import { parseEnv } from './env.ts';
import { LoginLimiter } from './auth/rate-limit.ts';
import { DiskBlobStore } from './storage/index.ts';

/** The demo database seeded once per vitest run (api/test-global-setup.ts), when running under vitest. */
function seededTemplate(): string | undefined {
  try {
    return inject('seededTemplateDir');
  } catch {
    return undefined;
  }
}

export const ORIGIN = 'http://localhost:3000';

export interface RequestOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Socket address the request appears to come from (for the sign-in limiter). */
  ip?: string;
}

/**
 * A real app on a real SQLite file with the real migrations and the demo seed, one per test file.
 * The clock is injectable so expiry and rate-limit windows can be tested without waiting.
 */
export async function createTestApp(options: { seed?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-test-'));
  const env = parseEnv({
    DATABASE_PATH: path.join(dir, 'test.db'),
    PHOTO_DIR: path.join(dir, 'photos'),
    NODE_ENV: 'test',
  });
  const template = options.seed !== false ? seededTemplate() : undefined;
  if (template) {
    fs.copyFileSync(path.join(template, 'test.db'), env.DATABASE_PATH);
    fs.cpSync(path.join(template, 'photos'), env.PHOTO_DIR, { recursive: true });
  }
  const db: Db = openDb(env.DATABASE_PATH);
  const store = new DiskBlobStore(env.PHOTO_DIR);
  seedRbac(db);
  if (options.seed !== false && !template) await seedDemo(db, store);
  const clock = { offsetMs: 0 };
  const now = () => new Date(Date.now() + clock.offsetMs);
  const deps: AppDeps = { db, env, store, now, loginLimiter: new LoginLimiter(() => now().getTime()) };
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

  function close() {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /** Ids of a company's rows, by email domain of the company ('summit.test' or 'harbor.test'). */
  function companyId(domain: string): string {
    const row = db.$client
      .prepare<[string], { id: string }>('SELECT id FROM companies WHERE domain = ?')
      .get(domain);
    if (!row) throw new Error(`no company ${domain}`);
    return row.id;
  }

  return { app, db, deps, env, store, clock, dir, request, login, close, companyId };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
