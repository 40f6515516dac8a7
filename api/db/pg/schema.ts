import { is, SQL, type AnyColumn } from 'drizzle-orm';
import {
  bigint,
  getTableConfig as getPgConfig,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
} from 'drizzle-orm/pg-core';
import { getTableConfig, SQLiteTable, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import * as sqlite from '../schema/index.ts';

/**
 * The PostgreSQL tables, derived from the one schema definition in `../schema/` (ADR 027): drizzle-kit
 * reads this file to write `../migrations-pg/`, never a second hand-kept copy.
 *
 * Every column keeps SQLite's storage so the same SQL and the same column decoders serve both databases:
 * text stays text (ISO timestamps, JSON), booleans stay integers 0/1, SQLite's 64-bit INTEGER becomes
 * bigint (read back as a JS number), REAL becomes double precision, and an autoincrement key an identity.
 * The text columns compare by bytes, as SQLite's do, because the database is created with the C collation.
 */

type AnyPgTable = PgTableWithColumns<never>;

function pgColumn(col: SQLiteColumn): PgColumnBuilderBase {
  const type = col.columnType;
  let b;
  if (type === 'SQLiteText' || type === 'SQLiteTextJson') b = text(col.name);
  else if (type === 'SQLiteBoolean') b = integer(col.name);
  else if (type === 'SQLiteReal') b = doublePrecision(col.name);
  else if (type === 'SQLiteInteger') {
    const auto = (col as unknown as { autoIncrement?: boolean }).autoIncrement;
    b = bigint(col.name, { mode: 'number' });
    if (auto) b = b.generatedByDefaultAsIdentity();
  } else throw new Error(`No PostgreSQL type for ${col.name} (${type})`);
  if (col.primary) b = b.primaryKey();
  if (col.notNull && !col.primary) b = b.notNull();
  if (col.default !== undefined && col.default !== null) {
    if (is(col.default, SQL)) throw new Error(`${col.name}: SQL defaults are not derived`);
    b = b.default(col.mapToDriverValue(col.default) as never);
  }
  if (col.isUnique) b = b.unique(col.uniqueName);
  return b;
}

const byName = new Map<string, AnyPgTable>();

function derive(table: SQLiteTable): AnyPgTable {
  const config = getTableConfig(table);
  const columns: Record<string, PgColumnBuilderBase> = {};
  const keyOf = new Map<string, string>();
  for (const [key, col] of Object.entries(table) as [string, unknown][]) {
    if (config.columns.includes(col as SQLiteColumn)) {
      columns[key] = pgColumn(col as SQLiteColumn);
      keyOf.set((col as SQLiteColumn).name, key);
    }
  }
  const pgCol = (t: Record<string, unknown>, c: AnyColumn) => t[keyOf.get(c.name)!] as never;
  const pg = pgTable(config.name, columns, (t) => [
    ...config.primaryKeys.map((pk) => primaryKey({ columns: pk.columns.map((c) => pgCol(t, c)) as never })),
    ...config.indexes.map((i) => {
      const cols = i.config.columns.map((c) => pgCol(t, c as AnyColumn));
      if (i.config.where) throw new Error(`${i.config.name}: partial indexes are not derived`);
      return (i.config.unique ? uniqueIndex(i.config.name) : index(i.config.name)).on(...(cols as [never]));
    }),
    ...config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      const target = getPgConfig(byName.get(getTableConfig(ref.foreignTable).name)!);
      const foreign = ref.foreignColumns.map((c) => target.columns.find((pc) => pc.name === c.name)!);
      let built = foreignKey({
        name: fk.getName(),
        columns: ref.columns.map((c) => pgCol(t, c)) as never,
        foreignColumns: foreign as never,
      });
      if (fk.onDelete) built = built.onDelete(fk.onDelete);
      if (fk.onUpdate) built = built.onUpdate(fk.onUpdate);
      return built;
    }),
  ]) as unknown as AnyPgTable;
  byName.set(config.name, pg);
  return pg;
}

export const tables: Record<string, AnyPgTable> = Object.fromEntries(
  Object.entries(sqlite)
    .filter(([, t]) => is(t, SQLiteTable))
    .map(([key, t]) => [key, derive(t as SQLiteTable)]),
);

// drizzle-kit picks up every exported table of this module.
export const {
  companies,
  roles,
  permissions,
  rolePermissions,
  users,
  sessions,
  signInFailures,
  projects,
  tasks,
  projectLogs,
  photos,
  scheduleChanges,
  timeEntries,
  invoices,
  communications,
  changeOrders,
  riskAssessments,
  healthCheckTemplates,
  projectHealthMetrics,
  subcontractorAssignments,
  notifications,
  userActivities,
  objectUploads,
  syncClients,
  syncMutations,
  syncConflicts,
  syncHorizons,
  syncTombstones,
} = tables;
