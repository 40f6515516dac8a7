// B4: the data-layer functions the routes and push call, timed as they are called, against raw prepared
// better-sqlite3 doing the same work on the same database (a large tenant: 50 projects, 10,000 tasks,
// 1,000 logs; seedLarge), signed in as its manager:
//   get by id        findVisibleTask (the mutators' prepared scoped lookup)      vs a raw SELECT by id
//   page of 50       pageOfVisibleTasks (GET /api/tasks?limit=50, first page)     vs a raw SELECT ... LIMIT 51
//   apply patch      findVisibleTask + applyTaskPatch (what PATCH and a pushed patch run) vs raw SELECT, bump,
//                    UPDATE, and the row built from the one read as the app builds it
//   pull since N     pull() (GET /api/sync/pull, 1,000 changes)                   vs a raw SELECT per table, merged
// Raw rows get the same decoding the app gives them (JSON columns parsed, booleans), so both sides hand back
// the same data. The rate is operations per second of this process's CPU time (user + system): it leaves
// out fsync waits and time descheduled by other work, the same for both and only noise. Wall-clock rates
// are in the raw results. Budget: >= 0.90x raw.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connOf, sqliteDatabase } from '#api/db/database.ts';
import { openDb, writeTx } from '#api/db/index.ts';
import { runSync } from '#api/db/op.ts';
import { seedLarge } from '#api/db/seed-large.ts';
import { seedRbac } from '#api/db/seed.ts';
import { restContext } from '#api/mutators/core.ts';
import { applyTaskPatch, findVisibleTask, pageOfVisibleTasks } from '#api/mutators/tasks.ts';
import { pull } from '#api/sync/pull.ts';
import { readableTables } from '#api/sync/scope.ts';
import { benchUser, fmt, measureOps, median, type OpsMeasure, type SummaryRow } from './lib.ts';

const ROUNDS = 7;
const ROUND_MS = 300;
const WARMUP_MS = 150;
const BUDGET = 0.9;
const PAGE = 50;
const PULL_LIMIT = 1000;
const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;

type Variant = 'app' | 'raw';
const VARIANTS: Variant[] = ['app', 'raw'];

interface Op {
  name: string;
  what: string;
  /** Calls per clock read: 1 for slow operations. */
  batch: number;
  /** Length of one measurement when not ROUND_MS (writes: each commit waits on an fsync, so fewer ops fit). */
  roundMs?: number;
  run: Record<Variant, (i: number) => unknown>;
}

type Row = Record<string, unknown>;
/** What GET /api/tasks sends of a task row: its columns without the sync bookkeeping, camelCase. */
const TASK_PUBLIC = `id, title, description, project_id AS projectId, assignee_id AS assigneeId,
  company_id AS companyId, category, status, priority, due_date AS dueDate, completed_at AS completedAt,
  created_at AS createdAt, is_milestone AS isMilestone, estimated_hours AS estimatedHours, version,
  updated_at AS updatedAt, updated_by AS updatedBy`;
/** What drizzle does to a task row: snake_case to camelCase, JSON and boolean columns decoded. */
const TASK_SELECT = `${TASK_PUBLIC}, deleted_at AS deletedAt, field_meta AS fieldMeta`;
const decodePublicTask = (r: Row) => {
  r.isMilestone = r.isMilestone === 1;
  return r;
};
const decodeTask = (r: Row | undefined) => {
  if (!r) return r;
  decodePublicTask(r);
  r.fieldMeta = JSON.parse(r.fieldMeta as string);
  return r;
};

export async function runB4(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-b4-'));
  const db = openDb(path.join(dir, 'bench.db'));
  try {
    seedRbac(db);
    const { companyId: company, userId } = seedLarge(db, { projects: 50, tasks: 10_000, logs: 1_000 });
    const user = benchUser(db, userId, company);
    const c = db.$client;
    const ids = c
      .prepare<[string], string>('SELECT id FROM tasks WHERE company_id = ? ORDER BY id')
      .pluck()
      .all(company);
    // A fixed pseudo-random visiting order, the same for both variants.
    const order = ids.map((_, i) => ids[(i * 7919) % ids.length]!);
    const taskId = (i: number) => order[i % order.length]!;
    const lastVersion = () =>
      c.prepare<[string], number>('SELECT last_version FROM companies WHERE id = ?').pluck().get(company)!;
    const since = (i: number) => (i * 997) % Math.max(1, lastVersion() - 2 * PULL_LIMIT);

    const rawGet = c.prepare<[string, string], Row>(
      `SELECT ${TASK_SELECT} FROM tasks WHERE id = ? AND company_id = ? AND deleted_at IS NULL`,
    );
    // A page answers what GET /api/tasks sends: the row without its sync bookkeeping (fieldMeta, deletedAt).
    const rawPage = c.prepare<[string, number], Row>(
      `SELECT ${TASK_PUBLIC} FROM tasks WHERE company_id = ? AND deleted_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    );
    const rawBump = c
      .prepare<[string], number>(
        'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version',
      )
      .pluck();
    const rawPatch = c.prepare<[string, string, number, string, string, string, string, string]>(
      `UPDATE tasks SET title = ?, priority = ?, version = ?, field_meta = ?, updated_at = ?, updated_by = ?
       WHERE id = ? AND company_id = ?`,
    );
    const patchOf = (i: number) => ({ title: `Check rebar ${i % 97}`, priority: PRIORITIES[i % 4]! });
    // The pull comparator: the same tables, each one SELECT of its rows after the cursor, merged by version.
    const tables = readableTables(user);
    const rawPullTable = Object.fromEntries(
      tables.map((t) => [
        t,
        c.prepare<[string, number, number], Row>(
          `SELECT * FROM ${t} WHERE company_id = ? AND version > ? ORDER BY version LIMIT ?`,
        ),
      ]),
    );
    const rawPull = (cursor: number) => {
      const all: Row[] = [];
      for (const t of tables)
        for (const r of rawPullTable[t]!.all(company, cursor, PULL_LIMIT + 1)) all.push(r);
      all.sort((a, b) => (a.version as number) - (b.version as number));
      return all.slice(0, PULL_LIMIT);
    };
    const ctx = () => restContext(connOf(db), user, new Date());
    const conn = connOf(db);
    const database = sqliteDatabase(db);

    const ops: Op[] = [
      {
        name: 'get task by id',
        what: 'findVisibleTask',
        batch: 16,
        run: {
          app: (i) => runSync(findVisibleTask(conn, user, taskId(i))),
          raw: (i) => decodeTask(rawGet.get(taskId(i), company)),
        },
      },
      {
        name: 'page of 50',
        what: 'pageOfVisibleTasks (GET /api/tasks?limit=50)',
        batch: 1,
        run: {
          app: () => runSync(pageOfVisibleTasks(conn, user, undefined, PAGE + 1)),
          raw: () => rawPage.all(company, PAGE + 1).map(decodePublicTask),
        },
      },
      {
        name: 'apply patch (tx)',
        what: 'findVisibleTask + applyTaskPatch (PATCH /api/tasks/:id, a pushed patch)',
        batch: 4,
        roundMs: 2 * ROUND_MS,
        run: {
          // What updateTask runs once the patch is validated: the row as the caller may see it, then the
          // patch over it (a new version, field stamps, the row built from the one read, ADR 020 round 4).
          app: (i) =>
            writeTx(db, () => {
              const x = ctx();
              const current = runSync(findVisibleTask(x, user, taskId(i)));
              return runSync(applyTaskPatch(x, current, patchOf(i)));
            }),
          // The same steps in raw SQL: the row read, the version bumped, the columns written, the row
          // returned as stored (the one read with the patch and its stamps over it).
          raw: (i) =>
            writeTx(db, () => {
              const now = new Date();
              const row = decodeTask(rawGet.get(taskId(i), company));
              if (!row) throw new Error('task not found');
              const version = rawBump.get(company)!;
              const { title, priority } = patchOf(i);
              const stamp = [version, now.getTime(), 'server'];
              const fieldMeta = { ...(row.fieldMeta as Row), title: stamp, priority: stamp };
              const updatedAt = now.toISOString();
              rawPatch.run(
                title,
                priority,
                version,
                JSON.stringify(fieldMeta),
                updatedAt,
                user.id,
                row.id as string,
                company,
              );
              return { ...row, title, priority, version, fieldMeta, updatedAt, updatedBy: user.id };
            }),
        },
      },
      {
        name: `pull since version (${PULL_LIMIT})`,
        what: 'pull()',
        batch: 1,
        run: {
          // On SQLite pull's read has run when it hands back its promise (ADR 027).
          app: (i) => pull(database, user, { cursor: since(i), limit: PULL_LIMIT }, new Date()),
          raw: (i) => rawPull(since(i)),
        },
      },
    ];

    // Sanity: both variants hand back the same rows before anything is timed.
    const idsOf = (x: unknown): string[] => {
      const list =
        x && typeof x === 'object' && 'changes' in x ? (x as { changes: Row[] }).changes : [x].flat();
      return (list as Row[]).map((r) => String(r.id));
    };
    for (const op of ops.filter((o) => !o.name.startsWith('apply'))) {
      if (JSON.stringify(idsOf(await op.run.app(3))) !== JSON.stringify(idsOf(op.run.raw(3))))
        throw new Error(`B4 ${op.name}: app and raw disagree`);
    }

    // A patch: each variant hands back the row as stored after it (both build it without reading it back).
    const sorted = (r: unknown) =>
      JSON.stringify(Object.entries(r as Row).sort(([a], [b]) => a.localeCompare(b)));
    for (const v of VARIANTS) {
      const row = (await ops.find((o) => o.name.startsWith('apply'))!.run[v](5 + VARIANTS.indexOf(v))) as Row;
      if (sorted(row) !== sorted(decodeTask(rawGet.get(row.id as string, company))))
        throw new Error(`B4 apply patch (${v}): the row handed back is not the row stored`);
    }

    const rounds: ({ op: string; variant: Variant; round: number } & OpsMeasure)[] = [];
    for (const op of ops) {
      for (const v of VARIANTS) measureOps(op.run[v], WARMUP_MS, op.batch);
      // Interleaved rounds, the order alternating, each from an empty WAL so checkpoints fall evenly.
      for (let r = 0; r < ROUNDS; r++) {
        for (let k = 0; k < VARIANTS.length; k++) {
          const v = VARIANTS[(r + k) % VARIANTS.length]!;
          c.pragma('wal_checkpoint(TRUNCATE)');
          rounds.push({
            op: op.name,
            variant: v,
            round: r,
            ...measureOps(op.run[v], op.roundMs ?? ROUND_MS, op.batch),
          });
        }
      }
    }

    const rows: SummaryRow[] = [];
    const summary: Record<
      string,
      { perCpuSecond: Record<Variant, number>; perWallSecond: Record<Variant, number> }
    > = {};
    ops.forEach((op, n) => {
      const m = (v: Variant, key: 'opsPerCpuSecond' | 'opsPerSecond') =>
        median(rounds.filter((x) => x.op === op.name && x.variant === v).map((x) => x[key]));
      const s = { app: m('app', 'opsPerCpuSecond'), raw: m('raw', 'opsPerCpuSecond') };
      const wall = { app: m('app', 'opsPerSecond'), raw: m('raw', 'opsPerSecond') };
      summary[op.name] = { perCpuSecond: s, perWallSecond: wall };
      const ratio = s.app / s.raw;
      rows.push({
        budget: `B4.${n + 1}`,
        what: `${op.name}: ${op.what}, ops/CPU-s`,
        measured: fmt(s.app, 0),
        comparator: `raw ${fmt(s.raw, 0)}`,
        ratio: `${fmt(ratio)}x (wall ${fmt(wall.app / wall.raw)}x)`,
        limit: `>= ${fmt(BUDGET)}x`,
        pass: ratio >= BUDGET,
      });
    });
    return {
      rows,
      raw: {
        config: {
          tasks: ids.length,
          rounds: ROUNDS,
          roundMs: ROUND_MS,
          warmupMs: WARMUP_MS,
          page: PAGE,
          pullLimit: PULL_LIMIT,
          tables,
        },
        summary,
        rounds,
      },
    };
  } finally {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
