// Test support for the sync suites (not a test file): the real API served over HTTP on a free port, devices
// with their own IndexedDB (one fake-indexeddb factory each, like separate browsers), a cookie-carrying
// fetch, a fetch-based EventSource for Node, an in-memory Web Locks manager, a manual environment and
// manual timers, and a seeded random source.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import jpeg from 'jpeg-js';
import { DEMO_PASSWORD } from '#api/db/seed.ts';
import { createTestApp, type TestApp } from '#api/test-utils.ts';
import { openSyncDb, type SyncDb } from './db.ts';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions } from './engine.ts';
import type { EventSourceFactory, EventSourceLike, LockManagerLike, SyncEnvironment, Timers } from './env.ts';
import type { FetchLike } from './http.ts';

/** mulberry32: a small seeded PRNG, so every random choice of a test can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Account {
  email: string;
  userId: string;
  companyId: string;
  cookie: string;
}

/** The real app (real SQLite file, migrations, demo seed) listening on 127.0.0.1 on a free port. */
export interface LiveServer {
  t: TestApp;
  baseUrl: string;
  server: ServerType;
  account(email: string): Promise<Account>;
  close(): Promise<void>;
}

export async function startServer(): Promise<LiveServer> {
  const t = await createTestApp();
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const accounts = new Map<string, Promise<Account>>();
  return {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    account(email) {
      // One sign-in per account and server: the sign-in limiter would refuse a burst of them.
      let found = accounts.get(email);
      if (!found) {
        found = (async () => {
          const [user] = await t.query<{ id: string; company_id: string }>(
            'SELECT id, company_id FROM users WHERE email = ?',
            [email],
          );
          if (!user) throw new Error(`no user ${email}`);
          return { email, userId: user.id, companyId: user.company_id, cookie: await t.login(email) };
        })();
        accounts.set(email, found);
      }
      return found;
    },
    async close() {
      // Open event streams would keep close() waiting.
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** Node's fetch with the session cookie and the Origin the API's CSRF check wants. */
export function cookieFetch(
  cookie: string,
  origin: string,
  inner: FetchLike = (u, i) => fetch(u, i),
): FetchLike {
  return (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    headers.set('origin', origin);
    return inner(url, { ...init, headers });
  };
}

/** A fetch that can be switched off (network error), or answer a fixed status, per path prefix. */
export interface Switchable {
  fetch: FetchLike;
  offline: boolean;
  /** Path prefix -> status to answer instead of forwarding (e.g. '/api/sync/blobs' -> 503). */
  failWith: Map<string, number>;
  /** Requests seen, by method and path. */
  log: string[];
}

export function switchableFetch(inner: FetchLike): Switchable {
  const sw: Switchable = {
    offline: false,
    failWith: new Map(),
    log: [],
    fetch: async (url, init) => {
      const path = new URL(url).pathname;
      sw.log.push(`${init?.method ?? 'GET'} ${path}`);
      if (sw.offline) throw new TypeError('fetch failed (offline)');
      for (const [prefix, status] of sw.failWith) {
        if (path.startsWith(prefix)) {
          // Like the real server's 503 (SPEC P9), with a Retry-After of one second.
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (status === 503) headers['retry-after'] = '1';
          return new Response(JSON.stringify({ code: `HTTP_${status}`, message: `Injected ${status}` }), {
            status,
            headers,
          });
        }
      }
      return inner(url, init);
    },
  };
  return sw;
}

/** Browser-like signals driven by the test. */
export interface ManualEnvironment extends SyncEnvironment {
  setOnline(online: boolean): void;
  setVisible(visible: boolean): void;
}

export function manualEnvironment(): ManualEnvironment {
  let online = true;
  let visible = true;
  const listeners = new Map<string, Set<() => void>>();
  const fire = (e: string) => {
    for (const fn of listeners.get(e) ?? []) fn();
  };
  return {
    isOnline: () => online,
    isVisible: () => visible,
    on(event, fn) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
    setOnline(v) {
      online = v;
      fire(v ? 'online' : 'offline');
    },
    setVisible(v) {
      visible = v;
      if (v) fire('visible');
    },
  };
}

/** Timers that only fire when the test advances the manual clock. */
export interface ManualTimers extends Timers {
  now(): number;
  /** Moves the clock forward, firing every timer that falls due, in order. */
  advance(ms: number): void;
  pending(): number[];
}

export function manualTimers(start = Date.UTC(2026, 10, 22, 8)): ManualTimers {
  let clock = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => clock,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: clock + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = clock + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        clock = Math.max(clock, due[1].at);
        due[1].fn();
      }
      clock = end;
    },
    pending: () => [...timers.values()].map((t) => t.at - clock).sort((a, b) => a - b),
  };
}

/** Web Locks in memory: one holder per name, the others queue (like tabs of one browser). */
export function memoryLocks(): LockManagerLike {
  const queues = new Map<string, Promise<unknown>>();
  return {
    request(name, callback) {
      const previous = queues.get(name) ?? Promise.resolve();
      const mine = previous.then(() => callback({ name }));
      queues.set(
        name,
        mine.catch(() => {}),
      );
      return mine;
    },
  };
}

/** A server-sent-events client over fetch (Node has no EventSource). */
export function fetchEventSource(fetchFn: FetchLike): EventSourceFactory {
  return (url) => {
    const controller = new AbortController();
    const listeners = new Map<string, Set<(e: { data: string }) => void>>();
    const source: EventSourceLike = {
      addEventListener(type, listener) {
        let set = listeners.get(type);
        if (!set) listeners.set(type, (set = new Set()));
        set.add(listener);
      },
      close: () => controller.abort(),
    };
    void (async () => {
      try {
        const res = await fetchFn(url, {
          headers: { accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (!res.body) return;
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let type = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) type = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
            }
            if (data.length) for (const fn of listeners.get(type) ?? []) fn({ data: data.join('\n') });
          }
        }
      } catch {
        // closed or failed: the engine's other triggers cover it
      }
    })();
    return source;
  };
}

/** One simulated device: its own IndexedDB, its own client id, the engine with no lock and no pokes. */
export interface Device {
  db: SyncDb;
  engine: SyncEngine;
  net: Switchable;
  account: Account;
}

let deviceCount = 0;

/** A device of `account` talking to the API at `baseUrl` (the in-process server, a proxy or a child process). */
export function deviceAt(
  baseUrl: string,
  origin: string,
  account: Account,
  options: Partial<SyncEngineOptions> & { now?: () => number } = {},
): Device {
  const net = switchableFetch(cookieFetch(account.cookie, origin));
  const db = openSyncDb(
    { companyId: account.companyId, userId: account.userId },
    { indexedDB: new IDBFactory(), IDBKeyRange, now: options.now },
  );
  const engine = createSyncEngine({
    baseUrl,
    fetch: net.fetch,
    random: seededRandom(++deviceCount),
    locks: null,
    eventSource: null,
    environment: manualEnvironment(),
    ...options,
    db,
  });
  return { db, engine, net, account };
}

export async function newDevice(
  server: LiveServer,
  email: string,
  options: Partial<SyncEngineOptions> & { now?: () => number } = {},
): Promise<Device> {
  return deviceAt(server.baseUrl, server.t.env.PUBLIC_ORIGIN, await server.account(email), options);
}

/** Waits until `check` passes (polling), or fails with its last error after `timeoutMs`. */
export async function until(check: () => unknown | Promise<unknown>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const ok = await check();
      if (ok !== false) return;
    } catch (err) {
      if (Date.now() > end) throw err;
    }
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The live rows of a mirrored table on the server for a company, as the API would pull them. */
export function serverRows(t: TestApp, table: string, companyId: string): Promise<Record<string, unknown>[]> {
  return t.query(`SELECT * FROM ${table} WHERE company_id = ? AND deleted_at IS NULL ORDER BY id`, [
    companyId,
  ]);
}

/** A small real JPEG (the blob endpoint checks magic bytes); different seeds give different bytes. */
export function tinyJpeg(seed: number, size = 16): Uint8Array {
  const random = seededRandom(seed);
  const data = Buffer.alloc(size * size * 4);
  for (let i = 0; i < data.length; i++) data[i] = i % 4 === 3 ? 255 : Math.floor(random() * 256);
  return new Uint8Array(jpeg.encode({ data, width: size, height: size }, 80).data);
}

/** A local HTTP proxy in front of the API that injects faults (fault suite a and e). */
export interface FaultProxy {
  url: string;
  /** Probability that a push answer is dropped after the server committed it (the socket is destroyed). */
  dropPushAnswers: number;
  /** Path prefix -> status answered by the proxy itself (503 carries Retry-After: 1). */
  failWith: Map<string, number>;
  stats: { pushes: number; droppedPushAnswers: number; injected: number };
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startFaultProxy(target: string, random: () => number): Promise<FaultProxy> {
  const proxy: FaultProxy = {
    url: '',
    dropPushAnswers: 0,
    failWith: new Map(),
    stats: { pushes: 0, droppedPushAnswers: 0, injected: 0 },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        for (const [prefix, status] of proxy.failWith) {
          if (!path.startsWith(prefix)) continue;
          proxy.stats.injected++;
          res.writeHead(status, {
            'content-type': 'application/json',
            ...(status === 503 ? { 'retry-after': '1' } : {}),
          });
          res.end(JSON.stringify({ code: `HTTP_${status}`, message: `Injected ${status}` }));
          return;
        }
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) {
          if (!HOP_BY_HOP.has(k) && typeof v === 'string') headers.set(k, v);
        }
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        let upstream: Response;
        try {
          upstream = await fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body });
        } catch {
          req.socket.destroy();
          return;
        }
        const answer = Buffer.from(await upstream.arrayBuffer());
        if (req.method === 'POST' && path === '/api/sync/push') {
          proxy.stats.pushes++;
          if (upstream.status === 200 && random() < proxy.dropPushAnswers) {
            // The server has committed the batch; the device never hears about it.
            proxy.stats.droppedPushAnswers++;
            req.socket.destroy();
            return;
          }
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k) && k !== 'content-encoding') out[k] = v;
        });
        res.writeHead(upstream.status, out);
        res.end(answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** The API as a separate process (`node --import tsx api/server.ts`), to be killed and restarted (fault b). */
export interface ChildServer {
  baseUrl: string;
  /** Its SQLite file (not used when it runs on PostgreSQL). */
  databasePath: string;
  origin: string;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  dispose(): void;
}

/**
 * `databaseUrl` (postgres://...): the process runs on that PostgreSQL database (api/serve.ts reads
 * DATABASE_URL) instead of an SQLite file of its own; a test passes its app's, `t.databaseUrl`, and reads
 * what the process wrote through `t.query`.
 */
export async function childServer(templateDir?: string, databaseUrl?: string): Promise<ChildServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-child-'));
  const databasePath = path.join(dir, 'sitecommand.db');
  const photoDir = path.join(dir, 'photos');
  if (templateDir) {
    // The demo database seeded once per run (api/test-global-setup.ts): starting from it skips the seed's
    // password hashing and image generation.
    fs.copyFileSync(path.join(templateDir, 'test.db'), databasePath);
    fs.cpSync(path.join(templateDir, 'photos'), photoDir, { recursive: true });
  }
  const port = await new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const origin = 'http://localhost:3000';
  let proc: ChildProcess | null = null;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databasePath,
    origin,
    start() {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
          env: {
            ...process.env,
            PORT: String(port),
            DATABASE_PATH: databasePath,
            // Never one inherited from the shell: without a URL given, the process runs on its SQLite file.
            DATABASE_URL: databaseUrl,
            PHOTO_DIR: photoDir,
            PUBLIC_ORIGIN: origin,
            SEED_DEMO: 'on',
            NODE_ENV: 'test',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        proc = child;
        let output = '';
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('listening on')) {
            child.stdout?.off('data', onData);
            resolve();
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
        child.once('exit', (code, signal) => {
          if (!output.includes('listening on'))
            reject(new Error(`server exited (${code ?? signal}): ${output}`));
        });
      });
    },
    kill(signal = 'SIGKILL') {
      const child = proc;
      proc = null;
      if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
    dispose() {
      proc?.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in over HTTP: the session cookie and who the account is. */
export async function signIn(baseUrl: string, origin: string, email: string): Promise<Account> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
  const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error('no session cookie');
  const user = (await res.json()) as { id: string; companyId: string };
  return { email, userId: user.id, companyId: user.companyId, cookie: `sc_session=${token}` };
}

/** What a device asked of IndexedDB, recorded below Dexie (its DBCore): transactions and request sizes. */
export interface IdbLog {
  transactions: { stores: string[]; mode: 'readonly' | 'readwrite' }[];
  /** Rows per write request (`bulkPut`, `bulkDelete`, ...) and keys per multi-get, by table. */
  requests: { table: string; kind: 'write' | 'read'; rows: number }[];
}

/** Records a device database's IndexedDB traffic. Call before the database opens (its first use). */
export function recordIdb(db: SyncDb): IdbLog {
  const log: IdbLog = { transactions: [], requests: [] };
  db.use({
    stack: 'dbcore',
    name: 'test-recorder',
    create: (down) => ({
      ...down,
      transaction(stores, mode, options) {
        log.transactions.push({ stores: [...stores], mode });
        return down.transaction(stores, mode, options);
      },
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate(req) {
            const rows = 'values' in req ? req.values.length : 'keys' in req ? req.keys.length : 0;
            log.requests.push({ table: name, kind: 'write', rows });
            return table.mutate(req);
          },
          getMany(req) {
            log.requests.push({ table: name, kind: 'read', rows: req.keys.length });
            return table.getMany(req);
          },
        };
      },
    }),
  });
  return log;
}

/**
 * Runs `fn` while the browser refuses every IndexedDB write for lack of space (a phone whose storage is
 * full: a put or add throws QuotaExceededError), then gives the space back.
 */
export async function whileStorageFull<T>(fn: () => Promise<T>): Promise<T> {
  const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = { put: proto.put!, add: proto.add! };
  const full = () => {
    throw new DOMException('', 'QuotaExceededError');
  };
  proto.put = full;
  proto.add = full;
  try {
    return await fn();
  } finally {
    proto.put = originals.put;
    proto.add = originals.add;
  }
}
