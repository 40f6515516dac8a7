import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { copyCompany } from './db/copy.ts';
import { migratePostgres, pgPool } from './db/database.ts';
import { openDb } from './db/index.ts';
import { postgresAvailable, startTempCluster } from './db/pg/cluster.ts';
import { seedDemo, seedRbac } from './db/seed.ts';
import { DiskBlobStore } from './storage/index.ts';

/**
 * Seeds one demo database (argon2 and ~60 generated JPEGs take seconds) before the run; each test file
 * then starts from a copy of it, so every file still gets a real, private SQLite file with the real
 * migrations and the demo data.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-template-'));
  const db = openDb(path.join(dir, 'test.db'));
  seedRbac(db);
  await seedDemo(db, new DiskBlobStore(path.join(dir, 'photos')));
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  project.provide('seededTemplateDir', dir);
  // The project that runs the suites on PostgreSQL (vite.config.ts) gets the same demo in a template
  // database of a throwaway cluster; each app is a fresh database made from it (CREATE DATABASE ...
  // TEMPLATE, a file copy), as each SQLite app is a copy of the file.
  const cluster = project.name === 'postgres' && postgresAvailable() ? startTempCluster() : undefined;
  if (cluster) {
    const url = cluster.createDatabase(PG_TEMPLATE);
    const pool = pgPool(url, 1);
    await migratePostgres(pool);
    const ids = db.$client
      .prepare<[], string>('SELECT id FROM companies ORDER BY created_at, id')
      .pluck()
      .all();
    for (const id of ids) await copyCompany(db.$client, pool, id, { dryRun: false });
    await pool.end();
    project.provide('postgresCluster', cluster.url);
  }
  db.$client.close();
  return () => {
    cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** The name of the seeded PostgreSQL template database. */
export const PG_TEMPLATE = 'seeded_template';

let created = 0;

/** A new database in the test cluster holding the seeded demo (or only the schema), and its URL. */
export async function templateCopy(clusterUrl: string, seeded: boolean): Promise<string> {
  const name = `app_${process.pid}_${++created}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    // Two workers copying the template at the same instant may be told it is in use: try again.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${seeded ? ` TEMPLATE ${PG_TEMPLATE}` : ''}`);
        break;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  return clusterUrl.replace(/\/postgres\?/, `/${name}?`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededTemplateDir: string;
    postgresCluster?: string;
  }
}
