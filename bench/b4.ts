// B4: hot SQL through our data layer (drizzle query builder + .prepare() with sql.placeholder) against raw
// prepared better-sqlite3 statements on the same database, plus unprepared drizzle (built per call) as an
// informative third column. Large tenant: 50 projects, 10,000 tasks, 1,000 logs (seedLarge). The rate is
// operations per second of this process's CPU time (user + system): it leaves out time spent waiting on the
// fsync of each commit (synchronous=FULL) and time descheduled by other work, which are the same for every
// variant and only add noise. Wall-clock rates are kept in the raw results.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { openDb, schema, writeTx } from '#api/db/index.ts';
import { seedLarge } from '#api/db/seed-large.ts';
import { seedRbac } from '#api/db/seed.ts';
import { fmt, measureOps, median, type OpsMeasure, type SummaryRow } from './lib.ts';

const { tasks, companies } = schema;
const ROUNDS = 7;
const ROUND_MS = 300;
const WARMUP_MS = 150;
const BUDGET = 0.9;
const PAGE = 50;
const PULL_LIMIT = 1000;
const STATUSES = ['pending', 'in-progress', 'completed', 'blocked'] as const;
const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;

/**
 * raw: better-sqlite3 statement returning row objects (the comparator); prepared: drizzle + .prepare();
 * unprepared: drizzle built per call; rawArrays (reads only, informative): better-sqlite3 in `.raw()` mode
 * with the arrays turned into objects in JS, which is what drizzle does under the hood.
 */
type Variant = 'raw' | 'prepared' | 'unprepared' | 'rawArrays';
const VARIANTS: Variant[] = ['raw', 'prepared', 'unprepared', 'rawArrays'];

interface Op {
  name: string;
  /** Calls per clock read: 1 for slow operations. */
  batch: number;
  /** Length of one measurement when not ROUND_MS (writes: each commit waits on an fsync, so fewer ops fit). */
  roundMs?: number;
  run: Record<Exclude<Variant, 'rawArrays'>, (i: number) => unknown> & { rawArrays?: (i: number) => unknown };
}

/** A `.raw()` statement whose rows are turned into objects keyed by column name. */
function arrayStatement<P extends unknown[]>(sqlite: Database.Database, text: string) {
  const stmt = sqlite.prepare<P, unknown[]>(text).raw(true);
  const cols = stmt.columns().map((c) => c.name);
  const toObject = (row: unknown[]) => {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < cols.length; k++) o[cols[k]!] = row[k];
    return o;
  };
  return {
    get: (...params: P) => {
      const row = stmt.get(...params);
      return row ? toObject(row) : undefined;
    },
    all: (...params: P) => stmt.all(...params).map(toObject),
  };
}

export async function runB4(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-b4-'));
  const db = openDb(path.join(dir, 'bench.db'));
  try {
    seedRbac(db);
    const { companyId: company } = seedLarge(db, { projects: 50, tasks: 10_000, logs: 1_000 });
    const c = db.$client;
    const ids = c
      .prepare<[string], { id: string }>('SELECT id FROM tasks WHERE company_id = ? ORDER BY id')
      .all(company)
      .map((r) => r.id);
    // A fixed pseudo-random visiting order, the same for every variant.
    const order = ids.map((_, i) => ids[(i * 7919) % ids.length]!);
    const taskId = (i: number) => order[i % order.length]!;
    const maxTaskVersion = c
      .prepare<[string], { v: number }>('SELECT max(version) AS v FROM tasks WHERE company_id = ?')
      .get(company)!.v;
    const since = (i: number) => (i * 997) % Math.max(1, maxTaskVersion - PULL_LIMIT);
    const offset = (i: number) => (i % 20) * PAGE;

    // (1) get task by id
    const GET_SQL = 'SELECT * FROM tasks WHERE id = ? AND company_id = ? AND deleted_at IS NULL';
    const rawGet = c.prepare(GET_SQL);
    const arrGet = arrayStatement<[string, string]>(c, GET_SQL);
    const ph = sql.placeholder;
    const prepGet = db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, ph('id')), eq(tasks.companyId, ph('company')), isNull(tasks.deletedAt)))
      .prepare();

    // (2) a page of 50 tasks of the company ordered by due date
    const PAGE_SQL =
      'SELECT * FROM tasks WHERE company_id = ? AND deleted_at IS NULL ORDER BY due_date ASC, id ASC LIMIT ? OFFSET ?';
    const rawPage = c.prepare(PAGE_SQL);
    const arrPage = arrayStatement<[string, number, number]>(c, PAGE_SQL);
    const prepPage = db
      .select()
      .from(tasks)
      .where(and(eq(tasks.companyId, ph('company')), isNull(tasks.deletedAt)))
      .orderBy(asc(tasks.dueDate), asc(tasks.id))
      .limit(PAGE)
      .offset(ph('offset'))
      .prepare();

    // (3) apply a patch: bump the company version, update two columns (+ the row version) in one transaction
    const rawBump = c.prepare<[string], { v: number }>(
      'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version AS v',
    );
    const rawPatch = c.prepare(
      'UPDATE tasks SET status = ?, priority = ?, version = ? WHERE id = ? AND company_id = ?',
    );
    const prepBump = db
      .update(companies)
      .set({ lastVersion: sql`${companies.lastVersion} + 1` })
      .where(eq(companies.id, ph('company')))
      .returning({ v: companies.lastVersion })
      .prepare();
    const prepPatch = db
      .update(tasks)
      .set({ status: sql`${ph('status')}`, priority: sql`${ph('priority')}`, version: sql`${ph('version')}` })
      .where(and(eq(tasks.id, ph('id')), eq(tasks.companyId, ph('company'))))
      .prepare();

    // (4) pull: rows with version > N for the company (tombstones included), in version order
    const PULL_SQL = 'SELECT * FROM tasks WHERE company_id = ? AND version > ? ORDER BY version ASC LIMIT ?';
    const rawPull = c.prepare(PULL_SQL);
    const arrPull = arrayStatement<[string, number, number]>(c, PULL_SQL);
    const prepPull = db
      .select()
      .from(tasks)
      .where(and(eq(tasks.companyId, ph('company')), gt(tasks.version, ph('since'))))
      .orderBy(asc(tasks.version))
      .limit(PULL_LIMIT)
      .prepare();

    const ops: Op[] = [
      {
        name: 'get task by id',
        batch: 16,
        run: {
          raw: (i) => rawGet.get(taskId(i), company),
          rawArrays: (i) => arrGet.get(taskId(i), company),
          prepared: (i) => prepGet.get({ id: taskId(i), company }),
          unprepared: (i) =>
            db
              .select()
              .from(tasks)
              .where(and(eq(tasks.id, taskId(i)), eq(tasks.companyId, company), isNull(tasks.deletedAt)))
              .get(),
        },
      },
      {
        name: 'page of 50 by due date',
        batch: 1,
        run: {
          raw: (i) => rawPage.all(company, PAGE, offset(i)),
          rawArrays: (i) => arrPage.all(company, PAGE, offset(i)),
          prepared: (i) => prepPage.all({ company, offset: offset(i) }),
          unprepared: (i) =>
            db
              .select()
              .from(tasks)
              .where(and(eq(tasks.companyId, company), isNull(tasks.deletedAt)))
              .orderBy(asc(tasks.dueDate), asc(tasks.id))
              .limit(PAGE)
              .offset(offset(i))
              .all(),
        },
      },
      {
        name: 'apply patch (tx)',
        batch: 4,
        roundMs: 2 * ROUND_MS,
        run: {
          raw: (i) =>
            writeTx(db, () => {
              const { v } = rawBump.get(company)!;
              rawPatch.run(STATUSES[i % 4], PRIORITIES[(i >> 2) % 4], v, taskId(i), company);
            }),
          prepared: (i) =>
            writeTx(db, () => {
              const { v } = prepBump.get({ company })!;
              prepPatch.run({
                status: STATUSES[i % 4],
                priority: PRIORITIES[(i >> 2) % 4],
                version: v,
                id: taskId(i),
                company,
              });
            }),
          unprepared: (i) =>
            writeTx(db, () => {
              const { v } = db
                .update(companies)
                .set({ lastVersion: sql`${companies.lastVersion} + 1` })
                .where(eq(companies.id, company))
                .returning({ v: companies.lastVersion })
                .get();
              db.update(tasks)
                .set({ status: STATUSES[i % 4], priority: PRIORITIES[(i >> 2) % 4], version: v })
                .where(and(eq(tasks.id, taskId(i)), eq(tasks.companyId, company)))
                .run();
            }),
        },
      },
      {
        name: 'pull since version (1000)',
        batch: 1,
        run: {
          raw: (i) => rawPull.all(company, since(i), PULL_LIMIT),
          rawArrays: (i) => arrPull.all(company, since(i), PULL_LIMIT),
          prepared: (i) => prepPull.all({ company, since: since(i) }),
          unprepared: (i) =>
            db
              .select()
              .from(tasks)
              .where(and(eq(tasks.companyId, company), gt(tasks.version, since(i))))
              .orderBy(asc(tasks.version))
              .limit(PULL_LIMIT)
              .all(),
        },
      },
    ];

    // Sanity: every variant returns the same rows before anything is timed.
    const sameIds = (a: unknown, b: unknown) =>
      JSON.stringify([a].flat().map((r) => (r as { id: string }).id)) ===
      JSON.stringify([b].flat().map((r) => (r as { id: string }).id));
    for (const op of ops.filter((o) => !o.name.startsWith('apply'))) {
      const raw = op.run.raw(3);
      const others = [op.run.prepared(3), op.run.unprepared(3), op.run.rawArrays?.(3) ?? raw];
      if (!others.every((o) => sameIds(raw, o))) throw new Error(`B4 ${op.name}: variants disagree`);
    }

    const rounds: ({ op: string; variant: Variant; round: number } & OpsMeasure)[] = [];
    for (const op of ops) {
      const variants = VARIANTS.map((v) => [v, op.run[v]] as const).filter(
        (e): e is [Variant, (i: number) => unknown] => !!e[1],
      );
      for (const [, fn] of variants) measureOps(fn, WARMUP_MS, op.batch);
      // Interleaved rounds; the order rotates each round so no variant always follows the same one, and each
      // measurement starts from an empty WAL so checkpoints (which the committing writer pays) fall evenly.
      for (let r = 0; r < ROUNDS; r++) {
        for (let k = 0; k < variants.length; k++) {
          const [v, fn] = variants[(r + k) % variants.length]!;
          c.pragma('wal_checkpoint(TRUNCATE)');
          rounds.push({
            op: op.name,
            variant: v,
            round: r,
            ...measureOps(fn, op.roundMs ?? ROUND_MS, op.batch),
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
      const all = (key: 'opsPerCpuSecond' | 'opsPerSecond') =>
        Object.fromEntries(VARIANTS.map((v) => [v, m(v, key)])) as Record<Variant, number>;
      const s = all('opsPerCpuSecond');
      const wall = all('opsPerSecond');
      summary[op.name] = { perCpuSecond: s, perWallSecond: wall };
      const ratio = s.prepared / s.raw;
      const arrays = Number.isNaN(s.rawArrays) ? '' : `; vs raw arrays ${fmt(s.prepared / s.rawArrays)}x`;
      rows.push({
        budget: `B4.${n + 1}`,
        what: `${op.name}: drizzle prepared ops/CPU-s (unprepared ${fmt(s.unprepared / s.raw)}x raw${arrays})`,
        measured: fmt(s.prepared, 0),
        comparator: `raw ${fmt(s.raw, 0)}`,
        ratio: `${fmt(ratio)}x (wall ${fmt(wall.prepared / wall.raw)}x)`,
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
