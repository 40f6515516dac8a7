// B14: sign-in latency while 50 sync clients push (DESIGN.md section 11). The real server (`api/server.ts`,
// fresh demo database, pinned to core 0) first serves sign-ins alone (the comparator), then the same
// sign-in schedule while 50 writers push without pause: each writer is a device of its own (client id)
// that created MAX_PUSH_MUTATIONS (500) tasks and then patches all of them in every push (the client's
// largest batch, so the server holds its write transaction as long as a client can make it),
// sending its next batch as soon as the answer arrives. Sign-ins arrive at a fixed rate (open loop: each
// one is timed from its own start, however slow the ones before it were), rotating over the demo accounts.
// Budget: sign-in p99 <= 2 s under the writers; no 5xx on any request.
// Run alone with `node --import tsx bench/b14-signin.ts`, or from bench/run.ts as runB14().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '#api/db/seed.ts';
import { newId } from '#shared/ids.ts';
import { MAX_PUSH_MUTATIONS, SCHEMA_VERSION, type Mutation } from '#shared/sync-protocol.ts';
import { signIn, startServer, type Account } from './b12-drain.ts';
import { cpuCount, fmt, median, pinSelf, printTable, type SummaryRow } from './lib.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const ORIGIN = 'http://localhost:3000';
const WRITERS = 50;
const BATCH = MAX_PUSH_MUTATIONS;
const LOAD_MS = 30_000;
/** 200 sign-ins over the 30 s of load, as in the report of issue 8; the idle comparator keeps the rate. */
const SIGN_IN_INTERVAL_MS = 150;
const IDLE_MS = 10_000;
const BUDGET_P99_MS = 2_000;
const LOAD_CORE = 1;
const WRITER_EMAILS = ['admin@summit.test', 'manager@summit.test', 'admin@harbor.test'];
const SIGN_IN_EMAILS = DEMO_ACCOUNTS.map((a) => a.email);

const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface Counts {
  ok: number;
  fivexx: number;
  other: number;
  errors: number;
}
const counts = (): Counts => ({ ok: 0, fivexx: 0, other: 0, errors: 0 });
function tally(c: Counts, status: number | null): void {
  if (status === null) c.errors++;
  else if (status >= 500) c.fivexx++;
  else if (status >= 200 && status < 300) c.ok++;
  else c.other++;
}

/** Sign-ins every SIGN_IN_INTERVAL_MS for `ms`; each timed on its own (no coordinated omission). */
async function signInsFor(baseUrl: string, ms: number) {
  const latencies: number[] = [];
  const status = counts();
  const started: Promise<void>[] = [];
  const start = performance.now();
  // Start times on a fixed grid, not after a sleep: a late timer does not thin out the sign-ins.
  for (let i = 0; i < Math.floor(ms / SIGN_IN_INTERVAL_MS); i++) {
    const wait = start + i * SIGN_IN_INTERVAL_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const email = SIGN_IN_EMAILS[i % SIGN_IN_EMAILS.length]!;
    started.push(
      (async () => {
        const t0 = performance.now();
        try {
          const res = await fetch(`${baseUrl}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN },
            body: JSON.stringify({ email, password: DEMO_PASSWORD }),
          });
          await res.arrayBuffer();
          tally(status, res.status);
          if (res.ok) latencies.push(performance.now() - t0);
        } catch {
          tally(status, null);
        }
      })(),
    );
  }
  await Promise.all(started);
  return { latencies, status };
}

interface Writer {
  account: Account;
  clientId: string;
  next: number;
  tasks: string[];
}

async function post(baseUrl: string, account: Account, body: unknown) {
  const res = await fetch(`${baseUrl}/api/sync/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: account.cookie },
    body: JSON.stringify(body),
  });
  const json = res.ok ? ((await res.json()) as { results: { status: string }[] }) : await res.arrayBuffer();
  return { status: res.status, json };
}

function mutation(w: Writer, op: 'create' | 'patch', rowId: string, data: Record<string, unknown>): Mutation {
  return { id: w.next++, op, table: 'tasks', rowId, data, baseVersion: null, clientTime: Date.now() };
}

/** A writer's device: its own client id and BATCH tasks of its own (created here, not timed). */
async function setUpWriter(baseUrl: string, account: Account, projectId: string): Promise<Writer> {
  const w: Writer = { account, clientId: newId(), next: 1, tasks: [] };
  const mutations = Array.from({ length: BATCH }, (_, i) => {
    const id = newId();
    w.tasks.push(id);
    return mutation(w, 'create', id, { title: `Load item ${i}`, category: 'project', projectId });
  });
  const { status, json } = await post(baseUrl, account, {
    clientId: w.clientId,
    schemaVersion: SCHEMA_VERSION,
    mutations,
  });
  const applied = status === 200 && (json as { results: { status: string }[] }).results[0]?.status;
  if (applied !== 'applied') throw new Error(`writer set-up push failed: ${status} ${JSON.stringify(json)}`);
  return w;
}

/** Pushes batches of BATCH patches back to back until `until`; returns statuses and mutations applied. */
async function writeUntil(baseUrl: string, w: Writer, until: number, status: Counts) {
  let mutations = 0;
  let round = 0;
  while (performance.now() < until) {
    round++;
    const batch = w.tasks.map((id, i) => mutation(w, 'patch', id, { title: `Load item ${i} r${round}` }));
    try {
      const res = await post(baseUrl, w.account, {
        clientId: w.clientId,
        schemaVersion: SCHEMA_VERSION,
        mutations: batch,
      });
      tally(status, res.status);
      if (res.status === 200) mutations += batch.length;
      else {
        // Not applied: the same ids go again (the client keeps its queue), after the server's hint.
        w.next -= batch.length;
        await new Promise((r) => setTimeout(r, 1000));
      }
    } catch {
      tally(status, null);
      w.next -= batch.length;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return mutations;
}

export async function runB14(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-b14-'));
  const server = await startServer(dir);
  try {
    const { baseUrl } = server;
    const accounts = await Promise.all(WRITER_EMAILS.map((e) => signIn(baseUrl, e)));
    const projectOf = new Map<string, string>();
    for (const a of accounts) {
      const res = await fetch(`${baseUrl}/api/projects`, { headers: { cookie: a.cookie } });
      const projects = (await res.json()) as { id: string }[];
      if (!projects[0]) throw new Error('the demo company has no project');
      projectOf.set(a.companyId, projects[0].id);
    }
    const writers: Writer[] = [];
    for (let i = 0; i < WRITERS; i++) {
      const account = accounts[i % accounts.length]!;
      writers.push(await setUpWriter(baseUrl, account, projectOf.get(account.companyId)!));
    }
    // Warm-up: a few sign-ins and one push per writer, not counted.
    await signInsFor(baseUrl, 1_000);
    const warm = counts();
    await Promise.all(writers.map((w) => writeUntil(baseUrl, w, performance.now() + 1, warm)));

    const idle = await signInsFor(baseUrl, IDLE_MS);

    const loadStart = performance.now();
    const until = loadStart + LOAD_MS;
    const pushStatus = counts();
    const load1 = os.loadavg()[0];
    const [loaded, written] = await Promise.all([
      signInsFor(baseUrl, LOAD_MS),
      Promise.all(writers.map((w) => writeUntil(baseUrl, w, until, pushStatus))),
    ]);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const mutationsPerSecond = written.reduce((a, b) => a + b, 0) / loadSeconds;

    const idleP50 = percentile(idle.latencies, 50);
    const idleP99 = percentile(idle.latencies, 99);
    const p50 = percentile(loaded.latencies, 50);
    const p99 = percentile(loaded.latencies, 99);
    const fivexx = loaded.status.fivexx + pushStatus.fivexx + loaded.status.errors + pushStatus.errors;
    const rows: SummaryRow[] = [
      {
        budget: 'B14',
        what: `sign-in p99 while ${WRITERS} clients push (${loaded.latencies.length} sign-ins), ms`,
        measured: fmt(p99, 0),
        comparator: `${fmt(idleP99, 0)} idle`,
        ratio: `${fmt(p99 / idleP99, 1)}x`,
        limit: `<= ${BUDGET_P99_MS}`,
        pass: p99 <= BUDGET_P99_MS && fivexx === 0 && loaded.status.ok > 0,
      },
      {
        budget: 'B14',
        what: 'sign-in p50 under load / idle, ms',
        measured: fmt(p50, 0),
        comparator: fmt(idleP50, 0),
        ratio: `${fmt(p50 / idleP50, 1)}x`,
        limit: '-',
        pass: null,
      },
      {
        budget: 'B14',
        what: '5xx or failed requests (sign-ins + pushes)',
        measured: String(fivexx),
        comparator: '-',
        ratio: '-',
        limit: '0',
        pass: fivexx === 0,
      },
      {
        budget: 'B14',
        what: `pushed under load: mutations/s (batches of ${BATCH})`,
        measured: fmt(mutationsPerSecond, 0),
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      },
    ];
    return {
      rows,
      raw: {
        writers: WRITERS,
        batch: BATCH,
        loadMs: LOAD_MS,
        signInIntervalMs: SIGN_IN_INTERVAL_MS,
        idle: { ...idle.status, p50: idleP50, p99: idleP99, median: median(idle.latencies) },
        loaded: {
          ...loaded.status,
          p50,
          p99,
          max: Math.max(...loaded.latencies),
          over2s: loaded.latencies.filter((l) => l > 2000).length,
        },
        pushes: { ...pushStatus, mutationsPerSecond },
        loadAverageAtStart: load1,
        loadAverageAtEnd: os.loadavg()[0],
      },
    };
  } finally {
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  pinSelf(LOAD_CORE);
  const started = new Date();
  const { rows, raw } = await runB14();
  console.log('');
  printTable(rows);
  console.log(JSON.stringify(raw));
  const dir = path.join(HERE, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `b14-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const environment = { node: process.version, cpus: cpuCount(), loadAverage: os.loadavg() };
  fs.writeFileSync(
    file,
    `${JSON.stringify({ startedAt: started.toISOString(), environment, summary: rows, results: { B14: raw } }, null, 2)}\n`,
  );
  console.log(`\nSaved ${path.relative(ROOT, file)}`);
}
