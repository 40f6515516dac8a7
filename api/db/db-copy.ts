// npm run db:copy -- --company <id or domain> [--all] [--dry-run] [--from file.db] [--to postgres://...]
// Copies companies from SQLite (DATABASE_PATH) to PostgreSQL (DATABASE_URL), see `copy.ts` and ADR 027.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { migratePostgres, pgPool } from './database.ts';
import { copyCompany, CopyError, type CopyReport } from './copy.ts';

const USAGE =
  'Usage: npm run db:copy -- (--company <id or domain> | --all) [--dry-run] [--from <sqlite file>] [--to <postgres url>]';

function table(report: CopyReport): string {
  const width = Math.max(...report.tables.map((t) => t.name.length));
  const lines = report.tables
    .filter((t) => t.source > 0)
    .map(
      (t) => `  ${t.name.padEnd(width)}  ${String(t.source).padStart(8)}  ${String(t.target).padStart(8)}`,
    );
  return [`  ${'table'.padEnd(width)}  ${'SQLite'.padStart(8)}  ${'copied'.padStart(8)}`, ...lines].join(
    '\n',
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      company: { type: 'string', multiple: true },
      all: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      from: { type: 'string', default: process.env.DATABASE_PATH ?? './data/sitecommand.db' },
      to: { type: 'string', default: process.env.DATABASE_URL },
    },
  });
  const from = values.from!;
  if (!values.to || !/^postgres(ql)?:\/\//.test(values.to)) {
    console.error(`Give the PostgreSQL database: --to postgres://... or DATABASE_URL.\n${USAGE}`);
    return 2;
  }
  if (!fs.existsSync(from)) {
    console.error(`No SQLite database at ${from}.\n${USAGE}`);
    return 2;
  }
  const source = new Database(from, { readonly: true, fileMustExist: true });
  source.pragma('busy_timeout = 5000');
  const companies = values.all
    ? source.prepare<[], string>('SELECT id FROM companies ORDER BY created_at, id').pluck().all()
    : (values.company ?? []);
  if (companies.length === 0) {
    console.error(`Name a company (--company) or --all.\n${USAGE}`);
    return 2;
  }
  const pool = pgPool(values.to, 2);
  try {
    // A dry run migrates inside its own transaction and rolls that back with the copy (copy.ts).
    if (!values['dry-run']) await migratePostgres(pool);
    for (const ref of companies) {
      const report = await copyCompany(source, pool, ref, { dryRun: values['dry-run'] });
      const rows = report.tables.reduce((n, t) => n + t.source, 0);
      console.log(
        `${report.dryRun ? 'Dry run (nothing written)' : 'Copied'}: company ${report.companyId}, ${rows} rows, ` +
          'every table checked\n' +
          table(report),
      );
    }
    return 0;
  } catch (err) {
    console.error(err instanceof CopyError ? err.message : `db:copy failed: ${(err as Error).message}`);
    return 1;
  } finally {
    source.close();
    await pool.end();
  }
}

process.exitCode = await main();
