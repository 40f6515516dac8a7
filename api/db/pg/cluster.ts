import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks, from Debian's `postgresql` package (never a
 * download): initdb in a temporary folder, a server that listens only on a Unix socket in that folder (no
 * port to collide with), removed on stop. PostgreSQL refuses to run as root, so as root the programs run as
 * the package's `postgres` user.
 */
export interface TempCluster {
  /** `postgres://` URL of the cluster's `postgres` database, over the socket. */
  url: string;
  /** A new empty database in the cluster, and its URL. */
  createDatabase(name: string): string;
  stop(): void;
}

/** The folder of PostgreSQL's server programs, or undefined when the package is not installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/**
 * Whether this run tests the PostgreSQL backend: wherever the package is installed, and always in CI
 * (`.ci/run` installs it), where a missing package fails the run instead of leaving the backend untested.
 */
export function postgresAvailable(): boolean {
  if (postgresBinDir()) return true;
  if (process.env.CI) throw new Error("CI must test PostgreSQL: install Debian's postgresql package");
  return false;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, program: string, args: string[]): void {
  const file = path.join(bin, program);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const out = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${program} failed: ${out.stderr || out.stdout}`);
}

export function startTempCluster(): TempCluster {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  // The C collation: text sorts and compares by bytes, as in SQLite (ADR 027).
  run(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '-N']);
  // Durability settings off: a test cluster lives for one run. The API's own crash tests kill the API
  // process, not the database server.
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(bin, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']);
  const urlOf = (db: string) => `postgres://postgres@localhost/${db}?host=${encodeURIComponent(dir)}`;
  return {
    url: urlOf('postgres'),
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad database name ${name}`);
      run(bin, 'psql', ['-h', dir, '-U', 'postgres', '-q', '-c', `CREATE DATABASE ${name}`]);
      return urlOf(name);
    },
    stop() {
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
