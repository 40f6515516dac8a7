import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { device, firstId } from '../sync/testing.ts';
import { copyCompany, copyPlan, CopyError } from './copy.ts';
import { migratePostgres, pgPool } from './database.ts';
import { toPgText } from './sql.ts';
import { postgresAvailable, startTempCluster, type TempCluster } from './pg/cluster.ts';
import type pg from 'pg';

// `npm run db:copy` (#15, ADR 027): a company's rows move from SQLite to PostgreSQL exactly as stored.

describe.runIf(postgresAvailable())('db:copy from SQLite to PostgreSQL', () => {
  let t: TestApp;
  let cluster: TempCluster;
  let url: string;
  let pool: pg.Pool;
  let source: Database.Database;
  let summit: string;

  beforeAll(async () => {
    t = await createTestApp();
    // Sync state worth keeping: a device's pushed edit and deletion (versions, field stamps, a tombstone,
    // the device's last mutation id and its stored results) and a signed-in session.
    const cookie = await t.login('admin@summit.test');
    const phone = device(t, cookie);
    const taskId = await firstId(
      t,
      'SELECT id FROM tasks WHERE title IS NOT NULL AND deleted_at IS NULL ORDER BY id',
    );
    const otherId = await firstId(
      t,
      'SELECT id FROM tasks WHERE id > ? AND deleted_at IS NULL ORDER BY id',
      taskId,
    );
    const pushed = await phone.push([
      phone.mutation('patch', 'tasks', taskId, { title: 'Copied across' }),
      phone.mutation('delete', 'tasks', otherId),
    ]);
    expect(pushed.body.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    source = new Database(t.env.DATABASE_PATH, { readonly: true });
    summit = source
      .prepare<[], string>("SELECT id FROM companies WHERE domain = 'summit.test'")
      .pluck()
      .get()!;
    cluster = startTempCluster();
    url = cluster.createDatabase('copy_target');
    pool = pgPool(url);
    await migratePostgres(pool);
  });

  afterAll(async () => {
    source?.close();
    await pool?.end();
    cluster?.stop();
    await t?.close();
  });

  /** Every row of the company in each table, as stored, in key order. */
  async function rowsOf(companyId: string) {
    const out: Record<string, { sqlite: unknown[][]; pg: unknown[][] }> = {};
    for (const table of copyPlan()) {
      if (!table.scope) continue;
      const order = table.primaryKey.join(', ');
      const select = `SELECT ${table.columns.join(', ')} FROM ${table.name} WHERE ${table.scope} ORDER BY ${order}`;
      const pgRows = await pool.query({
        text: toPgText(select).text,
        values: [companyId],
        rowMode: 'array',
      });
      out[table.name] = {
        sqlite: source.prepare(select).raw(true).all(companyId) as unknown[][],
        pg: pgRows.rows as unknown[][],
      };
    }
    return out;
  }

  const countAll = async () =>
    Object.fromEntries(
      await Promise.all(
        copyPlan().map(async (table) => {
          const r = await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${table.name}`);
          return [table.name, r.rows[0]!.n] as const;
        }),
      ),
    );

  it('a dry run checks every table and writes nothing', async () => {
    const report = await copyCompany(source, pool, 'summit.test', { dryRun: true });
    expect(report.dryRun).toBe(true);
    const byName = Object.fromEntries(report.tables.map((r) => [r.name, r]));
    expect(byName.tasks!.source).toBeGreaterThan(50);
    expect(byName.sync_mutations).toEqual({ name: 'sync_mutations', source: 2, target: 2 });
    for (const r of report.tables) expect(r.target).toBe(r.source);
    expect(Object.values(await countAll()).every((n) => n === 0)).toBe(true);
  });

  it('copies every row of the company exactly as stored: versions, tombstones, sync state and sessions', async () => {
    const report = await copyCompany(source, pool, summit, { dryRun: false });
    expect(report.tables.find((r) => r.name === 'companies')).toEqual({
      name: 'companies',
      source: 1,
      target: 1,
    });
    const rows = await rowsOf(summit);
    for (const [name, { sqlite, pg }] of Object.entries(rows))
      expect({ name, rows: pg }).toEqual({ name, rows: sqlite });
    // What a device resumes from: the company's version, the deleted task's tombstone, its mutation id.
    const company = await pool.query('SELECT last_version FROM companies WHERE id = $1', [summit]);
    expect(company.rows[0].last_version).toBeGreaterThan(0);
    const deletedAt = copyPlan()
      .find((p) => p.name === 'tasks')!
      .columns.indexOf('deleted_at');
    expect(rows.tasks!.pg.filter((r) => r[deletedAt] !== null).length).toBeGreaterThan(0);
    expect(rows.sync_clients!.pg).toHaveLength(1);
    expect(rows.sessions!.pg.length).toBeGreaterThan(0);
    // The other companies stayed behind.
    const companies = await pool.query('SELECT domain FROM companies');
    expect(companies.rows.map((r) => r.domain)).toEqual(['summit.test']);
  });

  it('hands out role keys above the copied ones', async () => {
    const max = source.prepare<[], number>('SELECT max(id) FROM roles').pluck().get()!;
    const role = await pool.query<{ id: number }>(
      "INSERT INTO roles (name, created_at) VALUES ('After the copy', '2026-11-27T00:00:00.000Z') RETURNING id",
    );
    expect(role.rows[0]!.id).toBeGreaterThan(max);
    await pool.query('DELETE FROM roles WHERE id = $1', [role.rows[0]!.id]);
  });

  it('refuses a company that is already there, and one that does not exist, changing nothing', async () => {
    const before = await countAll();
    await expect(copyCompany(source, pool, 'summit.test', { dryRun: false })).rejects.toThrow(
      new CopyError(`Company ${summit} is already in the PostgreSQL database; nothing was copied`),
    );
    await expect(copyCompany(source, pool, 'nowhere.test', { dryRun: false })).rejects.toThrow(
      'No company "nowhere.test" in the SQLite database',
    );
    expect(await countAll()).toEqual(before);
  });

  it('refuses when the shared permissions differ from the source, changing nothing', async () => {
    const before = await countAll();
    await pool.query(
      "UPDATE permissions SET name = 'renamed:elsewhere' WHERE id = (SELECT min(id) FROM permissions)",
    );
    await expect(copyCompany(source, pool, 'harbor.test', { dryRun: false })).rejects.toThrow(
      /^permissions \d+ differs between the databases/,
    );
    expect(await countAll()).toEqual(before);
    await pool.query('UPDATE permissions SET name = $1 WHERE id = (SELECT min(id) FROM permissions)', [
      source.prepare<[], string>('SELECT name FROM permissions ORDER BY id LIMIT 1').pluck().get(),
    ]);
  });

  it('a dry run into a database never set up checks the copy and leaves the database empty', async () => {
    const emptyUrl = cluster.createDatabase('dry_run_target');
    const empty = pgPool(emptyUrl);
    const tablesIn = async () =>
      (
        await empty.query<{ name: string }>(
          "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
        )
      ).rows.map((r) => r.name);
    try {
      const report = await copyCompany(source, empty, 'summit.test', { dryRun: true });
      expect(report.tables.find((x) => x.name === 'tasks')).toMatchObject({ source: expect.any(Number) });
      expect(report.tables.every((x) => x.source === x.target)).toBe(true);
      expect(await tablesIn()).toEqual([]);
      const cli = spawnSync('npx', ['tsx', 'api/db/db-copy.ts', '--company', 'harbor.test', '--dry-run'], {
        encoding: 'utf8',
        env: { ...process.env, DATABASE_PATH: t.env.DATABASE_PATH, DATABASE_URL: emptyUrl },
      });
      expect(cli.stderr).toBe('');
      expect(cli.stdout).toMatch(/^Dry run \(nothing written\): company \S+, \d+ rows, every table checked/);
      expect(await tablesIn()).toEqual([]);
    } finally {
      await empty.end();
    }
  });

  it('runs from the command line: npm run db:copy -- --company harbor.test', () => {
    const run = (args: string[]) =>
      spawnSync('npx', ['tsx', 'api/db/db-copy.ts', ...args], {
        encoding: 'utf8',
        env: { ...process.env, DATABASE_PATH: t.env.DATABASE_PATH, DATABASE_URL: url },
      });
    const missing = run([]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('Name a company (--company) or --all.');
    const dry = run(['--company', 'harbor.test', '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toMatch(/^Dry run \(nothing written\): company \S+, \d+ rows, every table checked/);
    const real = run(['--company', 'harbor.test']);
    expect(real.status).toBe(0);
    expect(real.stdout).toMatch(/^Copied: company \S+, \d+ rows, every table checked/);
    expect(real.stdout).toMatch(/\n {2}tasks +\d+ +\d+\n/);
    const again = run(['--company', 'harbor.test']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is already in the PostgreSQL database; nothing was copied/);
  });
});
