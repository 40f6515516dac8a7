import type BetterSqlite3 from 'better-sqlite3';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type pg from 'pg';
import { migratePostgresWithin } from './database.ts';
import * as schema from './schema/index.ts';
import { toPgText } from './sql.ts';

/**
 * `npm run db:copy`: a company's rows from an SQLite database into a PostgreSQL one (ADR 027), exactly as
 * stored: versions, field stamps, tombstones, devices' sync state and sessions, so its devices go on syncing
 * and its users stay signed in, with no reset. The PostgreSQL tables keep SQLite's storage, so values are
 * copied without conversion.
 *
 * Everything happens in one PostgreSQL transaction, checked before it commits: every table must hold exactly
 * the company's rows of the source. A dry run does the same and rolls back. Rows shared by every company
 * (permissions, template roles and their permissions) are added when missing and must otherwise be equal.
 */

interface TablePlan {
  name: string;
  columns: string[];
  /** SQL condition (unqualified columns) selecting the company's rows; `?` is the company id. */
  scope: string | null;
  /** Rows shared by every company (permissions, template roles): added when missing, else compared. */
  shared: string | null;
  primaryKey: string[];
}

const tables = (Object.values(schema) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable));

/** Each table with its parents first (foreign keys), and how a company's rows are picked out. */
export function copyPlan(): TablePlan[] {
  const configs = new Map(tables.map((t) => [getTableConfig(t).name, getTableConfig(t)]));
  const scopes = new Map<string, { scope: string | null; shared: string | null }>();
  const scopeOf = (name: string): { scope: string | null; shared: string | null } => {
    const known = scopes.get(name);
    if (known) return known;
    const config = configs.get(name)!;
    const cols = config.columns.map((c) => c.name);
    let result: { scope: string | null; shared: string | null };
    if (name === 'companies') result = { scope: 'id = ?', shared: null };
    // Sign-in throttling lasts 15 minutes and belongs to addresses as much as to accounts: not copied.
    else if (name === 'sign_in_failures') result = { scope: null, shared: null };
    else if (name === 'roles') result = { scope: 'company_id = ?', shared: 'company_id IS NULL' };
    else if (cols.includes('company_id')) result = { scope: 'company_id = ?', shared: null };
    else {
      // No company column: the rows of the company's parents (sessions of its users, stored results of its
      // devices, permissions of its roles), or rows shared by everyone when there is no parent.
      const parent = config.foreignKeys.map((fk) => fk.reference()).find((ref) => ref.columns.length === 1);
      if (!parent) result = { scope: null, shared: 'TRUE' };
      else {
        const parentName = getTableConfig(parent.foreignTable).name;
        const p = scopeOf(parentName);
        const col = parent.columns[0]!.name;
        const key = parent.foreignColumns[0]!.name;
        const inParent = (cond: string | null) =>
          cond === null ? null : `${col} IN (SELECT ${key} FROM ${parentName} WHERE ${cond})`;
        result = { scope: inParent(p.scope), shared: inParent(p.shared) };
      }
    }
    scopes.set(name, result);
    return result;
  };
  const ordered: TablePlan[] = [];
  const visit = (name: string, path: string[] = []) => {
    if (ordered.some((t) => t.name === name)) return;
    if (path.includes(name)) throw new Error(`Foreign keys loop through ${[...path, name].join(' -> ')}`);
    const config = configs.get(name)!;
    for (const fk of config.foreignKeys) {
      const parent = getTableConfig(fk.reference().foreignTable).name;
      if (parent !== name) visit(parent, [...path, name]);
    }
    const pk = config.columns.filter((c) => c.primary).map((c) => c.name);
    ordered.push({
      name,
      columns: config.columns.map((c) => c.name),
      ...scopeOf(name),
      primaryKey: pk.length > 0 ? pk : config.primaryKeys[0]!.columns.map((c) => c.name),
    });
  };
  for (const name of [...configs.keys()].sort()) visit(name);
  return ordered;
}

export interface CopyReport {
  companyId: string;
  dryRun: boolean;
  /** Per table: the company's rows in the source, and in the target once copied. */
  tables: { name: string; source: number; target: number }[];
}

export class CopyError extends Error {}

const q = (name: string) => `"${name}"`;

/** Numbered placeholders for `rows` rows of `width` values. */
const valuesList = (rows: number, width: number) =>
  Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
  ).join(', ');

/** Copies one company; throws CopyError (nothing written) when the target cannot take it as it is. */
export async function copyCompany(
  source: BetterSqlite3.Database,
  target: pg.Pool,
  companyRef: string,
  options: { dryRun: boolean },
): Promise<CopyReport> {
  const company = source
    .prepare<[string, string], { id: string }>('SELECT id FROM companies WHERE id = ? OR domain = ?')
    .get(companyRef, companyRef);
  if (!company) throw new CopyError(`No company "${companyRef}" in the SQLite database`);
  const companyId = company.id;
  const plan = copyPlan();
  const client = await target.connect();
  // One snapshot of the source: a server still writing to it cannot tear the copy.
  source.prepare('BEGIN').run();
  try {
    await client.query('BEGIN');
    // A dry run sets up a database that lacks the tables inside this transaction, so its rollback takes
    // them back too: "nothing written" holds for a database never used (a real copy migrates before).
    if (options.dryRun) await migratePostgresWithin(client);
    await client.query("SELECT set_config('sitecommand.copying', 'on', true)");
    const existing = await client.query('SELECT 1 FROM companies WHERE id = $1', [companyId]);
    if (existing.rowCount) {
      throw new CopyError(`Company ${companyId} is already in the PostgreSQL database; nothing was copied`);
    }
    const report: CopyReport = { companyId, dryRun: options.dryRun, tables: [] };
    for (const table of plan) {
      const cols = table.columns.map(q).join(', ');
      if (table.shared) {
        const shared = source
          .prepare(`SELECT ${cols} FROM ${q(table.name)} WHERE ${table.shared}`)
          .raw(true)
          .all() as unknown[][];
        await insertRows(client, table, shared, 'ON CONFLICT DO NOTHING');
        await checkShared(client, table, shared);
      }
      if (!table.scope) continue;
      const rows = source
        .prepare(`SELECT ${cols} FROM ${q(table.name)} WHERE ${table.scope}`)
        .raw(true)
        .all(companyId) as unknown[][];
      await insertRows(client, table, rows, '');
      const count = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${q(table.name)} WHERE ${toPgText(table.scope).text}`,
        [companyId],
      );
      const copied = Number(count.rows[0]!.n);
      report.tables.push({ name: table.name, source: rows.length, target: copied });
      if (copied !== rows.length) {
        throw new CopyError(
          `${table.name}: ${rows.length} rows in SQLite but ${copied} in PostgreSQL after the copy; nothing was copied`,
        );
      }
    }
    if (options.dryRun) {
      await client.query('ROLLBACK');
      return report;
    }
    // Keys the identities hand out next start above every key of the source, so that copying its other
    // companies later cannot collide with a role made here in between.
    for (const table of ['roles', 'permissions']) {
      const sourceMax = source.prepare<[], number | null>(`SELECT max(id) FROM ${table}`).pluck().get() ?? 1;
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), $1))`,
        [sourceMax],
      );
    }
    await client.query('COMMIT');
    return report;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (err instanceof CopyError) throw err;
    const detail = (err as { detail?: string }).detail;
    throw new CopyError(
      `PostgreSQL refused the copy, nothing was copied: ${(err as Error).message}${detail ? ` (${detail})` : ''}`,
    );
  } finally {
    source.prepare('COMMIT').run();
    client.release();
  }
}

// PostgreSQL takes at most 65,535 parameters per statement.
const MAX_PARAMS = 60_000;

async function insertRows(client: pg.PoolClient, table: TablePlan, rows: unknown[][], conflict: string) {
  const width = table.columns.length;
  const per = Math.max(1, Math.floor(MAX_PARAMS / width));
  for (let start = 0; start < rows.length; start += per) {
    const chunk = rows.slice(start, start + per);
    // The identity keys (roles, permissions) are copied as they are.
    const overriding =
      table.name === 'roles' || table.name === 'permissions' ? 'OVERRIDING SYSTEM VALUE' : '';
    await client.query(
      `INSERT INTO ${q(table.name)} (${table.columns.map(q).join(', ')}) ${overriding}
       VALUES ${valuesList(chunk.length, width)} ${conflict}`,
      chunk.flat(),
    );
  }
}

/** Shared rows already in the target must be the source's, or the company's references would change. */
async function checkShared(client: pg.PoolClient, table: TablePlan, rows: unknown[][]) {
  const keyIdx = table.primaryKey.map((k) => table.columns.indexOf(k));
  for (const row of rows) {
    const where = table.primaryKey.map((k, i) => `${q(k)} = $${i + 1}`).join(' AND ');
    const found = await client.query({
      text: `SELECT ${table.columns.map(q).join(', ')} FROM ${q(table.name)} WHERE ${where}`,
      values: keyIdx.map((i) => row[i]),
      rowMode: 'array',
    });
    const there = found.rows[0] as unknown[] | undefined;
    if (!there || there.some((v, i) => v !== row[i])) {
      throw new CopyError(
        `${table.name} ${keyIdx.map((i) => String(row[i])).join('/')} differs between the databases: ` +
          'copy into a PostgreSQL database whose shared rows came from the same SQLite database; nothing was copied',
      );
    }
  }
}
