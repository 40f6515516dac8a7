import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, isoNow } from './columns.ts';
import { companies, users } from './identity.ts';

// Server-side bookkeeping of the sync protocol (sync/SPEC.md). Not mirrored to devices.

/** A device (browser profile) bound to one user and company on first use (SPEC P5). */
export const syncClients = sqliteTable(
  'sync_clients',
  {
    clientId: text('client_id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The highest mutation id applied (or rejected) for this client; pushes continue from it (SPEC P3-P4). */
    lastMutationId: integer('last_mutation_id').notNull().default(0),
    /** The scope fingerprint recorded at the client's last pull from cursor 0 (SPEC L9). */
    scopeHash: text('scope_hash'),
    createdAt: createdAt(),
    lastSeenAt: text('last_seen_at').notNull().$defaultFn(isoNow),
  },
  (t) => [index('sync_clients_user_idx').on(t.userId)],
);

/** The stored result of every applied or rejected mutation, answered again on replay (SPEC P3). */
export const syncMutations = sqliteTable(
  'sync_mutations',
  {
    clientId: text('client_id')
      .notNull()
      .references(() => syncClients.clientId, { onDelete: 'cascade' }),
    mutationId: integer('mutation_id').notNull(),
    result: text('result').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.mutationId] })],
);

/** Conflict history: every value that lost or was overwritten under last-writer-wins (SPEC W5). */
export const syncConflicts = sqliteTable(
  'sync_conflicts',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    field: text('field').notNull(),
    /** JSON text of the value that stayed on the row. */
    keptValue: text('kept_value').notNull(),
    /** JSON text of the value that lost or was overwritten. */
    overwrittenValue: text('overwritten_value').notNull(),
    keptClientId: text('kept_client_id'),
    overwrittenClientId: text('overwritten_client_id'),
    /** The user whose push decided the conflict. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    mutationId: integer('mutation_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sync_conflicts_row_idx').on(t.companyId, t.tableName, t.rowId),
    index('sync_conflicts_company_created_idx').on(t.companyId, t.createdAt),
  ],
);

/** Per-company tombstone horizon: versions at or below it may have lost their tombstones (SPEC L8). */
export const syncHorizons = sqliteTable('sync_horizons', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  minVersion: integer('min_version').notNull().default(0),
  updatedAt: text('updated_at').notNull().$defaultFn(isoNow),
});

/**
 * Deletions of rows of the read-only mirrors (`users`, `subcontractor_assignments`), which are deleted for
 * good rather than tombstoned in place: written by triggers (migration 0003), pulled as tombstones and
 * purged with the other tombstones (sync/SPEC.md L12, R3). No foreign key: the row it names is gone.
 */
export const syncTombstones = sqliteTable(
  'sync_tombstones',
  {
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    companyId: text('company_id').notNull(),
    version: integer('version').notNull(),
    deletedAt: text('deleted_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tableName, t.rowId] }),
    index('sync_tombstones_version_idx').on(t.companyId, t.tableName, t.version),
  ],
);
