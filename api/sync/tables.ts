import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DirectoryTable, PulledTable, SyncTable } from '#shared/sync-protocol.ts';
import { schema } from '../db/index.ts';

/** The mirrored tables by their wire (SQL) name. */
export const SYNC_TABLE_DEFS = {
  projects: schema.projects,
  tasks: schema.tasks,
  project_logs: schema.projectLogs,
  photos: schema.photos,
  schedule_changes: schema.scheduleChanges,
  communications: schema.communications,
  change_orders: schema.changeOrders,
} satisfies Record<SyncTable, SQLiteTable>;

/** The permission a role needs to read each mirrored table (pull sends only what REST would show). */
export const READ_PERMISSION: Record<PulledTable, string> = {
  projects: 'projects:read',
  tasks: 'tasks:read',
  project_logs: 'logs:read',
  photos: 'photos:read',
  schedule_changes: 'schedule_changes:read',
  communications: 'communications:read',
  change_orders: 'change_orders:read',
  users: 'users:read',
  subcontractor_assignments: 'assignments:read',
};

/**
 * What a device receives of the read-only mirrors (SPEC L12), listed rather than derived: a new column of
 * `users` (a password, a token) must never reach devices by default. `id` and `version` come first.
 * `email` is filtered per reader by `directoryEmailSql`. Keys are the camelCase form of the SQL column.
 */
export const DIRECTORY_COLUMNS: Record<DirectoryTable, string[]> = {
  users: ['id', 'version', 'firstName', 'lastName', 'name', 'email', 'role', 'isActive', 'profileImageUrl'],
  subcontractor_assignments: [
    'id',
    'version',
    'subcontractorId',
    'projectId',
    'companyId',
    'assignedBy',
    'startDate',
    'endDate',
    'specialization',
    'status',
    'createdAt',
  ],
};

/** Entity names for messages ('Task not found'). */
export const ENTITY_NAME: Record<SyncTable, string> = {
  projects: 'Project',
  tasks: 'Task',
  project_logs: 'Project log',
  photos: 'Photo',
  schedule_changes: 'Schedule change',
  communications: 'Communication',
  change_orders: 'Change order',
};

export interface WireColumns {
  /** `"sql_name" AS "camelKey"` for every column a device sees (no field_meta, no deleted_at). */
  select: string;
  /** The camelCase keys, in the order of `select`. */
  keys: string[];
  /** camelCase keys holding JSON text in SQLite. */
  json: string[];
  /** camelCase keys holding 0/1 in SQLite. */
  booleans: string[];
}

const HIDDEN = new Set(['fieldMeta', 'deletedAt']);

/**
 * The pull projection of a table, derived from its drizzle definition so a new column is sent at once.
 * `withheld` columns are sent as null (what the reader may not see of a row it sees).
 */
export function wireColumns(table: SyncTable, withheld: readonly string[] = []): WireColumns {
  const columns = Object.entries(getTableColumns(SYNC_TABLE_DEFS[table])).filter(([key]) => !HIDDEN.has(key));
  return {
    select: columns
      .map(([key, col]) => `${withheld.includes(key) ? 'NULL' : `"${col.name}"`} AS "${key}"`)
      .join(', '),
    keys: columns.map(([key]) => key),
    json: columns.filter(([, col]) => col.columnType === 'SQLiteTextJson').map(([key]) => key),
    booleans: columns.filter(([, col]) => col.columnType === 'SQLiteBoolean').map(([key]) => key),
  };
}
