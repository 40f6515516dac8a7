import { z } from 'zod';
import {
  SYNC_TABLES,
  type ActivityEntry,
  type HistoryEntry,
  type HistoryUser,
  type ReplacedValueEntry,
  type RowHistory,
  type SyncTable,
} from '#shared/sync-protocol.ts';

import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt } from '../db/sql.ts';
import { notFound } from '../http.ts';
import { findVisibleProject } from '../mutators/core.ts';
import { findVisibleChangeOrder } from '../mutators/change-orders.ts';
import { findVisibleCommunication } from '../mutators/communications.ts';
import { findVisibleLog } from '../mutators/logs.ts';
import { findVisiblePhoto } from '../mutators/photos.ts';
import { findVisibleScheduleChange } from '../mutators/schedule-changes.ts';
import { findVisibleTask } from '../mutators/tasks.ts';
import { READ_PERMISSION } from './tables.ts';

/**
 * The History of one synced record (issue 9, DESIGN.md section 7): the values that were replaced on it
 * (the conflict history, SPEC W5) and what was done to it (activities), newest first, for a History view
 * whose Restore is an ordinary synced patch of one field.
 */

export const HistoryQuerySchema = z.object({
  table: z.enum(SYNC_TABLES, { message: 'Table must be one of ' + SYNC_TABLES.join(', ') }),
  rowId: z.uuid({ message: 'Row id must be a valid id' }),
});
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

/** The activity `entity_type` of each synced table's rows. */
export const ACTIVITY_ENTITY: Record<SyncTable, string> = {
  projects: 'project',
  tasks: 'task',
  project_logs: 'project_log',
  photos: 'photo',
  schedule_changes: 'schedule_change',
  communications: 'communication',
  change_orders: 'change_order',
};

const FIND_VISIBLE: Record<SyncTable, (c: Conn, user: SessionUser, id: string) => Op<unknown>> = {
  projects: findVisibleProject,
  tasks: findVisibleTask,
  project_logs: findVisibleLog,
  photos: findVisiblePhoto,
  schedule_changes: findVisibleScheduleChange,
  communications: findVisibleCommunication,
  change_orders: findVisibleChangeOrder,
};

/**
 * Throws 404 unless the user may read this row: its table's read permission and the row scope the REST
 * routes apply (company, subcontractor assignments). The one place the history asks about visibility, so
 * it follows whatever scope builder the mutators use.
 */
export function* assertRowVisible(c: Conn, user: SessionUser, table: SyncTable, rowId: string): Op<void> {
  if (!user.permissions.has(READ_PERMISSION[table])) throw notFound('Record');
  yield* FIND_VISIBLE[table](c, user, rowId);
}

const LIMIT = 200;

const USER_NAME = `COALESCE(NULLIF(TRIM(COALESCE(u.first_name, '') || ' ' || COALESCE(u.last_name, '')), ''), u.name, u.email)`;

/** Who wrote through a client id: its bound user (SPEC P5); REST writes ('server') name no device. */
const CLIENT_USER = (column: string) =>
  `(SELECT sc.user_id FROM sync_clients sc WHERE sc.client_id = ${column} AND sc.company_id = c.company_id)`;

interface ConflictRow {
  id: string;
  field: string;
  keptValue: string;
  overwrittenValue: string;
  keptUserId: string | null;
  keptUserName: string | null;
  replacedUserId: string | null;
  replacedUserName: string | null;
  at: string;
}

interface ActivityRow {
  id: string;
  actionType: string;
  description: string;
  userId: string | null;
  userName: string | null;
  at: string;
}

const user = (id: string | null, name: string | null): HistoryUser | null =>
  id ? { id, name: name ?? 'Unknown user' } : null;

const CONFLICTS = rowsStmt<ConflictRow>(
  `SELECT c.id, c.field, c.kept_value AS "keptValue", c.overwritten_value AS "overwrittenValue",
     ku.id AS "keptUserId", ${USER_NAME.replaceAll('u.', 'ku.')} AS "keptUserName",
     ru.id AS "replacedUserId", ${USER_NAME.replaceAll('u.', 'ru.')} AS "replacedUserName",
     c.created_at AS "at"
   FROM sync_conflicts c
   LEFT JOIN users ku ON ku.id = ${CLIENT_USER('c.kept_client_id')}
   LEFT JOIN users ru ON ru.id = ${CLIENT_USER('c.overwritten_client_id')}
   WHERE c.company_id = @company AND c.table_name = @table AND c.row_id = @rowId
   ORDER BY c.created_at DESC, c.id DESC LIMIT ${LIMIT}`,
);
const ACTIVITIES = rowsStmt<ActivityRow>(
  `SELECT a.id, a.action_type AS "actionType", a.description, u.id AS "userId", ${USER_NAME} AS "userName",
     a.created_at AS "at"
   FROM user_activities a LEFT JOIN users u ON u.id = a.user_id
   WHERE a.company_id = @company AND a.entity_type = @entity AND a.entity_id = @rowId
   ORDER BY a.created_at DESC, a.id DESC LIMIT ${LIMIT}`,
);

/** GET /api/sync/history?table=&rowId=: the History of a row the caller may read, newest first. */
export function* rowHistory(c: Conn, caller: SessionUser, query: HistoryQuery): Op<RowHistory> {
  yield* assertRowVisible(c, caller, query.table, query.rowId);
  const company = caller.companyId;
  const conflicts = yield* io(c.sql.all(CONFLICTS, { company, table: query.table, rowId: query.rowId }));
  const activities = yield* io(
    c.sql.all(ACTIVITIES, { company, entity: ACTIVITY_ENTITY[query.table], rowId: query.rowId }),
  );
  const entries: HistoryEntry[] = [
    ...conflicts.map((c): ReplacedValueEntry => ({
      kind: 'replaced',
      id: c.id,
      field: c.field,
      replacedValue: JSON.parse(c.overwrittenValue) as unknown,
      replacedBy: user(c.replacedUserId, c.replacedUserName),
      keptValue: JSON.parse(c.keptValue) as unknown,
      keptBy: user(c.keptUserId, c.keptUserName),
      at: c.at,
    })),
    ...activities.map((a): ActivityEntry => ({
      kind: 'activity',
      id: a.id,
      actionType: a.actionType,
      description: a.description,
      by: user(a.userId, a.userName),
      at: a.at,
    })),
  ];
  // Newest first; at the same instant the replaced value goes first (it explains the activity below it).
  const rank = (e: HistoryEntry) => (e.kind === 'replaced' ? 0 : 1);
  entries.sort((a, b) => b.at.localeCompare(a.at) || rank(a) - rank(b));
  return { table: query.table, rowId: query.rowId, entries: entries.slice(0, LIMIT) };
}
