import { z } from 'zod';
import { fieldInWords, fieldVerb, instantInWords, valueInWords } from '#shared/rules/field-words.ts';
import { SYNC_TABLES, type SyncTable } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import { notify, type MutationContext } from '../mutators/core.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, valueStmt, type Stmt } from '../db/sql.ts';
import { ACTIVITY_ENTITY } from './history.ts';
import { ENTITY_NAME } from './tables.ts';

export const ConflictQuerySchema = z.object({
  table: z.enum(SYNC_TABLES).optional(),
  rowId: z.uuid({ message: 'must be a valid id' }).optional(),
});
export type ConflictQuery = z.infer<typeof ConflictQuerySchema>;

export interface ConflictEntry {
  id: string;
  table: string;
  rowId: string;
  field: string;
  keptValue: unknown;
  overwrittenValue: unknown;
  keptClientId: string | null;
  overwrittenClientId: string | null;
  userId: string | null;
  mutationId: number | null;
  createdAt: string;
}

const LIMIT = 500;

/**
 * The conflict history of the caller's company (sync/SPEC.md W5), newest first. A subcontractor sees only
 * the entries its own writes took part in, since the others may be about rows outside its projects.
 */
type StoredConflict = Omit<ConflictEntry, 'keptValue' | 'overwrittenValue'> & {
  keptValue: string;
  overwrittenValue: string;
};

/** One statement per combination of filters (eight at most), prepared once each. */
const CONFLICT_QUERIES = new Map<string, Stmt<StoredConflict>>();

function conflictQuery(byTable: boolean, byRow: boolean, scoped: boolean): Stmt<StoredConflict> {
  const key = `${byTable}${byRow}${scoped}`;
  let stmt = CONFLICT_QUERIES.get(key);
  if (stmt) return stmt;
  const where = ['c.company_id = @company'];
  if (byTable) where.push('c.table_name = @table');
  if (byRow) where.push('c.row_id = @rowId');
  if (scoped) {
    where.push(`(c.user_id = @user OR c.kept_client_id IN (SELECT client_id FROM sync_clients WHERE user_id = @user)
      OR c.overwritten_client_id IN (SELECT client_id FROM sync_clients WHERE user_id = @user))`);
  }
  // Aliases are quoted: PostgreSQL would fold rowId to rowid.
  stmt = rowsStmt<StoredConflict>(
    `SELECT c.id, c.table_name AS "table", c.row_id AS "rowId", c.field, c.kept_value AS "keptValue",
       c.overwritten_value AS "overwrittenValue", c.kept_client_id AS "keptClientId",
       c.overwritten_client_id AS "overwrittenClientId", c.user_id AS "userId", c.mutation_id AS "mutationId",
       c.created_at AS "createdAt"
     FROM sync_conflicts c WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.id DESC LIMIT ${LIMIT}`,
  );
  CONFLICT_QUERIES.set(key, stmt);
  return stmt;
}

export function* listConflicts(c: Conn, user: SessionUser, query: ConflictQuery): Op<ConflictEntry[]> {
  const scoped = isScopedToAssignments(user);
  const rows = yield* io(
    c.sql.all(conflictQuery(!!query.table, !!query.rowId, scoped), {
      company: user.companyId,
      ...(scoped ? { user: user.id } : {}),
      ...(query.table ? { table: query.table } : {}),
      ...(query.rowId ? { rowId: query.rowId } : {}),
    }),
  );
  return rows.map((r) => ({
    ...r,
    keptValue: JSON.parse(r.keptValue) as unknown,
    overwrittenValue: JSON.parse(r.overwrittenValue) as unknown,
  }));
}

/** How a record is named in a message: its name or title. */
export function recordName(table: SyncTable, row: Record<string, unknown>): string {
  const name = row.name ?? row.title ?? row.caption ?? row.reason;
  const entity = ENTITY_NAME[table].toLowerCase();
  return typeof name === 'string' && name.trim() ? `${entity} "${name.trim()}"` : `a ${entity}`;
}

const personName = (u: SessionUser) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || u.name || u.email;

const USER_OF_CLIENT = valueStmt<string>(
  'SELECT user_id FROM sync_clients WHERE client_id = ? AND company_id = ?',
);

export interface ReplacedValue {
  table: SyncTable;
  rowId: string;
  /** The row after the write, for its name. */
  row: Record<string, unknown>;
  field: string;
  previous: unknown;
  value: unknown;
  /** The device that wrote the replaced value. */
  previousClientId: string | null;
  /** The replaced write's stamp version, and the row's version before this write and its last writer:
   *  a REST write names no device, but when it was the row's last write `updatedBy` is its author. */
  previousStampVersion: number | null;
  rowVersionBefore: number;
  rowUpdatedBy: string | null;
}

/**
 * Tells the person whose value a later (offline) edit replaced (SPEC W5, DESIGN.md section 7): who, which
 * record, which field, the old and new value, and when the winning edit was made on its device. Nobody is
 * told about their own value (their other device replaced it). Runs in the push transaction.
 */
export function* notifyReplacedValue(ctx: MutationContext, r: ReplacedValue): Op<void> {
  let owner: string | null | undefined =
    r.previousClientId && r.previousClientId !== 'server'
      ? yield* io(ctx.sql.get(USER_OF_CLIENT, [r.previousClientId, ctx.user.companyId]))
      : undefined;
  if (!owner && r.previousStampVersion === r.rowVersionBefore) owner = r.rowUpdatedBy;
  if (!owner || owner === ctx.user.id) return;
  const field = fieldInWords(r.field);
  const record = recordName(r.table, r.row);
  const madeAt = instantInWords(ctx.clientTime);
  yield* notify(ctx, {
    userId: owner,
    title: `Your ${field} ${fieldVerb(r.field)} replaced`,
    message:
      `${personName(ctx.user)} changed the ${field} of ${record} from ${valueInWords(r.previous)} to ` +
      `${valueInWords(r.value)} in an edit made on ${madeAt}, after you set it. ` +
      `Open the ${ENTITY_NAME[r.table].toLowerCase()}'s History to restore your value.`,
    // 'warning' is one of the panel's four types (spec 02 section 3); the related record says what it is about.
    type: 'warning',
    relatedEntityType: ACTIVITY_ENTITY[r.table],
    relatedEntityId: r.rowId,
  });
}
