import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBDatabase, IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { openSyncDb, readMeta, syncDbName, type SyncDb } from './db.ts';
import { onLocalWrite } from './hub.ts';
import { addPhoto, addPhotos, LocalWriteError, mutate, newRowId, sha256Hex } from './mutate.ts';
import { applyPullPage } from './pull.ts';
import { whileStorageFull } from './test-support.ts';

const scope = {
  companyId: '01a20198-702f-7673-b99d-1b2e63800c23',
  userId: '01a20198-702f-7673-b99d-22972371d211',
};
const T0 = Date.UTC(2026, 10, 22, 8);

function device(now = () => T0): SyncDb {
  return openSyncDb(scope, { indexedDB: new IDBFactory(), IDBKeyRange, now });
}

const projectId = '01a20198-7030-71fe-932f-d16cf006aa3f';

describe('local writes', () => {
  it('[C1] each user and company gets a database of its own, with a client id that survives reopening', async () => {
    const factory = new IDBFactory();
    const a = openSyncDb(scope, { indexedDB: factory, IDBKeyRange });
    const other = openSyncDb({ ...scope, userId: newRowId() }, { indexedDB: factory, IDBKeyRange });
    expect(a.name).toBe(syncDbName(scope.companyId, scope.userId));
    expect(other.name).not.toBe(a.name);
    const first = await readMeta(a);
    expect(first.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.scope).toEqual(scope);
    expect((await readMeta(other)).clientId).not.toBe(first.clientId);
    a.close();
    const reopened = openSyncDb(scope, { indexedDB: factory, IDBKeyRange });
    expect((await readMeta(reopened)).clientId).toBe(first.clientId);
  });

  it('[C2] the database is opened with strict durability so a saved change survives power loss', () => {
    expect(device()._options.chromeTransactionDurability).toBe('strict');
  });

  it('[C2] a write and its outbox entry land together, with gap-free mutation ids across tables', async () => {
    const db = device();
    const task = newRowId();
    const log = newRowId();
    await mutate(db, 'tasks', 'create', task, { title: 'Pour footings', projectId });
    await mutate(db, 'project_logs', 'create', log, { title: 'Rain delay', projectId });
    await mutate(db, 'tasks', 'patch', task, { status: 'in-progress' });
    await mutate(db, 'project_logs', 'delete', log);
    const outbox = await db.outbox.orderBy('seq').toArray();
    expect(outbox.map((e) => [e.id, e.op, e.table])).toEqual([
      [1, 'create', 'tasks'],
      [2, 'create', 'project_logs'],
      [3, 'patch', 'tasks'],
      [4, 'delete', 'project_logs'],
    ]);
    expect(await db.tasks.get(task)).toMatchObject({
      title: 'Pour footings',
      status: 'in-progress',
      version: 0,
    });
    expect(await db.project_logs.get(log)).toBeUndefined();
    expect((await readMeta(db)).nextMutationId).toBe(5);
  });

  it('[C2] a tap on Save is ONE transaction over the row, its outbox entry and the mutation counter, in two round trips', async () => {
    // Record every IndexedDB transaction and request of one write. A "round trip" starts when a request goes
    // out after an earlier one has answered: requests sent together wait for the backend once. Installed
    // before the database opens (Dexie binds IDBDatabase#transaction when it opens).
    let recording = false;
    const txs: string[][] = [];
    const requests: string[] = [];
    let answered = 0;
    let answeredAtLastIssue = -1;
    let roundTrips = 0;
    const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const dbProto = IDBDatabase.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals = new Map<string, (...args: unknown[]) => unknown>();
    const openTx = dbProto.transaction!;
    dbProto.transaction = function (this: unknown, stores: unknown, ...rest: unknown[]) {
      if (recording) txs.push([stores].flat() as string[]);
      return openTx.call(this, stores, ...rest);
    };
    for (const name of ['get', 'put', 'add', 'delete', 'getAll', 'openCursor', 'count']) {
      const original = proto[name]!;
      originals.set(name, original);
      proto[name] = function (this: { name: string }, ...args: unknown[]) {
        const req = original.apply(this, args) as { addEventListener(t: string, f: () => void): void };
        if (!recording) return req;
        if (answered !== answeredAtLastIssue) roundTrips++;
        answeredAtLastIssue = answered;
        requests.push(`${name} ${this.name}`);
        req.addEventListener('success', () => answered++);
        return req;
      };
    }
    const db = device();
    const task = newRowId();
    try {
      await mutate(db, 'tasks', 'create', task, { title: 'Pour footings', projectId });
      recording = true;
      await mutate(db, 'tasks', 'patch', task, { title: 'Pour footings, east' });
    } finally {
      recording = false;
      dbProto.transaction = openTx;
      for (const [name, original] of originals) proto[name] = original;
    }
    expect(txs).toHaveLength(1);
    expect(txs[0]).toEqual(expect.arrayContaining(['tasks', 'outbox', 'meta']));
    expect(requests).toEqual(expect.arrayContaining(['put tasks', 'add outbox', 'put meta']));
    // Reads (sync state, row, its shadow) together, then the writes together (sequential requests before).
    expect(roundTrips).toBe(2);
    expect(await db.tasks.get(task)).toMatchObject({ title: 'Pour footings, east' });
    expect((await db.outbox.orderBy('seq').last())?.data).toEqual({ title: 'Pour footings, east' });
  });

  it('[C2] a refused write leaves no row, no outbox entry and no used mutation id', async () => {
    const db = device();
    const task = newRowId();
    await mutate(db, 'tasks', 'create', task, { title: 'First', projectId });
    await expect(mutate(db, 'tasks', 'create', task, { title: 'Again' })).rejects.toBeInstanceOf(
      LocalWriteError,
    );
    await expect(mutate(db, 'tasks', 'patch', newRowId(), { title: 'Nowhere' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(mutate(db, 'tasks', 'create', 'not-a-uuid', { title: 'Bad id' })).rejects.toMatchObject({
      code: 'INVALID',
    });
    expect(await db.outbox.count()).toBe(1);
    expect((await db.tasks.get(task))?.title).toBe('First');
    expect((await readMeta(db)).nextMutationId).toBe(2);
    await mutate(db, 'tasks', 'patch', task, { title: 'Second' });
    expect((await db.outbox.orderBy('seq').last())?.id).toBe(2);
  });

  it('[C2] a write on a full device fails in words a user can act on, stores nothing, and works once space returns', async () => {
    const db = device();
    const task = newRowId();
    await mutate(db, 'tasks', 'create', task, { title: 'First', projectId });
    // The browser refuses every write for lack of space (a phone whose storage is full).
    await whileStorageFull(async () => {
      for (const write of [
        mutate(db, 'tasks', 'patch', task, { status: 'completed' }),
        addPhoto(db, { projectId, bytes: new Uint8Array([1, 2, 3]), mimeType: 'image/jpeg' }),
      ]) {
        const err = await write.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(LocalWriteError);
        expect(err).toMatchObject({ code: 'STORAGE_FULL' });
        expect((err as Error).message).toMatch(/^Nothing was saved: this device is out of storage space/);
      }
    });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.blobs.count()).toBe(0);
    expect((await db.tasks.get(task))?.status).toBeUndefined();
    await mutate(db, 'tasks', 'patch', task, { status: 'completed' });
    expect((await db.tasks.get(task))?.status).toBe('completed');
    expect((await db.outbox.orderBy('seq').last())?.id).toBe(2);
  });

  it('[C3] a patch carries only the changed fields, and a patch that changes nothing queues nothing', async () => {
    const db = device();
    const task = newRowId();
    await mutate(db, 'tasks', 'create', task, { title: 'Frame walls', status: 'pending', projectId });
    const entry = await mutate(db, 'tasks', 'patch', task, { title: 'Frame walls', status: 'blocked' });
    expect(entry?.data).toEqual({ status: 'blocked' });
    expect(await mutate(db, 'tasks', 'patch', task, { status: 'blocked' })).toBeNull();
    expect(await db.outbox.count()).toBe(2);
  });

  it('[C3] baseVersion is null for a row made on the device and the pulled version for a pulled row', async () => {
    const db = device();
    const local = newRowId();
    const pulled = newRowId();
    await applyPullPage(
      db,
      [
        {
          table: 'tasks',
          id: pulled,
          version: 41,
          deleted: false,
          data: { title: 'From server', projectId },
        },
      ],
      { cursor: 41, now: T0, final: true },
    );
    await mutate(db, 'tasks', 'create', local, { title: 'Mine', projectId });
    const a = await mutate(db, 'tasks', 'patch', local, { title: 'Mine, renamed' });
    const b = await mutate(db, 'tasks', 'patch', pulled, { title: 'Edited' });
    const c = await mutate(db, 'tasks', 'delete', pulled);
    expect([a?.baseVersion, b?.baseVersion, c?.baseVersion]).toEqual([null, 41, 41]);
  });

  it('[C7] clientTime is the device clock corrected by the offset measured from the server', async () => {
    const db = device(() => T0);
    await applyPullPage(db, [], { cursor: 0, now: T0, clockOffsetMs: 7_200_000, final: true });
    const entry = await mutate(db, 'tasks', 'create', newRowId(), { title: 'Skewed', projectId });
    expect(entry?.clientTime).toBe(T0 + 7_200_000);
    expect(entry?.createdAt).toBe(T0);
  });

  it('[C8] a committed local write tells the engine through the hub; a refused one does not', async () => {
    const db = device();
    let heard = 0;
    const off = onLocalWrite(db, () => heard++);
    const task = newRowId();
    await mutate(db, 'tasks', 'create', task, { title: 'Heard', projectId });
    await mutate(db, 'tasks', 'create', task, { title: 'Refused' }).catch(() => {});
    off();
    await mutate(db, 'tasks', 'patch', task, { title: 'Not heard' });
    expect(heard).toBe(1);
  });

  it('[C9] a photo stores its bytes as pending and creates its row with the sha256, in one transaction', async () => {
    const db = device();
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const row = await addPhoto(db, {
      projectId,
      bytes,
      mimeType: 'image/jpeg',
      description: 'Rebar before pour',
    });
    const sha = await sha256Hex(bytes);
    expect(row).toMatchObject({ sha256: sha, blobStatus: 'pending', projectId, version: 0 });
    const blob = await db.blobs.get(sha);
    expect(blob).toMatchObject({ status: 'pending', size: 8, mimeType: 'image/jpeg' });
    expect(new Uint8Array(blob!.bytes)).toEqual(bytes);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      op: 'create',
      table: 'photos',
      rowId: row.id,
      data: { sha256: sha, projectId },
    });
  });

  it('[C9] photos and the log that names them are stored together, or neither is', async () => {
    const db = device();
    const photo = (n: number) => ({
      projectId,
      bytes: new Uint8Array([0xff, 0xd8, n]),
      mimeType: 'image/jpeg',
    });
    const [a, b] = [newRowId(), newRowId()];
    const images = [a, b].map((id) => `/api/photos/${id}/file`);
    const log = newRowId();
    // A patch of a log this device does not hold is refused: the photos picked for it are not kept either.
    const err = await addPhotos(db, [{ ...photo(1), id: a }], {
      table: 'project_logs',
      op: 'patch',
      rowId: log,
      data: { images: [images[0]!] },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'NOT_FOUND' });
    expect([await db.photos.count(), await db.blobs.count(), await db.outbox.count()]).toEqual([0, 0, 0]);

    const rows = await addPhotos(
      db,
      [
        { ...photo(1), id: a },
        { ...photo(2), id: b },
      ],
      {
        table: 'project_logs',
        op: 'create',
        rowId: log,
        data: { projectId, title: 'Rebar check', images },
      },
    );
    expect(rows.map((r) => r.id)).toEqual([a, b]);
    expect((await db.project_logs.get(log))?.images).toEqual(images);
    // The photos go first, so the server holds them when the log names them.
    expect((await db.outbox.orderBy('seq').toArray()).map((e) => [e.table, e.rowId])).toEqual([
      ['photos', a],
      ['photos', b],
      ['project_logs', log],
    ]);
  });

  it('[C15][C16] a photo keeps its capture time on the row and its thumbnail on the device only', async () => {
    const db = device();
    const thumb = new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 9, 9]);
    const row = await addPhoto(db, {
      projectId,
      bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 5, 6]),
      mimeType: 'image/jpeg',
      originalName: 'IMG_0007.JPG',
      capturedAt: '2026-05-04T07:12:09.000Z',
      thumbnail: thumb,
    });
    expect(row).toMatchObject({ capturedAt: '2026-05-04T07:12:09.000Z', originalName: 'IMG_0007.JPG' });
    const [entry] = await db.outbox.toArray();
    expect(entry!.data).toMatchObject({ capturedAt: '2026-05-04T07:12:09.000Z' });
    expect(JSON.stringify(entry!.data)).not.toContain('thumbnail');
    const kept = await db.thumbnails.get(row.id);
    expect(new Uint8Array(kept!.bytes)).toEqual(thumb);
  });

  it('[C9] an empty photo is refused before anything is stored', async () => {
    const db = device();
    await expect(
      addPhoto(db, { projectId, bytes: new Uint8Array(), mimeType: 'image/jpeg' }),
    ).rejects.toMatchObject({
      code: 'INVALID',
    });
    expect(await db.blobs.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});
