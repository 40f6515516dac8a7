import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from './db/index.ts';
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
  db.$client.close();
  project.provide('seededTemplateDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededTemplateDir: string;
  }
}
