import { z } from 'zod';
import {
  DIRECTORY_TABLES,
  PULL_DEFAULT_LIMIT,
  PULL_MAX_LIMIT,
  SYNC_TABLES,
  type DirectoryTable,
  type PullResetReason,
  type PullResponse,
  type PulledChange,
  type PulledTable,
  type SyncTable,
} from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import type { Database } from '../db/database.ts';
import {
  directoryEmailSql,
  FINANCE_COLUMNS,
  isScopedToAssignments,
  scopeParams,
  scopeWhere,
  seesColleagueEmails,
  seesFinance,
} from '../db/scope.ts';
import { bindClient, clientStatements, findClient, type SyncClient } from './clients.ts';
import { io, type Op } from '../db/op.ts';
import { rawStmt, valueStmt, type SqlConn, type Stmt } from '../db/sql.ts';
import { readableTables, scopeFingerprint } from './scope.ts';
import { DIRECTORY_COLUMNS, wireColumns } from './tables.ts';

/** GET /api/sync/pull query (SPEC L1). Other query parameters are ignored, as on every list route. */
export const PullQuerySchema = z.object({
  clientId: z.uuid({ message: 'must be a valid id' }).optional(),
  cursor: z.coerce.number().int('must be a whole number').min(0, 'must not be negative').default(0),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(PULL_MAX_LIMIT, `must be at most ${PULL_MAX_LIMIT}`)
    .default(PULL_DEFAULT_LIMIT),
  /**
   * The client's sync schema (SPEC P15): checked like a push's (426 below MIN_SCHEMA_VERSION) and part of
   * the scope fingerprint. Apps from before it was sent are version 1, refused on pull as on push (P2).
   */
  schemaVersion: z.coerce.number().int('must be a whole number').positive('must be positive').optional(),
});
export type PullQuery = z.infer<typeof PullQuerySchema>;

type Params = {
  company: string;
  user: string;
  cursor: number;
  limit: number;
  upto: number;
};

interface TableStatements {
  /** Versions only, from the (company_id, version) index: finds where a page ends without reading rows. */
  versions: Stmt<number>;
  /** Rows as arrays: [deleted, ...columns in `keys` order]. */
  rows: Stmt<unknown[]>;
  keys: string[];
  /** Where `id` and `version` sit in a row array. */
  idAt: number;
  versionAt: number;
  json: Set<string>;
  booleans: Set<string>;
}

function tableStatements(table: SyncTable, scoped: boolean, finance: boolean): TableStatements {
  const withheld = !finance && table in FINANCE_COLUMNS ? FINANCE_COLUMNS[table as 'projects'] : [];
  const cols = wireColumns(table, withheld);
  const scope = ` AND ${scopeWhere(table, scoped, 'all')}`;
  return {
    versions: valueStmt(
      `SELECT version FROM ${table} WHERE company_id = @company AND version > @cursor${scope}
       ORDER BY version LIMIT @limit`,
    ),
    rows: rawStmt(
      `SELECT CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END, ${cols.select} FROM ${table}
       WHERE company_id = @company AND version > @cursor AND version <= @upto${scope} ORDER BY version`,
    ),
    keys: cols.keys,
    idAt: cols.keys.indexOf('id') + 1,
    versionAt: cols.keys.indexOf('version') + 1,
    json: new Set(cols.json),
    booleans: new Set(cols.booleans),
  };
}

/**
 * A read-only mirror (SPEC L12): live rows by their own `version`, deletions from `sync_tombstones`, in one
 * version order. Tombstone rows are padded with NULLs to the live rows' width.
 */
function directoryStatements(table: DirectoryTable, scoped: boolean, seesEmails: boolean): TableStatements {
  const keys = DIRECTORY_COLUMNS[table];
  const select = keys
    .map((key) => {
      const column = `${table}.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
      return `${key === 'email' ? directoryEmailSql(table, seesEmails) : column} AS "${key}"`;
    })
    .join(', ');
  const live = `FROM ${table} WHERE ${scopeWhere(table, scoped, 'all')} AND ${table}.version > @cursor`;
  // A subcontractor's own assignments are in its scope fingerprint (L9): losing one resets the device,
  // so it needs no tombstones, and it is never told the ids of other subcontractors' assignments.
  const gone =
    table === 'subcontractor_assignments' && scoped
      ? null
      : `FROM sync_tombstones WHERE company_id = @company AND table_name = '${table}' AND version > @cursor`;
  const pad = keys.map((k) => (k === 'id' ? 'row_id' : k === 'version' ? 'version' : 'NULL')).join(', ');
  return {
    versions: valueStmt(
      `SELECT version FROM (SELECT ${table}.version ${live}${gone ? ` UNION ALL SELECT version ${gone}` : ''}) v
       ORDER BY version LIMIT @limit`,
    ),
    rows: rawStmt(
      `SELECT 0, ${select} ${live} AND ${table}.version <= @upto${
        gone ? ` UNION ALL SELECT 1, ${pad} ${gone} AND version <= @upto` : ''
      } ORDER BY "version"`,
    ),
    keys,
    idAt: keys.indexOf('id') + 1,
    versionAt: keys.indexOf('version') + 1,
    json: new Set(),
    booleans: new Set(table === 'users' ? ['isActive'] : []),
  };
}

type Statements = Record<PulledTable, TableStatements>;

const tables = (scoped: boolean, seesEmails: boolean, finance: boolean) =>
  Object.fromEntries([
    ...SYNC_TABLES.map((t) => [t, tableStatements(t, scoped, finance)]),
    ...DIRECTORY_TABLES.map((t) => [t, directoryStatements(t, scoped, seesEmails)]),
  ]) as Statements;

/** The statements of one kind of reader, made on first use: scoped, sees emails, sees finance. */
const readerSets = new Map<string, Statements>();
function statementsFor(scoped: boolean, seesEmails: boolean, finance: boolean): Statements {
  const key = `${scoped}:${seesEmails}:${finance}`;
  let set = readerSets.get(key);
  if (!set) readerSets.set(key, (set = tables(scoped, seesEmails, finance)));
  return set;
}

const S = {
  lastVersion: valueStmt<number>('SELECT last_version FROM companies WHERE id = ?'),
  horizon: valueStmt<number>('SELECT min_version FROM sync_horizons WHERE company_id = ?'),
};

/** A row array into a change; objects built key by key in one order share one shape (cheap to encode). */
function toChange(table: PulledTable, row: unknown[], t: TableStatements): PulledChange {
  const id = row[t.idAt] as string;
  const version = row[t.versionAt] as number;
  if (row[0] === 1) return { table, id, version, deleted: true };
  const data: Record<string, unknown> = {};
  const { keys, json, booleans } = t;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = row[i + 1];
    data[key] =
      json.has(key) && typeof value === 'string'
        ? JSON.parse(value)
        : booleans.has(key)
          ? value === 1
          : value;
  }
  return { table, id, version, deleted: false, data };
}

/**
 * The changes after `cursor` in the user's scope, at most `limit`, in version order (SPEC L2-L4). Two
 * passes: the first reads only versions from each table's (company_id, version) index to find the
 * version where the page ends; the second reads exactly the rows up to it.
 */
function* readPage(c: SqlConn, user: SessionUser, cursor: number, limit: number, lastVersion: number) {
  const scoped = isScopedToAssignments(user);
  const set = statementsFor(scoped, !scoped && seesColleagueEmails(user), seesFinance(user));
  const tables = readableTables(user);
  const params: Params = { ...scopeParams(user), cursor, limit: limit + 1, upto: 0 };
  const found: number[] = [];
  for (const table of tables) for (const v of yield* io(c.all(set[table].versions, params))) found.push(v);
  const hasMore = found.length > limit;
  if (hasMore) {
    found.sort((a, b) => a - b);
    params.upto = found[limit - 1]!;
  } else {
    params.upto = lastVersion;
  }
  const changes: PulledChange[] = [];
  for (const table of tables) {
    const t = set[table];
    for (const row of yield* io(c.all(t.rows, params))) changes.push(toChange(table, row, t));
  }
  if (tables.length > 1) changes.sort((a, b) => a.version - b.version);
  return { changes, cursor: hasMore ? params.upto : lastVersion, hasMore };
}

/** A pull refreshes its device's last-seen time when older than this: at most one write a day per device. */
const SEEN_REFRESH_MS = 24 * 60 * 60 * 1000;

/**
 * GET /api/sync/pull (sync/SPEC.md L1-L9). Everything the answer says is read in one read transaction,
 * one snapshot; the only write (binding a new client id, recording the scope of a full download) happens
 * after it.
 */
export async function pull(
  database: Database,
  user: SessionUser,
  query: PullQuery,
  now: Date,
): Promise<PullResponse> {
  const result = await database.readTx((c) => pullRead(c.sql, user, query, now));
  const after = pullAfter(user, query, now, result);
  if (after) await database.writeTx(user.companyId, (c) => after(c.sql));
  return result.answer;
}

export type PullRead = { answer: PullResponse; scope: string | null; client: SyncClient | undefined };

/** What a pull answers, read in one snapshot (the caller's read transaction). */
export function* pullRead(c: SqlConn, user: SessionUser, query: PullQuery, now: Date): Op<PullRead> {
  const lastVersion = (yield* io(c.get(S.lastVersion, [user.companyId]))) ?? 0;
  const horizon = (yield* io(c.get(S.horizon, [user.companyId]))) ?? 0;
  const client = query.clientId ? yield* findClient(c, user, query.clientId) : undefined;
  const scope = query.clientId ? yield* scopeFingerprint(c, user, query.schemaVersion ?? 1) : null;
  const reset = (reason: PullResetReason) => ({ answer: { reset: true as const, reason }, scope, client });
  if (query.cursor > lastVersion) return reset('ahead');
  if (query.cursor > 0 && query.cursor < horizon) return reset('horizon');
  // An unknown device (swept under SPEC R5, or never seen) cannot show what scope its cursor was
  // downloaded for: it downloads again rather than keep rows its scope may have lost.
  if (query.cursor > 0 && query.clientId && !client) return reset('scope');
  if (query.cursor > 0 && client?.scopeHash && client.scopeHash !== scope) return reset('scope');
  const page = yield* readPage(c, user, query.cursor, query.limit, lastVersion);
  return {
    answer: { ...page, lastMutationId: client?.lastMutationId ?? 0, serverTime: now.getTime() },
    scope,
    client,
  };
}

/** The pull's one write, after its read, when it has one: the device seen, its scope recorded. */
export function pullAfter(
  user: SessionUser,
  query: PullQuery,
  now: Date,
  { answer, scope, client }: PullRead,
): ((c: SqlConn) => Op<void>) | undefined {
  const clientId = query.clientId;
  if (!clientId) return undefined;
  // SPEC R5 sweeps devices by when they were last seen: a pull-only device is seen too.
  const seen = client !== undefined && Date.parse(client.lastSeenAt) < now.getTime() - SEEN_REFRESH_MS;
  // SPEC L9: a full download (cursor 0) records the scope it was made for; so does a client's first pull.
  const record =
    scope !== null &&
    !('reset' in answer) &&
    (!client || !client.scopeHash || (query.cursor === 0 && client.scopeHash !== scope));
  if (!seen && !record) return undefined;
  const at = now.toISOString();
  return function* (c) {
    if (seen) yield* io(c.run(clientStatements.seen, [at, clientId]));
    if (record) {
      yield* bindClient(c, user, clientId, at);
      yield* io(c.run(clientStatements.setScope, [scope, at, clientId]));
    }
  };
}
