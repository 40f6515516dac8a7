// B2: a push of 100 mutations through the real push code path (JSON body -> validation -> one IMMEDIATE
// transaction, a savepoint per 16 mutations as none is rejected (ADR 020 round 4) -> the REST mutators ->
// stored results) against the same 100 row writes applied with raw prepared better-sqlite3 statements in one
// transaction. Both commit with the
// server's pragmas (WAL, synchronous=FULL: one fsync per batch) on the same database, interleaved batch by
// batch. Reported as the ratio raw CPU time / push CPU time per batch (DESIGN.md section 11: >= 0.50x), with the SQL
// statements the push runs per mutation (counted on one batch of the mix after the timed rounds).
// Run alone: npx tsx bench/b2-push.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newId } from '#shared/ids.ts';
import { SCHEMA_VERSION, type Mutation } from '#shared/sync-protocol.ts';
import { openDb, writeTx, type Db } from '#api/db/index.ts';
import { countStatements } from '#api/db/statement-count.ts';
import { seedLarge } from '#api/db/seed-large.ts';
import { seedRbac } from '#api/db/seed.ts';
import { copyCompany } from '#api/db/copy.ts';
import { connOf, migratePostgres, pgPool, postgresDatabase, sqliteDatabase } from '#api/db/database.ts';
import { runSync } from '#api/db/op.ts';
import { postgresAvailable, startTempCluster } from '#api/db/pg/cluster.ts';
import { PushRequestSchema } from '#shared/push-schemas.ts';
import { pullRead } from '#api/sync/pull.ts';
import { restContext } from '#api/mutators/core.ts';
import { createLog } from '#api/mutators/logs.ts';
import { updateProject } from '#api/mutators/projects.ts';
import { createTask, deleteTask, updateTask } from '#api/mutators/tasks.ts';
import { push, pushBatch, type PushAnswer } from '#api/sync/push.ts';
import { benchUser, fmt, median, printTable, type SummaryRow } from './lib.ts';

const BATCH = 100;
/**
 * This process's CPU time (user + system), in ms: on a shared machine wall time mostly measures the other
 * work; CPU time leaves out the time descheduled and the one fsync wait per batch, which both sides have.
 */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** Wall time of the last timed call (informative: the fsync wait and other work on the machine in it). */
let wallStart = 0;
let lastWallMs = 0;
const startClock = () => {
  wallStart = performance.now();
  return cpuMs();
};
const stopClock = (cpu0: number) => {
  lastWallMs = performance.now() - wallStart;
  return cpuMs() - cpu0;
};
const ROUNDS = 5;
const BATCHES_PER_ROUND = 30;
const WARMUP_BATCHES = 20;
const BUDGET = 0.5;

type Op =
  | { kind: 'createTask'; id: string; projectId: string; title: string; dueDate: string }
  | { kind: 'patchTask'; id: string; status: string; priority: string }
  | { kind: 'patchProject'; id: string; progress: number }
  | { kind: 'createLog'; id: string; projectId: string; title: string }
  | { kind: 'deleteTask'; id: string };

const STATUSES = ['pending', 'in-progress', 'completed', 'blocked'];
const PRIORITIES = ['low', 'medium', 'high', 'critical'];

/**
 * A realistic offline batch: creates of tasks (full rows), patches of one or two fields of
 * tasks and projects, log creates, and deletes of tasks created earlier. Each variant (push, raw, mutators) patches its
 * own third of the tasks, cycling through it, and deletes tasks it created.
 */
interface Pool {
  tasks: string[];
  projects: string[];
  created: string[];
  next: number;
}

function makeOps(pool: Pool, n = BATCH): Op[] {
  const ops: Op[] = [];
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const k = i % 10;
    const project = pool.projects[(i * 7) % pool.projects.length]!;
    if (k < 3) {
      const id = newId();
      ops.push({
        kind: 'createTask',
        id,
        projectId: project,
        title: `Fix handrail on level ${i % 7}`,
        dueDate: new Date(now + 3 * 86_400_000).toISOString(),
      });
      pool.created.push(id);
    } else if (k < 7) {
      const id = pool.tasks[pool.next++ % pool.tasks.length]!;
      ops.push({ kind: 'patchTask', id, status: STATUSES[i % 4]!, priority: PRIORITIES[(i + 1) % 4]! });
    } else if (k === 7) {
      ops.push({ kind: 'patchProject', id: project, progress: i % 101 });
    } else if (k === 8) {
      ops.push({ kind: 'createLog', id: newId(), projectId: project, title: `Daily report ${i}` });
    } else {
      // Tasks this pool created (three per ten mutations, so there always is one).
      ops.push({ kind: 'deleteTask', id: pool.created.shift()! });
    }
  }
  return ops;
}

function toMutations(ops: Op[], firstId: number, versions: Map<string, number>): Mutation[] {
  const clientTime = Date.now();
  return ops.map((op, i): Mutation => {
    const base = { id: firstId + i, clientTime };
    switch (op.kind) {
      case 'createTask':
        return {
          ...base,
          op: 'create',
          table: 'tasks',
          rowId: op.id,
          baseVersion: null,
          data: {
            title: op.title,
            description: 'Loose bolts on the east stair; needs new anchors before the inspection.',
            projectId: op.projectId,
            category: 'project',
            status: 'pending',
            priority: 'high',
            dueDate: op.dueDate,
            isMilestone: false,
            estimatedHours: 2.5,
          },
        };
      case 'patchTask':
        return {
          ...base,
          op: 'patch',
          table: 'tasks',
          rowId: op.id,
          baseVersion: versions.get(op.id) ?? 0,
          data: { status: op.status, priority: op.priority },
        };
      case 'patchProject':
        return {
          ...base,
          op: 'patch',
          table: 'projects',
          rowId: op.id,
          baseVersion: versions.get(op.id) ?? 0,
          data: { progress: op.progress },
        };
      case 'createLog':
        return {
          ...base,
          op: 'create',
          table: 'project_logs',
          rowId: op.id,
          baseVersion: null,
          data: {
            projectId: op.projectId,
            title: op.title,
            content: 'Crew on site, forms stripped on level 2.',
            type: 'general',
          },
        };
      case 'deleteTask':
        return { ...base, op: 'delete', table: 'tasks', rowId: op.id, baseVersion: null, data: {} };
    }
  });
}

/** The same row writes with raw prepared statements: a version bump and the write, per row, one transaction. */
function rawApplier(db: Db, companyId: string, userId: string) {
  const c = db.$client;
  const bump = c
    .prepare<[string], number>(
      'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version',
    )
    .pluck();
  const insertTask = c.prepare(
    `INSERT INTO tasks (id, title, description, project_id, company_id, category, status, priority, due_date,
       is_milestone, estimated_hours, created_at, version, field_meta, updated_at, updated_by)
     VALUES (?, ?, ?, ?, ?, 'project', 'pending', 'high', ?, 0, 2.5, ?, ?, ?, ?, ?)`,
  );
  const patchTask = c.prepare(
    'UPDATE tasks SET status = ?, priority = ?, version = ?, field_meta = ?, updated_at = ?, updated_by = ? WHERE id = ? AND company_id = ?',
  );
  const patchProject = c.prepare(
    'UPDATE projects SET progress = ?, version = ?, field_meta = ?, updated_at = ?, updated_by = ? WHERE id = ? AND company_id = ?',
  );
  const insertLog = c.prepare(
    `INSERT INTO project_logs (id, project_id, user_id, company_id, title, content, type, status, images, created_at,
       version, field_meta, updated_at, updated_by)
     VALUES (?, ?, ?, ?, ?, 'Crew on site, forms stripped on level 2.', 'general', 'open', '[]', ?, ?, ?, ?, ?)`,
  );
  const deleteTask = c.prepare(
    'UPDATE tasks SET deleted_at = ?, version = ?, updated_at = ?, updated_by = ? WHERE id = ? AND company_id = ?',
  );
  return (ops: Op[]) =>
    writeTx(db, () => {
      const at = new Date().toISOString();
      for (const op of ops) {
        const v = bump.get(companyId)!;
        const meta = JSON.stringify({ x: [v, Date.now(), 'raw'] });
        switch (op.kind) {
          case 'createTask':
            insertTask.run(
              op.id,
              op.title,
              'Loose bolts on the east stair; needs new anchors before the inspection.',
              op.projectId,
              companyId,
              op.dueDate,
              at,
              v,
              meta,
              at,
              userId,
            );
            break;
          case 'patchTask':
            patchTask.run(op.status, op.priority, v, meta, at, userId, op.id, companyId);
            break;
          case 'patchProject':
            patchProject.run(op.progress, v, meta, at, userId, op.id, companyId);
            break;
          case 'createLog':
            insertLog.run(op.id, op.projectId, userId, companyId, op.title, at, v, meta, at, userId);
            break;
          case 'deleteTask':
            deleteTask.run(at, v, at, userId, op.id, companyId);
            break;
        }
      }
    });
}

export async function runB2(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-b2-'));
  const db = openDb(path.join(dir, 'bench.db'));
  try {
    seedRbac(db);
    const { companyId, userId } = seedLarge(db, { projects: 50, tasks: 20_000, logs: 2_000 });
    const c = db.$client;
    const user = benchUser(db, userId, companyId);
    const versions = new Map(
      c
        .prepare<[string, string], { id: string; version: number }>(
          'SELECT id, version FROM tasks WHERE company_id = ? UNION ALL SELECT id, version FROM projects WHERE company_id = ?',
        )
        .all(companyId, companyId)
        .map((r) => [r.id, r.version]),
    );
    const pool = {
      tasks: c
        .prepare<[string], string>('SELECT id FROM tasks WHERE company_id = ? ORDER BY version')
        .pluck()
        .all(companyId),
      projects: c
        .prepare<[string], string>('SELECT id FROM projects WHERE company_id = ?')
        .pluck()
        .all(companyId),
      created: [] as string[],
      next: 0,
    };
    const third = Math.floor(pool.tasks.length / 3);
    const rawPool: Pool = { ...pool, tasks: pool.tasks.splice(0, third), created: [] };
    const mutatorPool: Pool = { ...pool, tasks: pool.tasks.splice(0, third), created: [] };
    const applyRaw = rawApplier(db, companyId, userId);
    const clientId = newId();
    let nextMutation = 1;
    let statementsPerMutation = Number.NaN;

    const database = sqliteDatabase(db);
    let answers: Promise<PushAnswer>[] = [];
    const checkAnswers = async () => {
      for (const answer of await Promise.all(answers)) {
        if (answer.status !== 200)
          throw new Error(`push answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        const rejected = answer.body.results.filter((r) => r.status !== 'applied');
        if (rejected.length) throw new Error(`push did not apply everything: ${JSON.stringify(rejected[0])}`);
      }
      answers = [];
    };
    const pushOnce = (count = false) => {
      const body = JSON.stringify({
        clientId,
        schemaVersion: SCHEMA_VERSION,
        mutations: toMutations(makeOps(pool), nextMutation, versions),
      });
      // On SQLite the whole push, validation to commit, has run when push() hands back its promise (ADR
      // 027): the clock stops there, and the answer is checked when the round ends.
      const t0 = startClock();
      const counted = count
        ? countStatements(() => push(database, user, JSON.parse(body), new Date()))
        : undefined;
      const answer = counted ? counted.result : push(database, user, JSON.parse(body), new Date());
      const ms = stopClock(t0);
      if (counted) statementsPerMutation = counted.count / BATCH;
      answers.push(answer);
      nextMutation += BATCH;
      return ms;
    };
    // Informative: the same mutations straight through the REST mutators in one transaction (no sync layer),
    // to split the push's cost between the mutators and the sync layer around them.
    const mutatorsOnce = () => {
      const mutations = toMutations(makeOps(mutatorPool), 1, versions);
      const t0 = startClock();
      writeTx(db, () => {
        const ctx = restContext(connOf(db), user, new Date());
        for (const m of mutations) {
          if (m.op === 'create' && m.table === 'tasks') runSync(createTask(ctx, { ...m.data, id: m.rowId }));
          else if (m.op === 'create') runSync(createLog(ctx, { ...m.data, id: m.rowId }));
          else if (m.op === 'patch' && m.table === 'tasks') runSync(updateTask(ctx, m.rowId, m.data));
          else if (m.op === 'patch') runSync(updateProject(ctx, m.rowId, m.data));
          else runSync(deleteTask(ctx, m.rowId));
        }
      });
      return stopClock(t0);
    };
    const rawOnce = () => {
      const ops = makeOps(rawPool);
      const t0 = startClock();
      applyRaw(ops);
      return stopClock(t0);
    };

    for (let i = 0; i < WARMUP_BATCHES; i++) {
      pushOnce();
      rawOnce();
      mutatorsOnce();
    }
    const rounds: {
      pushMs: number;
      rawMs: number;
      mutatorsMs: number;
      ratio: number;
      wallRatio: number;
      pushWallMs: number[];
    }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const p: number[] = [];
      const w: number[] = [];
      const m: number[] = [];
      const pWall: number[] = [];
      const wWall: number[] = [];
      for (let i = 0; i < BATCHES_PER_ROUND; i++) {
        // Rotate the order, so none always follows another's checkpoint.
        const order = [
          () => (p.push(pushOnce()), pWall.push(lastWallMs)),
          () => (w.push(rawOnce()), wWall.push(lastWallMs)),
          () => m.push(mutatorsOnce()),
        ];
        for (let k = 0; k < 3; k++) order[(i + k) % 3]!();
      }
      await checkAnswers();
      const pushMs = median(p);
      const rawMs = median(w);
      rounds.push({
        pushMs,
        rawMs,
        mutatorsMs: median(m),
        ratio: rawMs / pushMs,
        wallRatio: median(wWall) / median(pWall),
        pushWallMs: pWall,
      });
    }
    pushOnce(true);
    await checkAnswers();
    const sqliteWall = median(rounds.flatMap((r) => r.pushWallMs));
    const onPostgres = postgresAvailable()
      ? await pushAndPullOnPostgres(db, user, companyId, () => makeOps(pool), versions)
      : undefined;
    const pushMs = median(rounds.map((r) => r.pushMs));
    const rawMs = median(rounds.map((r) => r.rawMs));
    const mutatorsMs = median(rounds.map((r) => r.mutatorsMs));
    const ratio = median(rounds.map((r) => r.ratio));
    const wallRatio = median(rounds.map((r) => r.wallRatio));
    const integrity = c.pragma('integrity_check', { simple: true });
    const rows: SummaryRow[] = [
      {
        budget: 'B2',
        what: `push, ${BATCH} mutations per batch (CPU ms per batch)`,
        measured: fmt(pushMs),
        comparator: `${fmt(rawMs)} raw`,
        ratio: `${fmt(ratio)}x (wall ${fmt(wallRatio)}x)`,
        limit: `>= ${BUDGET}x`,
        pass: ratio >= BUDGET,
      },
      {
        budget: 'B2',
        what: 'push, SQL statements per mutation (the mix; raw: 2)',
        measured: fmt(statementsPerMutation),
        comparator: '2 raw',
        ratio: '-',
        limit: '-',
        pass: null,
      },
      {
        budget: 'B2',
        what: 'same batch via the REST mutators, no sync layer (CPU ms)',
        measured: fmt(mutatorsMs),
        comparator: `${fmt(rawMs)} raw`,
        ratio: `${fmt(rawMs / mutatorsMs)}x`,
        limit: '-',
        pass: null,
      },
      {
        budget: 'B2',
        what: 'push, mutations per CPU-second',
        measured: fmt((BATCH * 1000) / pushMs, 0),
        comparator: `${fmt((BATCH * 1000) / rawMs, 0)} raw`,
        ratio: '-',
        limit: '-',
        pass: null,
      },
    ];
    if (onPostgres) {
      rows.push(
        {
          budget: 'B2',
          what: `push on PostgreSQL (local socket), ${BATCH} mutations per batch, wall ms p50`,
          measured: fmt(onPostgres.pushWallMs),
          comparator: `${fmt(sqliteWall)} SQLite`,
          ratio: `${fmt(sqliteWall / onPostgres.pushWallMs)}x`,
          limit: '-',
          pass: null,
        },
        {
          budget: 'pull',
          what: `pull pages of 1000 on PostgreSQL (the B2 company: ${onPostgres.pull.pages} pages), p50 / p95 ms`,
          measured: `${fmt(onPostgres.pull.p50)} / ${fmt(onPostgres.pull.p95)}`,
          comparator: `${fmt(onPostgres.sqlitePull.p50)} / ${fmt(onPostgres.sqlitePull.p95)} SQLite`,
          ratio: `${fmt(onPostgres.sqlitePull.p50 / onPostgres.pull.p50)}x`,
          limit: '-',
          pass: null,
        },
      );
    } else {
      rows.push({
        budget: 'B2',
        what: 'push and pull on PostgreSQL: not measured, PostgreSQL is not installed',
        measured: '-',
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      });
    }
    return {
      rows,
      raw: {
        onPostgres,
        batch: BATCH,
        rounds,
        pushMsPerBatch: pushMs,
        rawMsPerBatch: rawMs,
        mutatorsMsPerBatch: mutatorsMs,
        ratio,
        wallRatio,
        statementsPerMutation,
        integrity,
        synchronous: c.pragma('synchronous', { simple: true }),
      },
    };
  } finally {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const PG_BATCHES = 60;

/**
 * The same pushes and pulls on PostgreSQL (ADR 027, issue 15): the bench company copied over with
 * `db:copy`, then batches of the same mix pushed through the same Op as on SQLite, in PostgreSQL write
 * transactions; wall time, since the database's work is in its own process. Pulls page through the
 * company's rows, 1,000 at a time, on both databases.
 */
async function pushAndPullOnPostgres(
  db: Db,
  user: ReturnType<typeof benchUser>,
  companyId: string,
  nextOps: () => Op[],
  versions: Map<string, number>,
) {
  const cluster = startTempCluster();
  try {
    const url = cluster.createDatabase('bench');
    const pool = pgPool(url, 2);
    await migratePostgres(pool);
    await copyCompany(db.$client, pool, companyId, { dryRun: false });
    await pool.end();
    const pg = await postgresDatabase(url);
    try {
      const clientId = newId();
      let next = 1;
      const walls: number[] = [];
      for (let i = 0; i < PG_BATCHES; i++) {
        const request = PushRequestSchema.parse({
          clientId,
          schemaVersion: SCHEMA_VERSION,
          mutations: toMutations(nextOps(), next, versions),
        });
        next += BATCH;
        const t0 = performance.now();
        const answer = await pg.writeTx(companyId, (c) => pushBatch(c, user, request, new Date()));
        if (i >= 10) walls.push(performance.now() - t0);
        if (answer.status !== 200 || answer.body.results.some((r) => r.status !== 'applied')) {
          throw new Error(`push on PostgreSQL: ${JSON.stringify(answer.body).slice(0, 300)}`);
        }
      }
      const pages = async (read: (cursor: number) => Promise<{ cursor: number; hasMore: boolean }>) => {
        const ms: number[] = [];
        for (let round = 0; round < 3; round++) {
          let cursor = 0;
          for (;;) {
            const t0 = performance.now();
            const page = await read(cursor);
            if (round > 0) ms.push(performance.now() - t0);
            if (!page.hasMore) break;
            cursor = page.cursor;
          }
        }
        ms.sort((a, b) => a - b);
        return {
          p50: ms[Math.floor(ms.length / 2)]!,
          p95: ms[Math.floor(ms.length * 0.95)]!,
          pages: ms.length / 2,
        };
      };
      const query = (cursor: number) => ({ cursor, limit: 1000, schemaVersion: SCHEMA_VERSION });
      const asPage = (r: { answer: unknown }) => r.answer as { cursor: number; hasMore: boolean };
      const pull = await pages(async (cursor) =>
        asPage(await pg.readTx((c) => pullRead(c.sql, user, query(cursor), new Date()))),
      );
      const sql = connOf(db).sql;
      const sqlitePull = await pages(async (cursor) =>
        asPage(
          db.$client.transaction(() => runSync(pullRead(sql, user, query(cursor), new Date()))).deferred(),
        ),
      );
      return { pushWallMs: median(walls), pull, sqlitePull };
    } finally {
      await pg.close();
    }
  } finally {
    cluster.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runB2();
  printTable(result.rows);
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `b2-push-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result.raw, null, 2)}\n`);
  console.log(`raw results: ${path.relative(process.cwd(), file)}`);
}
