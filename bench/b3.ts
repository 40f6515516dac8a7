// B3: validating a 100-mutation push batch with the compiled zod schema (synchronous safeParse of the already
// parsed body) against JSON.parse of the same payload. Reported in CPU microseconds per mutation (this
// process's user + system time, steadier than wall time on a shared machine); median of interleaved rounds.
import { newId } from '#shared/ids.ts';
import { PushRequestSchema, SCHEMA_VERSION, type Mutation, type PushRequest } from '#shared/sync-protocol.ts';
import { fmt, measureOps, median, type SummaryRow } from './lib.ts';

const MUTATIONS = 100;
// Time-bounded rounds (a 100-mutation batch costs 15-600 us depending on the machine): several thousand
// batches, i.e. hundreds of thousands of mutations, per round on a fast machine.
const ROUND_MS = 400;
const ASYNC_ROUND_MS = 200;
const WARMUP_MS = 300;
const ROUNDS = 5;
const BUDGET_US = 0.15;

/** A realistic batch: task creates (full rows), patches of one or two fields, a few log creates and deletes. */
export function makePushBatch(n = MUTATIONS): PushRequest {
  const projectId = newId();
  const start = Date.now();
  const mutations: Mutation[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 10;
    const clientTime = start + i * 250;
    if (kind < 3) {
      mutations.push({
        id: i + 1,
        op: 'create',
        table: 'tasks',
        rowId: newId(),
        data: {
          title: `Fix handrail on level ${i % 7}`,
          description: 'Loose bolts on the east stair; needs new anchors before the inspection.',
          projectId,
          assigneeId: null,
          category: 'project',
          status: 'pending',
          priority: 'high',
          dueDate: new Date(clientTime + 3 * 86_400_000).toISOString(),
          isMilestone: false,
          estimatedHours: 2.5,
        },
        baseVersion: null,
        clientTime,
      });
    } else if (kind < 8) {
      mutations.push({
        id: i + 1,
        op: 'patch',
        table: kind % 2 ? 'tasks' : 'projects',
        rowId: newId(),
        data:
          kind % 2
            ? { status: 'completed', completedAt: new Date(clientTime).toISOString() }
            : { progress: 40 + i },
        baseVersion: 1000 + i,
        clientTime,
      });
    } else if (kind === 8) {
      mutations.push({
        id: i + 1,
        op: 'create',
        table: 'project_logs',
        rowId: newId(),
        data: {
          projectId,
          title: 'Daily log',
          content: 'Concrete pour finished at 14:00, 12 crew on site.',
          type: 'general',
          status: 'open',
        },
        baseVersion: null,
        clientTime,
      });
    } else {
      mutations.push({
        id: i + 1,
        op: 'delete',
        table: 'photos',
        rowId: newId(),
        data: {},
        baseVersion: 900 + i,
        clientTime,
      });
    }
  }
  return { clientId: newId(), schemaVersion: SCHEMA_VERSION, mutations };
}

/** Microseconds per call of `fn` (CPU time and wall time), calling it for about `ms` milliseconds. */
function usPerCall(fn: () => unknown, ms: number): { cpuUs: number; wallUs: number } {
  const m = measureOps(fn, ms, 1);
  return { cpuUs: 1e6 / m.opsPerCpuSecond, wallUs: 1e6 / m.opsPerSecond };
}

async function usPerAsyncCall(
  fn: () => Promise<unknown>,
  ms: number,
): Promise<{ cpuUs: number; wallUs: number }> {
  let n = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let now = t0;
  while (now - t0 < ms) {
    await fn();
    n++;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / n, wallUs: ((now - t0) * 1000) / n };
}

export async function runB3(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const batch = makePushBatch();
  const text = JSON.stringify(batch);
  const parsed: unknown = JSON.parse(text);
  const check = PushRequestSchema.safeParse(parsed);
  if (!check.success) throw new Error(`B3 payload does not validate: ${check.error.message}`);
  const bad = [
    { ...batch, extra: 1 },
    { ...batch, mutations: [{ ...batch.mutations[0]!, data: [] }] },
    { ...batch, mutations: [{ ...batch.mutations[0]!, op: 'upsert' }] },
  ];
  if (bad.some((b) => PushRequestSchema.safeParse(b).success))
    throw new Error('PushRequestSchema accepts a bad batch');

  const zod = () => PushRequestSchema.safeParse(parsed).success;
  const json = () => JSON.parse(text) !== null;
  const zodAsync = async () => (await PushRequestSchema.safeParseAsync(parsed)).success;
  usPerCall(zod, WARMUP_MS);
  usPerCall(json, WARMUP_MS);
  await usPerAsyncCall(zodAsync, WARMUP_MS / 2);

  // Per batch of MUTATIONS, in CPU microseconds (wall time kept in the raw results).
  type PerCall = { cpuUs: number; wallUs: number };
  const rounds: { round: number; zod: PerCall; jsonParse: PerCall; zodAsync: PerCall }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const zodR = usPerCall(zod, ROUND_MS);
    const jsonR = usPerCall(json, ROUND_MS);
    const asyncR = await usPerAsyncCall(zodAsync, ASYNC_ROUND_MS);
    rounds.push({ round: r, zod: zodR, jsonParse: jsonR, zodAsync: asyncR });
  }
  const zodPer = median(rounds.map((x) => x.zod.cpuUs)) / MUTATIONS;
  const jsonPer = median(rounds.map((x) => x.jsonParse.cpuUs)) / MUTATIONS;
  const asyncPer = median(rounds.map((x) => x.zodAsync.cpuUs)) / MUTATIONS;
  const rows: SummaryRow[] = [
    {
      budget: 'B3',
      what: 'zod safeParse, CPU-us/mutation',
      measured: fmt(zodPer, 3),
      comparator: `JSON.parse ${fmt(jsonPer, 3)}`,
      ratio: `${fmt(zodPer / jsonPer)}x`,
      limit: `<= ${BUDGET_US} us`,
      pass: zodPer <= BUDGET_US,
    },
    {
      budget: 'B3 info',
      what: 'zod safeParseAsync (no JIT), CPU-us/mutation',
      measured: fmt(asyncPer, 3),
      comparator: `safeParse ${fmt(zodPer, 3)}`,
      ratio: `${fmt(asyncPer / zodPer)}x`,
      limit: '-',
      pass: null,
    },
  ];
  return {
    rows,
    raw: {
      config: {
        mutations: MUTATIONS,
        payloadBytes: text.length,
        roundMs: ROUND_MS,
        asyncRoundMs: ASYNC_ROUND_MS,
        warmupMs: WARMUP_MS,
        rounds: ROUNDS,
      },
      summary: { zodUsPerMutation: zodPer, jsonParseUsPerMutation: jsonPer, zodAsyncUsPerMutation: asyncPer },
      rounds,
    },
  };
}
