// npm run backup: a consistent copy of the live database with VACUUM INTO (safe while the server runs).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError, loadEnv } from '../env.ts';

try {
  const env = loadEnv();
  const dir = path.resolve(path.dirname(env.DATABASE_PATH), 'backups');
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `sitecommand-${new Date().toISOString().replace(/[:.]/g, '-')}.db`);
  const db = new Database(env.DATABASE_PATH, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(target);
  db.close();
  console.log(`Backup written to ${target}`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
