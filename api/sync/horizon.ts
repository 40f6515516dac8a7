import type { Conn, Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, valueStmt, type Stmt } from '../db/sql.ts';

// Children first: deleting a parent cascades to its children, which must be counted in the horizon too.
const PURGE_ORDER = ['schedule_changes', 'photos', 'project_logs', 'tasks', 'projects'] as const;

/**
 * Highest version among the rows a purge removes, cascades included (rows whose parent goes). A deleted
 * project's communications and change orders go only with it (W15), and may have been tombstoned after it
 * (the start-up repair, W21): their versions count too, or a device that missed them would keep them.
 */
const HORIZON_SQL = `SELECT max(v) FROM (
  SELECT max(version) AS v FROM projects WHERE company_id = @company AND deleted_at < @before
  UNION ALL SELECT max(version) FROM tasks WHERE company_id = @company
    AND (deleted_at < @before OR project_id IN (${purged('projects')}))
  UNION ALL SELECT max(version) FROM project_logs WHERE company_id = @company
    AND (deleted_at < @before OR project_id IN (${purged('projects')}))
  UNION ALL SELECT max(version) FROM photos WHERE company_id = @company
    AND (deleted_at < @before OR project_id IN (${purged('projects')}))
  UNION ALL SELECT max(version) FROM communications WHERE company_id = @company
    AND project_id IN (${purged('projects')})
  UNION ALL SELECT max(version) FROM change_orders WHERE company_id = @company
    AND project_id IN (${purged('projects')})
  UNION ALL SELECT max(version) FROM schedule_changes WHERE company_id = @company
    AND (deleted_at < @before OR task_id IN (${purged('tasks')})
      OR task_id IN (SELECT id FROM tasks WHERE project_id IN (${purged('projects')})))
  UNION ALL SELECT max(version) FROM sync_tombstones WHERE company_id = @company AND deleted_at < @before) AS removed`;

function purged(table: string): string {
  return `SELECT id FROM ${table} WHERE company_id = @company AND deleted_at < @before`;
}

const HORIZON = valueStmt<number | null>(HORIZON_SQL);
const PURGE = PURGE_ORDER.map((table) =>
  rowsStmt(`DELETE FROM ${table} WHERE company_id = @company AND deleted_at < @before`),
);
const PURGE_TOMBSTONES = rowsStmt(
  'DELETE FROM sync_tombstones WHERE company_id = @company AND deleted_at < @before',
);
const HORIZON_OF = valueStmt<number>('SELECT min_version FROM sync_horizons WHERE company_id = ?');
const SET_HORIZON = rowsStmt(
  `INSERT INTO sync_horizons (company_id, min_version, updated_at) VALUES (?, ?, ?)
   ON CONFLICT (company_id) DO UPDATE SET min_version = excluded.min_version, updated_at = excluded.updated_at`,
);
const COMPANY_IDS = valueStmt<string>('SELECT id FROM companies');
const PURGE_RESULTS = rowsStmt('DELETE FROM sync_mutations WHERE created_at < ?');
const PURGE_HISTORY = rowsStmt('DELETE FROM sync_conflicts WHERE created_at < ?');
const PURGE_IDLE_CLIENTS = rowsStmt(
  'DELETE FROM sync_clients WHERE last_mutation_id = 0 AND last_seen_at < ?',
);

/**
 * Deletes a company's tombstones older than `olderThanIso` for good and raises its tombstone horizon to
 * the highest version removed (sync/SPEC.md L8): a device whose cursor is below it may have missed a
 * deletion, so its next pull answers `reset: 'horizon'` and it downloads again. Call inside a write
 * transaction.
 */
export function* purgeCompanyTombstones(
  c: Conn,
  companyId: string,
  olderThanIso: string,
  now: Date,
): Op<{ purged: number; horizon: number }> {
  const params = { company: companyId, before: olderThanIso };
  const highest = (yield* io(c.sql.get(HORIZON, params))) ?? null;
  let purgedRows = 0;
  for (const purge of PURGE) purgedRows += yield* io(c.sql.run(purge, params));
  // The read-only mirrors' deletions (SPEC L12). Purging a project above removed its assignments, which
  // wrote fresh tombstones (now): they stay until their own time comes.
  purgedRows += yield* io(c.sql.run(PURGE_TOMBSTONES, params));
  const previous = (yield* io(c.sql.get(HORIZON_OF, [companyId]))) ?? 0;
  const horizon = Math.max(previous, highest ?? 0);
  yield* io(c.sql.run(SET_HORIZON, [companyId, horizon, now.toISOString()]));
  return { purged: purgedRows, horizon };
}

/** `purgeCompanyTombstones` in a write transaction of its own. */
export function purgeTombstones(
  database: Database,
  companyId: string,
  olderThanIso: string,
  now: Date = new Date(),
): Promise<{ purged: number; horizon: number }> {
  return database.writeTx(companyId, (c) => purgeCompanyTombstones(c, companyId, olderThanIso, now));
}

/** Every company's id. */
function* companyIds(c: Conn): Op<string[]> {
  return yield* io(c.sql.all(COMPANY_IDS));
}

/** Deletes the rows a retention statement (`PURGE_RESULTS`, ...) finds older than `beforeIso`; their number. */
function* purgeOlder(c: Conn, stmt: Stmt, beforeIso: string): Op<number> {
  return yield* io(c.sql.run(stmt, [beforeIso]));
}

/** How long tombstones stay pullable: a device offline longer than this downloads again (SPEC R3). */
export const TOMBSTONE_RETENTION_DAYS = 30;
/** How long a stored push result stays replayable when its client never acknowledges it (SPEC R1). */
export const RESULT_RETENTION_DAYS = 30;
/** How long a row's History keeps a replaced value (SPEC R4). */
export const HISTORY_RETENTION_DAYS = 365;
/** How long a device that never pushed is remembered after it was last seen (SPEC R5). */
export const IDLE_CLIENT_RETENTION_DAYS = 90;
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One retention pass (sync/SPEC.md R1, R3-R5): purges every company's tombstones older than the retention,
 * raising its horizon, and deletes push results, History entries and idle never-pushing devices older than
 * theirs. Each company is its own short write
 * transaction, so a pass never holds the write lock for long.
 */
export async function sweepSyncState(
  database: Database,
  now: Date = new Date(),
): Promise<{ purged: number; results: number; conflicts: number; clients: number }> {
  const tombstonesBefore = new Date(now.getTime() - TOMBSTONE_RETENTION_DAYS * DAY_MS).toISOString();
  let purged = 0;
  for (const company of await database.read(companyIds)) {
    purged += (await purgeTombstones(database, company, tombstonesBefore, now)).purged;
  }
  const resultsBefore = new Date(now.getTime() - RESULT_RETENTION_DAYS * DAY_MS).toISOString();
  const results = await database.writeTx(null, (c) => purgeOlder(c, PURGE_RESULTS, resultsBefore));
  const historyBefore = new Date(now.getTime() - HISTORY_RETENTION_DAYS * DAY_MS).toISOString();
  const conflicts = await database.writeTx(null, (c) => purgeOlder(c, PURGE_HISTORY, historyBefore));
  const idleBefore = new Date(now.getTime() - IDLE_CLIENT_RETENTION_DAYS * DAY_MS).toISOString();
  // A device that never pushed has no mutation id to protect (P3, P4): forgetting it costs it one fresh
  // download (L9) if it ever comes back. A device that pushed is kept: its last id stops a replay twice.
  const clients = await database.writeTx(null, (c) => purgeOlder(c, PURGE_IDLE_CLIENTS, idleBefore));
  return { purged, results, conflicts, clients };
}

/**
 * Runs `sweepSyncState` (and the `also` passes: the server adds `purgeExpiredSessions`) a minute after
 * start (a server restarted often still sweeps), then every hour. The timers are unref'd: they never keep the process alive, and a pass after the database has closed
 * (shutdown) is skipped. Returns a function that stops them.
 */
export function startSyncRetention(
  database: Database,
  options: {
    firstMs?: number;
    intervalMs?: number;
    now?: () => Date;
    /** Other state that only grows, swept on the same schedule. */
    also?: ((database: Database, now: Date) => Promise<unknown>)[];
  } = {},
): () => void {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout;
  let stopped = false;
  const schedule = (ms: number) => {
    timer = setTimeout(() => void pass(), ms);
    timer.unref();
  };
  const pass = async () => {
    if (!database.open || stopped) return;
    try {
      await sweepSyncState(database, now());
      for (const also of options.also ?? []) await also(database, now());
    } catch (err) {
      // Busy or failing: the next pass tries again; nothing is lost by waiting.
      if (database.open)
        console.error(`sync retention failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!stopped) schedule(options.intervalMs ?? RETENTION_INTERVAL_MS);
  };
  schedule(options.firstMs ?? 60_000);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
