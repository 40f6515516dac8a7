import { integer, text } from 'drizzle-orm/sqlite-core';

/** ISO-8601 UTC timestamps, stamped by the writer (the device, offline) or by SQLite as a fallback. */
export const isoNow = () => new Date().toISOString();
export const createdAt = () => text('created_at').notNull().$defaultFn(isoNow);

/** Sync columns of the mirrored tables (DESIGN.md section 4). */
export const syncColumns = () => ({
  version: integer('version').notNull().default(0),
  deletedAt: text('deleted_at'),
  fieldMeta: text('field_meta', { mode: 'json' })
    .$type<Record<string, [number, number, string]>>()
    .notNull()
    .default({}),
  updatedAt: text('updated_at').notNull().$defaultFn(isoNow),
  updatedBy: text('updated_by'),
});
