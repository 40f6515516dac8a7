import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, postgresDatabase, type Database } from '../db/database.ts';
import { io } from '../db/op.ts';
import { postgresAvailable, startTempCluster, type TempCluster } from '../db/pg/cluster.ts';
import { valueStmt } from '../db/sql.ts';
import { DatabaseLoginLimiter } from './rate-limit.ts';

// ADR 028: with its failures in the database, the sign-in throttle is one throttle for every API process on
// that database. Two limiters on one database stand for two processes.

const MINUTE = 60_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-throttle-'));
let cluster: TempCluster | undefined;
let n = 0;

beforeAll(() => {
  if (postgresAvailable()) cluster = startTempCluster();
});
afterAll(() => {
  cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const backends: [string, () => Promise<Database>][] = [
  ['SQLite', async () => openSqliteDatabase(path.join(dir, `throttle-${++n}.db`))],
  ['PostgreSQL', () => postgresDatabase(cluster!.createDatabase(`throttle_${++n}`))],
];

const ROWS = valueStmt<number>('SELECT count(*) FROM sign_in_failures');

describe.each(backends)('the sign-in throttle in %s', (name, open) => {
  let database: Database;
  const clock = { t: Date.parse('2026-03-02T08:00:00Z') };
  const processes = () => [0, 1].map(() => new DatabaseLoginLimiter(database, () => clock.t));

  beforeAll(async () => {
    if (name === 'PostgreSQL' && !cluster) throw new Error('PostgreSQL is not installed here');
    database = await open();
  });
  afterAll(() => database.close());

  it('counts an account’s failures from one address across processes: the 11th try is refused by both', async () => {
    const [a, b] = processes();
    for (let i = 0; i < 10; i++) {
      expect((await (i % 2 ? a! : b!).attempt('crew@summit.test', '10.0.0.1')).allowed).toBe(true);
    }
    for (const limiter of [a!, b!]) {
      const refused = await limiter.attempt('crew@summit.test', '10.0.0.1');
      expect(refused).toEqual({ allowed: false, retryAfter: 15 * 60 });
    }
  });

  it('lets through exactly 10 of a concurrent burst of 40 tries spread over two processes', async () => {
    const [a, b] = processes();
    const tries = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).attempt('burst@summit.test', '10.0.0.2')),
    );
    expect(tries.filter((t) => t.allowed)).toHaveLength(10);
  });

  it('a right password in one process clears the account there and in the other; the address still counts', async () => {
    const [a, b] = processes();
    for (let i = 0; i < 9; i++) await a!.attempt('boss@summit.test', '10.0.0.3');
    const right = await b!.attempt('boss@summit.test', '10.0.0.3');
    expect(right.allowed).toBe(true);
    if (right.allowed) await right.succeed();
    // The account and the pair start again from nothing: 10 more failures are allowed, in either process.
    for (let i = 0; i < 10; i++)
      expect((await a!.attempt('boss@summit.test', '10.0.0.3')).allowed).toBe(true);
    expect((await b!.attempt('boss@summit.test', '10.0.0.3')).allowed).toBe(false);
    // The address holds the 9 cleared failures and the 10 new ones: 11 more tries of other accounts reach
    // its 30, and the next is refused.
    for (let i = 0; i < 11; i++)
      expect((await b!.attempt(`u${i}@summit.test`, '10.0.0.3')).allowed).toBe(true);
    expect((await a!.attempt('other@summit.test', '10.0.0.3')).allowed).toBe(false);
  });

  it("the owner's right password from another address leaves the attacker's address locked for the account", async () => {
    const [a, b] = processes();
    for (let i = 0; i < 10; i++) await a!.attempt('owner@summit.test', '10.6.6.6');
    clock.t += 60_000; // past the account's slow-down delay
    const owner = await b!.attempt('owner@summit.test', '10.0.0.7');
    expect(owner.allowed).toBe(true);
    if (owner.allowed) await owner.succeed();
    expect((await a!.attempt('owner@summit.test', '10.6.6.6')).allowed).toBe(false);
  });

  it('forgets every try once the 15-minute window has passed (the table does not grow)', async () => {
    const [a] = processes();
    for (let i = 0; i < 200; i++) await a!.attempt(`random${i}@random.test`, `10.1.${i >> 8}.${i & 255}`);
    expect(await database.read((c) => io(c.sql.get(ROWS)))).toBeGreaterThanOrEqual(200);
    clock.t += 16 * MINUTE;
    await a!.attempt('someone@summit.test', '10.9.0.1');
    expect(await database.read((c) => io(c.sql.get(ROWS)))).toBe(1);
  });
});
