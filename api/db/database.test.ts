import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBusy, openSqliteDatabase, postgresDatabase, type Conn, type Database } from './database.ts';
import { schema } from './index.ts';
import { io, type Op } from './op.ts';
import { postgresAvailable, startTempCluster, type TempCluster } from './pg/cluster.ts';
import { rowsStmt, savepoint, toPgText, valueStmt } from './sql.ts';
import { SyncNotifier } from '../sync/events.ts';

// The seam of ADR 027: the same Ops (drizzle queries and plain SQL), on SQLite and on PostgreSQL (a
// throwaway cluster from Debian's package), give the same rows and the same transaction behaviour.

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
  ['SQLite', async () => openSqliteDatabase(path.join(dir, `seam-${++databases}.db`))],
  ...(withPostgres
    ? [['PostgreSQL', () => postgresDatabase(cluster.createDatabase(`seam_${++databases}`))] as const]
    : []),
];

const NOW = '2026-11-27T10:00:00.000Z';
const { tasks, companies, users, roles, syncTombstones } = schema;

function* addCompany({ db }: Conn, id: string): Op<void> {
  yield* io(
    db
      .insert(companies)
      .values({ id, name: `Company ${id}`, createdAt: NOW, updatedAt: NOW })
      .run(),
  );
}

const taskById = (id: string) =>
  function* ({ db }: Conn) {
    return yield* io(db.select().from(tasks).where(eq(tasks.id, id)).get());
  };

const TITLE_OF = valueStmt<string>('SELECT title FROM tasks WHERE id = ?');
const NAME_OF = valueStmt<string>('SELECT name FROM companies WHERE id = ?');
const TASKS_OF = rowsStmt<{ id: string; is_milestone: number }>(
  'SELECT id, is_milestone FROM tasks WHERE company_id = @company AND project_id = @project ORDER BY id',
);
const RENAME = rowsStmt('UPDATE tasks SET title = ? WHERE id = ?');

describe.each(backends)('%s behind the seam', (_name, open) => {
  let d: Database;
  beforeAll(async () => {
    d = await open();
    await d.writeTx(null, (c) => addCompany(c, 'c1'));
    await d.writeTx(null, (c) => addCompany(c, 'c2'));
  });
  afterAll(() => d?.close());

  it('writes and reads back rows with booleans, JSON, reals, nulls and defaults as drizzle decodes them', async () => {
    await d.writeTx('c1', function* ({ db }) {
      yield* io(
        db
          .insert(schema.projects)
          .values({
            id: 'p1',
            name: 'Tower',
            location: 'Oslo',
            companyId: 'c1',
            createdAt: NOW,
            updatedAt: NOW,
          })
          .run(),
      );
      yield* io(
        db
          .insert(tasks)
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
          .run(),
      );
    });
    const rows = await d.read(function* ({ db }) {
      return yield* io(db.select().from(tasks).orderBy(asc(tasks.id)).all());
    });
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
    expect((await d.read(taskById('t2')))?.title).toBe('Rebar');
    expect(await d.read(taskById('none'))).toBeUndefined();
  });

  it('answers plain SQL: rows keyed by column, a plucked value, named parameters, rows written', async () => {
    const answers = await d.writeTx('c1', function* ({ sql }) {
      const written = yield* io(sql.run(RENAME, ['Pour slab', 't1']));
      const title = yield* io(sql.get(TITLE_OF, ['t1']));
      const missing = yield* io(sql.get(TITLE_OF, ['none']));
      const list = yield* io(sql.all(TASKS_OF, { company: 'c1', project: 'p1' }));
      return { written, title, missing, list };
    });
    expect(answers).toEqual({
      written: 1,
      title: 'Pour slab',
      missing: undefined,
      list: [
        { id: 't1', is_milestone: 1 },
        { id: 't2', is_milestone: 0 },
      ],
    });
  });

  it('gives an autoincrement key on insert, returned by RETURNING', async () => {
    const insert = (name: string) =>
      function* ({ db }: Conn) {
        const [row] = yield* io(
          db.insert(roles).values({ name, createdAt: NOW }).returning({ id: roles.id }).all(),
        );
        return row!.id;
      };
    const a = await d.writeTx(null, insert('Foreman'));
    const b = await d.writeTx(null, insert('Driver'));
    expect(typeof a).toBe('number');
    expect(b).toBe(a + 1);
  });

  it('rolls a whole transaction back when it throws, and a savepoint back alone', async () => {
    await expect(
      d.writeTx('c1', function* ({ db }) {
        yield* io(db.update(tasks).set({ title: 'Lost' }).where(eq(tasks.id, 't1')).run());
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const caught = await d.writeTx('c1', function* (c) {
      yield* io(c.db.update(tasks).set({ status: 'completed' }).where(eq(tasks.id, 't1')).run());
      try {
        yield* savepoint(c.sql, function* () {
          yield* io(c.db.update(tasks).set({ title: 'Undone' }).where(eq(tasks.id, 't1')).run());
          // A nested savepoint that succeeds is undone with its parent.
          yield* savepoint(c.sql, function* () {
            yield* io(c.db.update(tasks).set({ priority: 'high' }).where(eq(tasks.id, 't1')).run());
          });
          throw new Error('one mutation refused');
        });
      } catch (err) {
        return (err as Error).message;
      }
      return 'not thrown';
    });
    expect(caught).toBe('one mutation refused');
    const t1 = await d.read(taskById('t1'));
    expect({ title: t1?.title, status: t1?.status, priority: t1?.priority }).toEqual({
      title: 'Pour slab',
      status: 'completed',
      priority: 'medium',
    });
  });

  it('throws a statement that fails into the Op, where it can be caught, and the transaction goes on', async () => {
    const outcome = await d.writeTx('c1', function* (c) {
      try {
        yield* savepoint(c.sql, function* () {
          yield* io(
            c.db
              .insert(tasks)
              .values({ id: 't1', title: 'Twice', companyId: 'c1', createdAt: NOW, updatedAt: NOW })
              .run(),
          );
        });
        return 'inserted';
      } catch {
        yield* io(c.sql.run(RENAME, ['After a refused insert', 't2']));
        return 'refused';
      }
    });
    expect(outcome).toBe('refused');
    expect((await d.read(taskById('t2')))?.title).toBe('After a refused insert');
  });

  it('stamps users with a fresh company version and leaves a tombstone when one is deleted (SPEC L12)', async () => {
    const c2 = () =>
      d.read(function* ({ db }) {
        return (yield* io(db.select().from(companies).where(eq(companies.id, 'c2')).get()))!;
      });
    const userVersion = () =>
      d.read(function* ({ db }) {
        return (yield* io(db.select().from(users).where(eq(users.id, 'u9')).get()))!.version;
      });
    const before = await c2();
    await d.writeTx('c2', function* ({ db }) {
      yield* io(
        db
          .insert(users)
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
    });
    expect(await userVersion()).toBe(before.lastVersion + 1);
    // A password is not mirrored: no new version.
    await d.writeTx('c2', function* ({ db }) {
      yield* io(db.update(users).set({ password: 'y' }).where(eq(users.id, 'u9')).run());
    });
    expect(await userVersion()).toBe(before.lastVersion + 1);
    await d.writeTx('c2', function* ({ db }) {
      yield* io(db.delete(users).where(eq(users.id, 'u9')).run());
    });
    const tombstones = await d.read(function* ({ db }) {
      return yield* io(db.select().from(syncTombstones).all());
    });
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
    const ORDERED = valueStmt<string>(
      "SELECT v FROM (SELECT 'b' AS v UNION ALL SELECT 'B' UNION ALL SELECT 'a' UNION ALL SELECT '_') x ORDER BY v",
    );
    expect(await d.read(({ sql }) => io(sql.all(ORDERED)))).toEqual(['B', '_', 'a', 'b']);
  });
});

describe.runIf(withPostgres)('PostgreSQL write transactions', () => {
  let d: Database;
  beforeAll(async () => {
    d = await postgresDatabase(cluster.createDatabase('seam_locks'));
    await d.writeTx(null, (c) => addCompany(c, 'c1'));
    await d.writeTx(null, (c) => addCompany(c, 'c2'));
    await d.writeTx('c1', function* ({ db }) {
      yield* io(
        db
          .insert(tasks)
          .values({ id: 't1', title: 'Committed', companyId: 'c1', createdAt: NOW, updatedAt: NOW })
          .run(),
      );
    });
  });
  afterAll(() => d?.close());

  /** A promise and its resolver: an Op that yields it waits there, inside its transaction. */
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    return { open, opened };
  }

  it('are not seen by reads outside them until they commit', async () => {
    const hold = gate();
    const written = gate();
    const tx = d.writeTx('c1', function* (c) {
      yield* io(c.sql.run(RENAME, ['Uncommitted', 't1']));
      written.open();
      yield* io(hold.opened);
    });
    await written.opened;
    expect((await d.read(taskById('t1')))?.title).toBe('Committed');
    hold.open();
    await tx;
    expect((await d.read(taskById('t1')))?.title).toBe('Uncommitted');
  });

  it("queue the writers of one company in order; another company's writer does not wait", async () => {
    const order: string[] = [];
    const hold = gate();
    const started = gate();
    const first = d.writeTx('c1', function* () {
      started.open();
      order.push('c1 first');
      yield* io(hold.opened);
      order.push('c1 first done');
    });
    await started.opened;
    const second = d.writeTx('c1', function* () {
      order.push('c1 second');
    });
    await d.writeTx('c2', function* () {
      order.push('c2');
    });
    hold.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['c1 first', 'c2', 'c1 first done', 'c1 second']);
  });
});

describe.runIf(withPostgres)('a PostgreSQL writer kept waiting for a company', () => {
  it('gives up after the lock timeout with the error push answers as 503 (SPEC P9)', async () => {
    const url = cluster.createDatabase('seam_busy');
    const d = await postgresDatabase(url, { lockTimeoutMs: 200 });
    await d.writeTx(null, (c) => addCompany(c, 'c1'));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = d.writeTx('c1', () => io(held));
    const waiting = d.writeTx('c1', function* () {
      yield* io(Promise.resolve());
    });
    const err: unknown = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isBusy(err)).toBe(true);
    release();
    await holder;
    await d.close();
  });
});

describe.runIf(withPostgres)('a PostgreSQL connection that drops', () => {
  it('costs the request that was using it, not the process: the next request gets a new connection', async () => {
    const url = cluster.createDatabase('seam_dropped');
    const d = await postgresDatabase(url);
    await d.writeTx(null, (c) => addCompany(c, 'c1'));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const endOthers = () =>
      admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
    const companyName = () => d.read(({ sql }) => io(sql.get(NAME_OF, ['c1'])));
    try {
      // Idle connections of the pool ended by an admin (as a restart of PostgreSQL ends them).
      await endOthers();
      await new Promise((r) => setTimeout(r, 200));
      expect(await companyName()).toBe('Company c1');
      // The connection of a transaction ended while the transaction is between statements.
      const inside = d.writeTx('c1', function* ({ sql }) {
        yield* io(endOthers());
        yield* io(new Promise((r) => setTimeout(r, 200)));
        return yield* io(sql.get(NAME_OF, ['c1']));
      });
      await expect(inside).rejects.toThrow();
      expect(await companyName()).toBe('Company c1');
    } finally {
      await admin.end();
      await d.close();
    }
  });
});

describe.runIf(withPostgres)('pokes between API processes on one PostgreSQL (LISTEN/NOTIFY)', () => {
  const NEXT_VERSION = rowsStmt('UPDATE companies SET last_version = last_version + 1 WHERE id = ?');
  let url: string;
  let one: Database;
  let other: Database;
  beforeAll(async () => {
    url = cluster.createDatabase('seam_pokes');
    [one, other] = [await postgresDatabase(url), await postgresDatabase(url)];
    await one.writeTx(null, (c) => addCompany(c, 'c1'));
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
  });

  it("tell another process's listeners of a company's new version, with that process's poll turned off", async () => {
    // Two databases on one URL stand for two processes: the second hears only what the first announces.
    const heard: number[] = [];
    const listening = new SyncNotifier(other, { pollMs: 0 });
    const unsubscribe = await listening.subscribe('c1', (version) => heard.push(version));
    await one.writeTx('c1', (c) => io(c.sql.run(NEXT_VERSION, ['c1'])));
    new SyncNotifier(one).poke('c1');
    await expect.poll(() => heard, { timeout: 5000 }).toEqual([1]);
    unsubscribe();
  });

  it("carry the company's id to the other processes", async () => {
    const heard: string[] = [];
    const stop = await other.onAnnounce((companyId) => heard.push(companyId));
    one.announce('c2');
    await expect.poll(() => heard, { timeout: 5000 }).toEqual(['c2']);
    stop();
  });
});

describe('SQLite write transactions', () => {
  it('are synchronous: a statement answering with a promise is refused and the transaction rolled back', async () => {
    const d = openSqliteDatabase(path.join(dir, 'sync.db'));
    await expect(
      d.writeTx(null, function* (c) {
        yield* addCompany(c, 'c9');
        yield* io(Promise.resolve('later'));
      }),
    ).rejects.toThrow('An asynchronous statement inside a synchronous database operation');
    expect(await d.read(({ db }) => io(db.select().from(companies).all()))).toEqual([]);
    await d.close();
  });
});

describe('toPgText', () => {
  it("numbers SQLite's parameters and leaves quoted question marks and at signs alone", () => {
    expect(toPgText(`select "a?" from t where x = ? and y = '?@x' and z in (?, ?)`)).toEqual({
      text: `select "a?" from t where x = $1 and y = '?@x' and z in ($2, $3)`,
      names: null,
    });
    expect(toPgText('select 1 from t where c = @company and (u = @user or c = @company)')).toEqual({
      text: 'select 1 from t where c = $1 and (u = $2 or c = $1)',
      names: ['company', 'user'],
    });
  });

  it("names an upsert's conflict target by its columns alone, as PostgreSQL requires", () => {
    expect(
      toPgText('insert into "roles" ("id") values (?) on conflict ("roles"."id") do update set "id" = ?')
        .text,
    ).toBe('insert into "roles" ("id") values ($1) on conflict ("id") do update set "id" = $2');
  });
});
