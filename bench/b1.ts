// B1: server CPU-microseconds per request of the real app under a mix of reads and writes: on every
// connection three `GET /api/tasks` (500 visible tasks, signed in as an admin) then one `PATCH /api/tasks/:id`
// changing a task's status, so every fourth request is a write and the list changes under the reads. The
// comparators answer the same mix on the same database file with a session lookup, the same SQL and the same
// JSON serialisation (bench/b1-comparator.ts). Every server is a child process pinned to core 0; the load
// (autocannon, in this process) runs on core 1. CPU = utime + stime of the server process from
// /proc/<pid>/stat before and after each round, divided by the 2xx responses of that round.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { affinity, fmt, median, processCpuMicros, startPinned, type Child, type SummaryRow } from './lib.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SERVER_CORE = 0;
const CONNECTIONS = 10;
const WARMUP_S = 2;
const ROUND_S = 3;
const ROUNDS = 3;
const EXPECTED_TASKS = 500;
/** Reads per write on each connection. */
const READS_PER_WRITE = 3;
const STATUSES = ['pending', 'in-progress', 'completed', 'blocked'];
const BUDGET = 1.1;

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
}
interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Target {
  name: string;
  label: string;
  child: Child;
  /** Origin of the server (no path). */
  url: string;
}

interface Round {
  target: string;
  round: number;
  requests: number;
  seconds: number;
  cpuMicros: number;
  cpuMicrosPerRequest: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

let cookie = '';
let taskIds: string[] = [];
let writes = 0;

/** The mix: READS_PER_WRITE list reads, then a status change of the next task (round robin over the list). */
function mix(origin: string): AutocannonRequest[] {
  const read: AutocannonRequest = { method: 'GET', path: '/api/tasks' };
  const patch: AutocannonRequest = {
    method: 'PATCH',
    path: '/api/tasks/x',
    headers: { 'content-type': 'application/json', origin },
    setupRequest: (req) => {
      const n = writes++;
      return {
        ...req,
        path: `/api/tasks/${taskIds[n % taskIds.length]}`,
        body: JSON.stringify({ status: STATUSES[n % STATUSES.length] }),
      };
    },
  };
  return [...Array.from({ length: READS_PER_WRITE }, () => read), patch];
}

async function load(t: Target, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: t.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
    requests: mix(t.url),
  });
}

async function measure(t: Target, round: number): Promise<Round> {
  const before = processCpuMicros(t.child.pid);
  const r = await load(t, ROUND_S);
  const cpu = processCpuMicros(t.child.pid) - before;
  return {
    target: t.name,
    round,
    requests: r['2xx'],
    seconds: r.duration,
    cpuMicros: cpu,
    cpuMicrosPerRequest: r['2xx'] > 0 ? cpu / r['2xx'] : Number.NaN,
    requestsPerSecond: r['2xx'] / r.duration,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'admin@summit.test', password: 'sitecommand-demo' }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error('sign-in returned no session cookie');
  return `sc_session=${token}`;
}

export async function runB1(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const children: Child[] = [];
  try {
    const app = await startPinned(SERVER_CORE, path.join(HERE, 'b1-server.ts'), []);
    children.push(app);
    const base = `http://127.0.0.1:${String(app.ready.port)}`;
    cookie = await signIn(base);
    const res = await fetch(`${base}/api/tasks`, { headers: { cookie } });
    const body = Buffer.from(await res.arrayBuffer());
    const list = JSON.parse(body.toString('utf8')) as { id: string }[];
    if (res.status !== 200 || !Array.isArray(list)) throw new Error(`GET /api/tasks answered ${res.status}`);
    if (list.length !== EXPECTED_TASKS) {
      throw new Error(
        `GET /api/tasks returned ${list.length} tasks, expected ${EXPECTED_TASKS} (is the route implemented?)`,
      );
    }
    taskIds = list.map((t) => t.id);
    console.log(
      `  B1: GET /api/tasks -> ${list.length} tasks, ${body.length} bytes; mix: ${READS_PER_WRITE} reads, 1 PATCH`,
    );

    const targets: Target[] = [{ name: 'app', label: 'app (Hono)', child: app, url: base }];
    const comparators: [string, string][] = [
      ['node-http', 'node:http'],
      ['fastify', 'Fastify'],
      ['express', 'Express'],
    ];
    for (const [name, label] of comparators) {
      const child = await startPinned(SERVER_CORE, path.join(HERE, 'b1-comparator.ts'), [
        name,
        String(app.ready.databasePath),
      ]);
      children.push(child);
      targets.push({ name, label, child, url: `http://127.0.0.1:${String(child.ready.port)}` });
    }
    // The same answer to a read, and a write that works, from every server before any load.
    for (const t of targets) {
      const check = Buffer.from(
        await (await fetch(`${t.url}/api/tasks`, { headers: { cookie } })).arrayBuffer(),
      );
      if (!check.equals(body)) throw new Error(`${t.name} does not return the same list as the app`);
    }
    for (const t of targets) {
      const id = taskIds[0]!;
      const w = await fetch(`${t.url}/api/tasks/${id}`, {
        method: 'PATCH',
        headers: { cookie, origin: t.url, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'blocked' }),
      });
      const row = (await w.json()) as { id?: string; status?: string };
      if (w.status !== 200 || row.id !== id || row.status !== 'blocked')
        throw new Error(`${t.name}: PATCH answered ${w.status} ${JSON.stringify(row)}`);
    }

    for (const t of targets) await load(t, WARMUP_S);
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of targets) {
        const m = await measure(t, r);
        if (m.non2xx || m.errors)
          console.log(`  B1: ${t.name} round ${r}: ${m.non2xx} non-2xx, ${m.errors} errors`);
        rounds.push(m);
      }
    }

    const stat = (name: string) => {
      const mine = rounds.filter((x) => x.target === name);
      return {
        cpuMicrosPerRequest: median(mine.map((x) => x.cpuMicrosPerRequest)),
        requestsPerSecond: median(mine.map((x) => x.requestsPerSecond)),
      };
    };
    const summary = Object.fromEntries(targets.map((t) => [t.name, stat(t.name)]));
    const baseline = summary['node-http']!.cpuMicrosPerRequest;
    const rows: SummaryRow[] = [];
    for (const t of targets) {
      if (t.name === 'node-http') continue;
      const s = summary[t.name]!;
      const ratio = s.cpuMicrosPerRequest / baseline;
      const isApp = t.name === 'app';
      rows.push({
        budget: isApp ? 'B1' : 'B1 info',
        what: `${t.label} CPU-us/req, 3 reads : 1 write (${fmt(s.requestsPerSecond, 0)} req/s)`,
        measured: fmt(s.cpuMicrosPerRequest, 1),
        comparator: `node:http ${fmt(baseline, 1)} (${fmt(summary['node-http']!.requestsPerSecond, 0)} req/s)`,
        ratio: `${fmt(ratio)}x`,
        limit: isApp ? `<= ${fmt(BUDGET)}x` : '-',
        pass: isApp ? ratio <= BUDGET : null,
      });
    }
    return {
      rows,
      raw: {
        affinity: {
          loadGenerator: affinity(process.pid),
          ...Object.fromEntries(targets.map((t) => [t.name, affinity(t.child.pid)])),
        },
        config: {
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_S,
          roundSeconds: ROUND_S,
          rounds: ROUNDS,
          tasks: list.length,
          bodyBytes: body.length,
          readsPerWrite: READS_PER_WRITE,
          writes,
        },
        summary,
        rounds,
      },
    };
  } finally {
    for (const c of children) await c.stop();
  }
}
