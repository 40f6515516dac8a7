import { z } from 'zod';
import { SYNC_TABLES } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { isScopedToAssignments } from '../db/scope.ts';

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
export function listConflicts(db: Db, user: SessionUser, query: ConflictQuery): ConflictEntry[] {
  const where = ['c.company_id = @company'];
  if (query.table) where.push('c.table_name = @table');
  if (query.rowId) where.push('c.row_id = @rowId');
  if (isScopedToAssignments(user)) {
    where.push(`(c.user_id = @user OR c.kept_client_id IN (SELECT client_id FROM sync_clients WHERE user_id = @user)
      OR c.overwritten_client_id IN (SELECT client_id FROM sync_clients WHERE user_id = @user))`);
  }
  const rows = db.$client
    .prepare<
      Record<string, string>,
      Omit<ConflictEntry, 'keptValue' | 'overwrittenValue'> & {
        keptValue: string;
        overwrittenValue: string;
      }
    >(
      `SELECT c.id, c.table_name AS "table", c.row_id AS rowId, c.field, c.kept_value AS keptValue,
         c.overwritten_value AS overwrittenValue, c.kept_client_id AS keptClientId,
         c.overwritten_client_id AS overwrittenClientId, c.user_id AS userId, c.mutation_id AS mutationId,
         c.created_at AS createdAt
       FROM sync_conflicts c WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.id DESC LIMIT ${LIMIT}`,
    )
    .all({
      company: user.companyId,
      user: user.id,
      ...(query.table ? { table: query.table } : {}),
      ...(query.rowId ? { rowId: query.rowId } : {}),
    });
  return rows.map((r) => ({
    ...r,
    keptValue: JSON.parse(r.keptValue) as unknown,
    overwrittenValue: JSON.parse(r.overwrittenValue) as unknown,
  }));
}
