import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberPlaceholders, postgresDatabase, sqliteDatabase, type Database } from './database.ts';
import { schema } from './index.ts';
import { postgresAvailable, startTempCluster, type TempCluster } from './pg/cluster.ts';

// The seam of ADR 027: the same drizzle queries, on SQLite and on PostgreSQL (a throwaway cluster from
// Debian's package), give the same rows and the same transaction behaviour.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-seam-'));
let cluster: TempCluster;
let databases = 0;

const withPostgres = postgresAvailable();

beforeAll(() => {
  if (withPostgres) cluster = startTempCluster();
});
afterAll(() => {
  cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Without Debian's postgresql package outside CI (a developer's machine), only SQLite runs.
const backends: (readonly [string, () => Promise<Database>])[] = [
  ['SQLite', async () => sqliteDatabase(path.join(dir, `seam-${++databases}.db`))],
  ...(withPostgres
    ? [['PostgreSQL', () => postgresDatabase(cluster.createDatabase(`seam_${++databases}`))] as const]
    : []),
];

const NOW = '2026-11-27T10:00:00.000Z';

async function company(d: Database, id: string) {
  await d.writeTx(null, (tx) =>
    tx
      .insert(schema.companies)
      .values({ id, name: `Company ${id}`, createdAt: NOW, updatedAt: NOW })
      .run(),
  );
}

/** Resolves when `open()` is called; the holder stays in its transaction until `release()`. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  return { release, released };
}

describe.each(backends)('%s behind the seam', (_name, open) => {
  let d: Database;
  beforeAll(async () => {
    d = await open();
    await company(d, 'c1');
    await company(d, 'c2');
  });
  afterAll(() => d?.close());

  it('writes and reads back rows with booleans, JSON, reals, nulls and defaults as drizzle decodes them', async () => {
    await d.writeTx('c1', async (tx) => {
      await tx
        .insert(schema.projects)
        .values({
          id: 'p1',
          name: 'Tower',
          location: 'Oslo',
          companyId: 'c1',
          createdAt: NOW,
          updatedAt: NOW,
        })
        .run();
      await tx
        .insert(schema.tasks)
        .values([
          {
            id: 't1',
            title: 'Pour slab',
            projectId: 'p1',
            companyId: 'c1',
            isMilestone: true,
            estimatedHours: 2.5,
            fieldMeta: { title: [3, 1700000000000, 'device-1'] },
            createdAt: NOW,
            updatedAt: NOW,
          },
          { id: 't2', title: 'Rebar', projectId: 'p1', companyId: 'c1', createdAt: NOW, updatedAt: NOW },
        ])
        .run();
    });
    const rows = await d.db.select().from(schema.tasks).orderBy(asc(schema.tasks.id)).all();
    expect(rows).toEqual([
      expect.objectContaining({
        id: 't1',
        isMilestone: true,
        estimatedHours: 2.5,
        fieldMeta: { title: [3, 1700000000000, 'device-1'] },
        status: 'pending',
        version: 0,
        dueDate: null,
      }),
      expect.objectContaining({ id: 't2', isMilestone: false, estimatedHours: null, fieldMeta: {} }),
    ]);
    const one = await d.db.select().from(schema.tasks).where(eq(schema.tasks.id, 't2')).get();
    expect(one?.title).toBe('Rebar');
    expect(await d.db.select().from(schema.tasks).where(eq(schema.tasks.id, 'none')).get()).toBeUndefined();
  });

  it('gives an autoincrement key on insert, returned by RETURNING', async () => {
    const [a] = await d.writeTx(null, (tx) =>
      tx.insert(schema.roles).values({ name: 'Foreman', createdAt: NOW }).returning({ id: schema.roles.id }),
    );
    const [b] = await d.writeTx(null, (tx) =>
      tx.insert(schema.roles).values({ name: 'Driver', createdAt: NOW }).returning({ id: schema.roles.id }),
    );
    expect(typeof a!.id).toBe('number');
    expect(b!.id).toBe(a!.id + 1);
  });

  it('rolls a whole transaction back when it throws, and a savepoint back alone', async () => {
    await expect(
      d.writeTx('c1', async (tx) => {
        await tx.update(schema.tasks).set({ title: 'Lost' }).where(eq(schema.tasks.id, 't1')).run();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await d.writeTx('c1', async (tx) => {
      await tx.update(schema.tasks).set({ status: 'completed' }).where(eq(schema.tasks.id, 't1')).run();
      await expect(
        d.savepoint(tx, async () => {
          await tx.update(schema.tasks).set({ title: 'Undone' }).where(eq(schema.tasks.id, 't1')).run();
          throw new Error('one mutation refused');
        }),
      ).rejects.toThrow('one mutation refused');
    });
    const t1 = await d.db.select().from(schema.tasks).where(eq(schema.tasks.id, 't1')).get();
    expect({ title: t1?.title, status: t1?.status }).toEqual({ title: 'Pour slab', status: 'completed' });
  });

  it('keeps an open transaction out of reads outside it until it commits', async () => {
    const held = gate();
    let inside!: () => void;
    const written = new Promise<void>((r) => (inside = r));
    const tx = d.writeTx('c1', async (t) => {
      await t.update(schema.tasks).set({ title: 'Uncommitted' }).where(eq(schema.tasks.id, 't2')).run();
      inside();
      await held.released;
    });
    await written;
    const during = d.db.select().from(schema.tasks).where(eq(schema.tasks.id, 't2')).get();
    // PostgreSQL answers with the committed row at once; SQLite waits for the commit (one connection).
    const settled = await Promise.race([during, new Promise((r) => setTimeout(() => r('waiting'), 50))]);
    if (settled !== 'waiting') expect((settled as { title: string }).title).toBe('Rebar');
    held.release();
    await tx;
    expect((await d.db.select().from(schema.tasks).where(eq(schema.tasks.id, 't2')).get())?.title).toBe(
      'Uncommitted',
    );
    if (settled === 'waiting') expect((await during)?.title).toBe('Uncommitted');
  });

  it("queues writers of one company in order; on PostgreSQL another company's writer does not wait", async () => {
    const order: string[] = [];
    const held = gate();
    let started!: () => void;
    const first = d.writeTx('c1', async () => {
      started();
      order.push('c1 first');
      await held.released;
      order.push('c1 first done');
    });
    await new Promise<void>((r) => (started = r));
    const second = d.writeTx('c1', async () => void order.push('c1 second'));
    const other = d.writeTx('c2', async () => void order.push('c2'));
    await new Promise((r) => setTimeout(r, 50));
    held.release();
    await Promise.all([first, second, other]);
    expect(order.indexOf('c1 second')).toBeGreaterThan(order.indexOf('c1 first done'));
    if (d.dialect === 'postgres') expect(order.indexOf('c2')).toBeLessThan(order.indexOf('c1 first done'));
  });

  it('stamps users with a fresh company version and leaves a tombstone when one is deleted (SPEC L12)', async () => {
    const before = (await d.db.select().from(schema.companies).where(eq(schema.companies.id, 'c2')).get())!;
    await d.writeTx('c2', (tx) =>
      tx
        .insert(schema.users)
        .values({
          id: 'u9',
          email: 'u9@example.com',
          username: 'u9',
          password: 'x',
          firstName: 'Ann',
          lastName: 'Lee',
          companyId: 'c2',
          createdAt: NOW,
          updatedAt: NOW,
        })
        .run(),
    );
    const user = (await d.db.select().from(schema.users).where(eq(schema.users.id, 'u9')).get())!;
    expect(user.version).toBe(before.lastVersion + 1);
    await d.writeTx('c2', (tx) =>
      tx.update(schema.users).set({ password: 'y' }).where(eq(schema.users.id, 'u9')).run(),
    );
    expect((await d.db.select().from(schema.users).where(eq(schema.users.id, 'u9')).get())!.version).toBe(
      before.lastVersion + 1,
    );
    await d.writeTx('c2', (tx) => tx.delete(schema.users).where(eq(schema.users.id, 'u9')).run());
    const tombstones = await d.db.select().from(schema.syncTombstones).all();
    expect(tombstones).toEqual([
      expect.objectContaining({
        tableName: 'users',
        rowId: 'u9',
        companyId: 'c2',
        version: before.lastVersion + 2,
      }),
    ]);
    expect(tombstones[0]!.deletedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('orders text by bytes, as SQLite does', async () => {
    const names = await d.rows<{ v: string }>(
      d.db,
      "SELECT v FROM (SELECT 'b' AS v UNION ALL SELECT 'B' UNION ALL SELECT 'a' UNION ALL SELECT '_') x ORDER BY v",
    );
    expect(names.map((r) => r.v)).toEqual(['B', '_', 'a', 'b']);
  });

  it('answers plain SQL with rows keyed by column, inside and outside a transaction', async () => {
    expect(await d.rows(d.db, 'SELECT id, is_milestone FROM tasks WHERE id = ?', ['t1'])).toEqual([
      { id: 't1', is_milestone: 1 },
    ]);
    const inside = await d.writeTx('c1', async (tx) => {
      await tx.update(schema.tasks).set({ priority: 'high' }).where(eq(schema.tasks.id, 't1')).run();
      return d.rows<{ priority: string }>(tx, 'SELECT priority FROM tasks WHERE id = ?', ['t1']);
    });
    expect(inside).toEqual([{ priority: 'high' }]);
  });
});

describe('numberPlaceholders', () => {
  it("numbers SQLite's placeholders and leaves quoted question marks alone", () => {
    expect(numberPlaceholders(`select "a?" from t where x = ? and y = '?' and z in (?, ?)`)).toBe(
      `select "a?" from t where x = $1 and y = '?' and z in ($2, $3)`,
    );
  });
});
