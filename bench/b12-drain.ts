// B12: draining 1,000 queued mutations after reconnect (loopback). The sync engine (sync/, Node client on
// fake-indexeddb: one IDBFactory per device, like separate browsers) against the real server in its own
// process, compared with a naive replayer on the same kind of device that sends one awaited POST per
// mutation (a push of size 1) and removes each entry from the outbox on its own. Each round queues 1,000
// fresh mutations on both devices (not timed: 500 task creates, 400 renames of them, 100 deletes), then
// times the drain; rounds interleave the two, after a warm-up; the median is reported.
// Budget (DESIGN.md section 11): <= 400 ms and >= 20x faster than the naive replayer, in Chromium
// (bench/web-sync.ts). This Node run is reported beside it without PASS/MISSED.
// Run alone with `node --import tsx bench/b12-drain.ts`, or from bench/run.ts as runB12().
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { DEMO_PASSWORD } from '#api/db/seed.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import { openSyncDb, readMeta, type SyncDb } from '#sync/db.ts';
import { createSyncEngine } from '#sync/engine.ts';
import type { FetchLike } from '#sync/http.ts';
import { mutate, newRowId } from '#sync/mutate.ts';
import { toWire } from '#sync/push.ts';
import { cpuCount, fmt, median, printTable, type SummaryRow } from './lib.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const MUTATIONS = 1_000;
const ROUNDS = 3;
const BUDGET_MS = 400;
const BUDGET_RATIO = 20;
const ORIGIN = 'http://localhost:3000';
const EMAIL = 'manager@summit.test';
/** The naive device works in the other company, so neither device pulls the other's rows. */
const NAIVE_EMAIL = 'admin@harbor.test';
const SERVER_CORE = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The real server (`api/server.ts`) on a fresh demo database, pinned to core 0 when there are two cores. */
export async function startServer(dir: string): Promise<{ baseUrl: string; proc: ChildProcess }> {
  const port = await freePort();
  const args = ['--import', 'tsx', 'api/server.ts'];
  const env = {
    ...process.env,
    PORT: String(port),
    DATABASE_PATH: path.join(dir, 'bench.db'),
    PHOTO_DIR: path.join(dir, 'photos'),
    PUBLIC_ORIGIN: ORIGIN,
    SEED_DEMO: 'on',
    NODE_ENV: 'production',
  };
  const proc =
    cpuCount() >= 2
      ? spawn('taskset', ['-c', String(SERVER_CORE), process.execPath, ...args], {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'pipe', 'inherit'],
        })
      : spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 120 s')), 120_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${out}`));
    });
  });
  return { baseUrl: `http://127.0.0.1:${port}`, proc };
}

export interface Account {
  cookie: string;
  userId: string;
  companyId: string;
}

export async function signIn(baseUrl: string, email: string): Promise<Account> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
  const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error('sign-in returned no session cookie');
  const user = (await res.json()) as { id: string; companyId: string };
  return { cookie: `sc_session=${token}`, userId: user.id, companyId: user.companyId };
}

const withSession =
  (account: Account): FetchLike =>
  (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', account.cookie);
    headers.set('origin', ORIGIN);
    return fetch(url, { ...init, headers });
  };

/** Queues the round's 1,000 mutations on a device (in one transaction: queueing is not what is timed). */
async function queue(db: SyncDb, projectId: string, round: string): Promise<void> {
  const tables = [db.tasks, db.outbox, db.shadows, db.meta];
  await db.transaction('rw', tables, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) {
      const id = newRowId();
      ids.push(id);
      await mutate(db, 'tasks', 'create', id, {
        title: `${round} punch item ${i}`,
        projectId,
        priority: 'medium',
      });
    }
    for (let i = 0; i < 400; i++)
      await mutate(db, 'tasks', 'patch', ids[i]!, { title: `${round} punch item ${i} (checked)` });
    for (let i = 400; i < 500; i++) await mutate(db, 'tasks', 'delete', ids[i]!);
  });
  if ((await db.outbox.count()) !== MUTATIONS) throw new Error('queueing went wrong');
}

/** The comparator: one awaited POST (a push of one mutation) per queued entry, then its own outbox delete. */
async function naiveReplay(db: SyncDb, baseUrl: string, fetchFn: FetchLike): Promise<void> {
  const { clientId } = await readMeta(db);
  for (const entry of await db.outbox.orderBy('seq').toArray()) {
    const res = await fetchFn(`${baseUrl}/api/sync/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, schemaVersion: SCHEMA_VERSION, mutations: [toWire(entry)] }),
    });
    if (res.status !== 200) throw new Error(`naive push: ${res.status} ${await res.text()}`);
    await res.json();
    await db.outbox.delete(entry.seq!);
  }
}

interface Round {
  engineMs: number;
  enginePushMs: number;
  /** Of engineMs: time with a request in flight (push is pipelined, so device work overlaps part of it). */
  engineHttpMs: number;
  naiveMs: number;
}

export async function runB12(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-b12-'));
  const server = await startServer(dir);
  try {
    const account = await signIn(server.baseUrl, EMAIL);
    const naiveAccount = await signIn(server.baseUrl, NAIVE_EMAIL);
    const fetchFn = withSession(account);
    const naiveFetch = withSession(naiveAccount);
    const device = openSyncDb(
      { companyId: account.companyId, userId: account.userId },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    );
    const naiveDevice = openSyncDb(
      { companyId: naiveAccount.companyId, userId: naiveAccount.userId },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    );
    let pushDone = 0;
    let httpMs = 0;
    const engine = createSyncEngine({
      db: device,
      baseUrl: server.baseUrl,
      fetch: async (url, init) => {
        const started = performance.now();
        if (url.includes('/api/sync/pull') && pushDone === 0) pushDone = started;
        const res = await fetchFn(url, init);
        // Time waiting for the server (and reading its answer), to split the drain into server and device.
        const body = await res.arrayBuffer();
        httpMs += performance.now() - started;
        return new Response(body, { status: res.status, headers: res.headers });
      },
      locks: null,
      eventSource: null,
    });
    // Both devices start from a full mirror, as after a first sync.
    await engine.syncNow();
    const naiveEngine = createSyncEngine({
      db: naiveDevice,
      baseUrl: server.baseUrl,
      fetch: naiveFetch,
      locks: null,
      eventSource: null,
    });
    await naiveEngine.syncNow();
    const projectId = (await device.projects.orderBy('id').first())?.id;
    const naiveProjectId = (await naiveDevice.projects.orderBy('id').first())?.id;
    if (!projectId || !naiveProjectId) throw new Error('a demo company has no project');

    const engineDrain = async (round: string) => {
      await queue(device, projectId, round);
      pushDone = 0;
      httpMs = 0;
      const t0 = performance.now();
      await engine.syncNow();
      const t1 = performance.now();
      const st = engine.status.get();
      if (st.pending !== 0 || st.error || st.issues !== 0)
        throw new Error(`engine drain failed: ${JSON.stringify(st)}`);
      return { total: t1 - t0, push: (pushDone || t1) - t0, http: httpMs };
    };
    const naiveDrain = async (round: string) => {
      await queue(naiveDevice, naiveProjectId, round);
      const t0 = performance.now();
      await naiveReplay(naiveDevice, server.baseUrl, naiveFetch);
      return performance.now() - t0;
    };

    await engineDrain('warm-up');
    await naiveDrain('warm-up');
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Interleaved, alternating which goes first.
      let engineRun: { total: number; push: number; http: number };
      let naiveMs: number;
      if (r % 2 === 0) {
        engineRun = await engineDrain(`r${r}`);
        naiveMs = await naiveDrain(`r${r}`);
      } else {
        naiveMs = await naiveDrain(`r${r}`);
        engineRun = await engineDrain(`r${r}`);
      }
      rounds.push({
        engineMs: engineRun.total,
        enginePushMs: engineRun.push,
        engineHttpMs: engineRun.http,
        naiveMs,
      });
      console.log(
        `  B12 round ${r + 1}: engine ${fmt(engineRun.total, 0)} ms (push ${fmt(engineRun.push, 0)} ms, ` +
          `server ${fmt(engineRun.http, 0)} ms), naive ${fmt(naiveMs, 0)} ms`,
      );
    }
    const engineMs = median(rounds.map((r) => r.engineMs));
    const enginePushMs = median(rounds.map((r) => r.enginePushMs));
    const engineHttpMs = median(rounds.map((r) => r.engineHttpMs));
    const naiveMs = median(rounds.map((r) => r.naiveMs));
    const speedup = naiveMs / engineMs;
    const rows: SummaryRow[] = [
      {
        budget: 'B12',
        what: `Node (fake-indexeddb): drain ${MUTATIONS} queued mutations (push + pull), ms`,
        measured: fmt(engineMs, 0),
        comparator: '-',
        ratio: '-',
        // DESIGN.md section 11 sets B12 in Chromium (the Chromium rows carry PASS/MISSED); this Node run
        // on fake-indexeddb shows the engine's own cost without the browser, for reading a Chromium miss.
        limit: `(<= ${BUDGET_MS} in Chromium)`,
        pass: null,
      },
      {
        budget: 'B12',
        what: 'Node (fake-indexeddb): drain speed-up vs one awaited POST per mutation',
        measured: `${fmt(engineMs, 0)} ms`,
        comparator: `${fmt(naiveMs, 0)} ms`,
        ratio: `${fmt(speedup, 1)}x`,
        limit: `(>= ${BUDGET_RATIO}x in Chromium)`,
        pass: null,
      },
      {
        budget: 'B12',
        what: 'Node: push phase only (until the first pull), ms',
        measured: fmt(enginePushMs, 0),
        comparator: `${fmt(naiveMs, 0)} ms`,
        ratio: `${fmt(naiveMs / enginePushMs, 1)}x`,
        limit: '-',
        pass: null,
      },
      {
        budget: 'B12',
        what: 'Node: of the drain, a request in flight / device work alone, ms',
        measured: `${fmt(engineHttpMs, 0)} / ${fmt(engineMs - engineHttpMs, 0)}`,
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      },
    ];
    return {
      rows,
      raw: { mutations: MUTATIONS, rounds, engineMs, enginePushMs, engineHttpMs, naiveMs, speedup },
    };
  } finally {
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = new Date();
  const { rows, raw } = await runB12();
  console.log('');
  printTable(rows);
  const dir = path.join(HERE, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `b12-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const environment = {
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: cpuCount(),
    loadAverage: os.loadavg()[0],
  };
  fs.writeFileSync(
    file,
    `${JSON.stringify({ startedAt: started.toISOString(), environment, summary: rows, results: { B12: raw } }, null, 2)}\n`,
  );
  console.log(`\nSaved ${path.relative(ROOT, file)}`);
}
