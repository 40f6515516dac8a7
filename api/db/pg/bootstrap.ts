import type { BlobStore } from '../../storage/index.ts';
import { copyCompany } from '../copy.ts';
import { pgPool, type Database } from '../database.ts';
import { openDb } from '../index.ts';
import { io } from '../op.ts';
import { seedDemo } from '../seed.ts';
import { upsertRbac } from '../seed/rbac.ts';
import { valueStmt } from '../sql.ts';

const COMPANY_COUNT = valueStmt<number>('SELECT count(*) FROM companies');
const USER_COUNT = valueStmt<number>('SELECT count(*) FROM users');

/**
 * Brings a PostgreSQL database to what the server stands on, as `seedRbac` and `seedDemo` do on SQLite:
 * the permission catalogue and the template roles, upserted on every start; and on a database without a
 * company, the demo data when asked (SEED_DEMO, as on SQLite). The demo is written by the one writer of it,
 * `seedDemo`, into an SQLite database in memory, and moved over by `db:copy`'s copy, company by company,
 * versions and stamps as written; the photo bytes go straight into the server's store. Processes starting
 * together run this one after the other (`postgresDatabase`'s start-up lock): the first seeds, the others
 * find the companies there.
 */
export async function preparePostgres(
  database: Database,
  url: string,
  store: BlobStore,
  seed: 'auto' | 'on' | 'off',
  log: (line: string) => void,
): Promise<{ seeded: boolean }> {
  const [companies, users] = await database.read(function* (c) {
    return [(yield* io(c.sql.get(COMPANY_COUNT))) ?? 0, (yield* io(c.sql.get(USER_COUNT))) ?? 0] as const;
  });
  let seeded = false;
  if (seed === 'on' || (seed === 'auto' && users === 0)) {
    if (companies === 0) seeded = await copyDemo(url, store);
    else if (seed === 'on' && users === 0)
      log('SEED_DEMO=on: the PostgreSQL database already has companies; the demo needs an empty one.');
  }
  await database.writeTx(null, upsertRbac);
  return { seeded };
}

async function copyDemo(url: string, store: BlobStore): Promise<boolean> {
  const memory = openDb(':memory:');
  const pool = pgPool(url, 1);
  try {
    await seedDemo(memory, store);
    const ids = memory.$client
      .prepare<[], string>('SELECT id FROM companies ORDER BY created_at, id')
      .pluck()
      .all();
    for (const id of ids) await copyCompany(memory.$client, pool, id, { dryRun: false });
    return true;
  } finally {
    await pool.end();
    memory.$client.close();
  }
}
