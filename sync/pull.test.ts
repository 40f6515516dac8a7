import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { PulledChange } from '#shared/sync-protocol.ts';
import { openSyncDb, readMeta, type SyncDb } from './db.ts';
import { mutate, newRowId } from './mutate.ts';
import { applyPullPage } from './pull.ts';
import { applyPushResults } from './push.ts';
import { recordIdb } from './test-support.ts';

const scope = { companyId: newRowId(), userId: newRowId() };
const T0 = Date.UTC(2026, 10, 22, 8);
const projectId = newRowId();

function device(): SyncDb {
  return openSyncDb(scope, { indexedDB: new IDBFactory(), IDBKeyRange, now: () => T0 });
}

const task = (id: string, version: number, data: Record<string, unknown> = {}): PulledChange => ({
  table: 'tasks',
  id,
  version,
  deleted: false,
  data: { id, title: `Task v${version}`, status: 'pending', projectId, version, ...data },
});
const tombstone = (id: string, version: number): PulledChange => ({
  table: 'tasks',
  id,
  version,
  deleted: true,
});

const page = (db: SyncDb, changes: PulledChange[], cursor: number, extra: { clear?: boolean } = {}) =>
  applyPullPage(db, changes, { cursor, now: T0, final: true, ...extra });

describe('applying pulled pages', () => {
  it('[C6] a row never moves back in time: an older version is skipped, a newer one taken', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 10, { title: 'Ten' })], 10);
    await page(db, [task(id, 7, { title: 'Seven' })], 11);
    expect(await db.tasks.get(id)).toMatchObject({ title: 'Ten', version: 10 });
    await page(db, [task(id, 12, { title: 'Twelve' })], 12);
    expect(await db.tasks.get(id)).toMatchObject({ title: 'Twelve', version: 12 });
    expect((await readMeta(db)).cursor).toBe(12);
  });

  it('[C24] carried changes are stored only from a cursor the device has reached, and only if they bring it further', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 10, { title: 'Ten' })], 10);
    const carried = (from: number, cursor: number, title: string) =>
      applyPullPage(db, [task(id, cursor, { title })], { from, cursor, now: T0, final: true });
    // From 11: the change at 11 itself may be missing on this device (its cursor is 10).
    expect(await carried(11, 12, 'Gap')).toBe(false);
    // Not past the device's cursor: nothing new.
    expect(await carried(8, 10, 'Old')).toBe(false);
    expect(await db.tasks.get(id)).toMatchObject({ title: 'Ten', version: 10 });
    expect((await readMeta(db)).cursor).toBe(10);
    // From below or at the cursor, to past it: stored like a pull's page, the cursor moved.
    expect(await carried(9, 13, 'Thirteen')).toBe(true);
    expect(await db.tasks.get(id)).toMatchObject({ title: 'Thirteen', version: 13 });
    expect((await readMeta(db)).cursor).toBe(13);
  });

  it('[C6] a pulled tombstone removes the row from the device', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 3)], 3);
    await page(db, [tombstone(id, 5)], 5);
    expect(await db.tasks.get(id)).toBeUndefined();
  });

  it('[C6] tombstones of rows the device does not hold write nothing; the held ones are deleted', async () => {
    const db = device();
    const held = newRowId();
    await page(db, [task(held, 3)], 3);
    const idb = recordIdb(db);
    db.close();
    await db.open();
    const gone = Array.from({ length: 300 }, () => newRowId());
    await page(db, [...gone.map((id, i) => tombstone(id, 4 + i)), tombstone(held, 400)], 400);
    expect(await db.tasks.get(held)).toBeUndefined();
    const writes = idb.requests.filter((r) => r.table === 'tasks' && r.kind === 'write');
    expect(writes.reduce((n, r) => n + r.rows, 0)).toBe(1);
    expect((await readMeta(db)).cursor).toBe(400);
  });

  it('[C6] a pending patch is re-applied on top of a newer pulled row', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 4, { title: 'Old title', priority: 'low' })], 4);
    await mutate(db, 'tasks', 'patch', id, { priority: 'critical' });
    await page(db, [task(id, 9, { title: 'Renamed elsewhere', priority: 'low' })], 9);
    expect(await db.tasks.get(id)).toMatchObject({
      title: 'Renamed elsewhere',
      priority: 'critical',
      version: 9,
    });
    // The patch still goes out against the version it was made on.
    expect((await db.outbox.toArray())[0]).toMatchObject({ baseVersion: 4, data: { priority: 'critical' } });
  });

  it('[C6] a pending delete keeps the row deleted when a newer version is pulled', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 4)], 4);
    await mutate(db, 'tasks', 'delete', id);
    await page(db, [task(id, 8, { title: 'Edited elsewhere' })], 8);
    expect(await db.tasks.get(id)).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
  });

  it('[C6] a pending patch of a row deleted on the server does not bring the row back', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 4)], 4);
    await mutate(db, 'tasks', 'patch', id, { title: 'Offline edit' });
    await page(db, [tombstone(id, 6)], 6);
    expect(await db.tasks.get(id)).toBeUndefined();
  });

  it('[C6] a page of 2,500 rows is applied whole, with its cursor, in chunks', async () => {
    const db = device();
    const changes = Array.from({ length: 2500 }, (_, i) => task(newRowId(), i + 1));
    await page(db, changes, 2500);
    expect(await db.tasks.count()).toBe(2500);
    expect((await readMeta(db)).cursor).toBe(2500);
  });

  it('[C17] a page of 1,000 rows reaches IndexedDB in slices of at most 250 rows, in one transaction', async () => {
    const db = device();
    const idb = recordIdb(db);
    await readMeta(db);
    const changes = Array.from({ length: 1000 }, (_, i) => task(newRowId(), i + 1));
    const before = idb.transactions.length;
    await page(db, changes, 1000);
    expect(await db.tasks.count()).toBe(1000);
    const taskRequests = idb.requests.filter((r) => r.table === 'tasks');
    expect(taskRequests.reduce((n, r) => n + (r.kind === 'write' ? r.rows : 0), 0)).toBe(1000);
    expect(Math.max(...taskRequests.map((r) => r.rows))).toBeLessThanOrEqual(250);
    expect(idb.transactions.slice(before).filter((t) => t.mode === 'readwrite')).toHaveLength(1);
  });

  it('[C17] a page newer than the cursor is written without reading the rows it replaces', async () => {
    const db = device();
    const ids = Array.from({ length: 300 }, () => newRowId());
    await page(
      db,
      ids.map((id, i) => task(id, i + 1)),
      300,
    );
    const idb = recordIdb(db);
    db.close();
    await db.open();
    await page(
      db,
      ids.map((id, i) => task(id, 301 + i, { title: `Renamed ${i}` })),
      600,
    );
    expect(idb.requests.filter((r) => r.table === 'tasks' && r.kind === 'read')).toEqual([]);
    expect(await db.tasks.get(ids[299]!)).toMatchObject({ title: 'Renamed 299', version: 600 });
  });

  it('[C6] a page that fails part-way leaves neither rows nor cursor behind', async () => {
    const db = device();
    const good = task(newRowId(), 1);
    // A value IndexedDB cannot store (a function) makes the transaction fail after the first rows went in.
    const bad = task(newRowId(), 2, { title: () => 'not cloneable' });
    await expect(page(db, [good, bad], 2)).rejects.toThrow();
    expect(await db.tasks.count()).toBe(0);
    expect((await readMeta(db)).cursor).toBe(0);
  });

  it('[C6] a reset clears the mirror but keeps the outbox, blobs and issues, and rebuilds unsent rows', async () => {
    const db = device();
    const pulled = newRowId();
    const mine = newRowId();
    await page(db, [task(pulled, 5)], 5);
    await mutate(db, 'tasks', 'create', mine, { title: 'Unsent', projectId });
    await db.syncIssues.add({ kind: 'mutation', code: 'X', message: 'kept', createdAt: T0 });
    await db.blobs.put({
      sha256: 'a'.repeat(64),
      bytes: new ArrayBuffer(3),
      mimeType: 'image/jpeg',
      size: 3,
      status: 'pending',
      createdAt: T0,
      lastUsedAt: T0,
      attempts: 0,
      nextAttemptAt: 0,
    });
    const other = newRowId();
    await page(db, [task(other, 2)], 2, { clear: true });
    expect((await db.tasks.toArray()).map((r) => r.id).sort()).toEqual([mine, other].sort());
    expect(await db.outbox.count()).toBe(1);
    expect(await db.syncIssues.count()).toBe(1);
    expect(await db.blobs.count()).toBe(1);
    expect((await readMeta(db)).cursor).toBe(2);
  });
});

describe('settling pushed mutations', () => {
  it('[C5] a rejected patch leaves the outbox for syncIssues with its payload and the row is restored', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 4, { status: 'pending', title: 'Kept' })], 4);
    const bad = await mutate(db, 'tasks', 'patch', id, { status: 'nonsense' as never });
    const good = await mutate(db, 'tasks', 'patch', id, { title: 'Renamed' });
    const batch = await db.outbox.orderBy('seq').toArray();
    await applyPushResults(
      db,
      batch,
      [
        { id: bad!.id, status: 'rejected', code: 'VALIDATION_FAILED', message: 'Status is invalid' },
        { id: good!.id, status: 'applied', version: 6 },
      ],
      T0,
    );
    expect(await db.outbox.count()).toBe(0);
    expect(await db.tasks.get(id)).toMatchObject({ status: 'pending', title: 'Renamed', version: 4 });
    const [issue] = await db.syncIssues.toArray();
    expect(issue).toMatchObject({
      kind: 'mutation',
      code: 'VALIDATION_FAILED',
      message: 'Status is invalid',
      mutation: { id: bad!.id, op: 'patch', rowId: id, data: { status: 'nonsense' }, baseVersion: 4 },
    });
  });

  it('[C5] a partially applied patch is kept in syncIssues with the fields it lost', async () => {
    const db = device();
    const id = newRowId();
    await page(db, [task(id, 4)], 4);
    const m = await mutate(db, 'tasks', 'patch', id, { title: 'Mine', priority: 'high' });
    await applyPushResults(
      db,
      [m!],
      [
        {
          id: m!.id,
          status: 'partially_applied',
          version: 9,
          conflicts: [{ field: 'title', kept: 'Theirs', yours: 'Mine' }],
        },
      ],
      T0,
    );
    const [issue] = await db.syncIssues.toArray();
    expect(issue).toMatchObject({
      kind: 'conflict',
      conflicts: [{ field: 'title', kept: 'Theirs', yours: 'Mine' }],
    });
    expect(await db.outbox.count()).toBe(0);
  });

  it('[C5] a rejected create removes the row the device showed', async () => {
    const db = device();
    const id = newRowId();
    const m = await mutate(db, 'tasks', 'create', id, { title: 'Under a deleted project', projectId });
    await applyPushResults(
      db,
      [m!],
      [{ id: m!.id, status: 'rejected', code: 'PARENT_DELETED', message: 'gone' }],
      T0,
    );
    expect(await db.tasks.get(id)).toBeUndefined();
    expect((await db.syncIssues.toArray())[0]?.mutation?.data).toEqual({
      title: 'Under a deleted project',
      projectId,
    });
  });
});
