import { describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb, readMeta, syncDbName, type SyncDb } from './db.ts';
import { mutate } from './mutate.ts';

// A phone keeps its device database across app updates: whatever schema an earlier release left there,
// the current app opens it with every row kept and every table and index the screens query present.
// The declarations below are copied from the releases that shipped them (git history of sync/db.ts), so
// these tests do not lean on how the current code declares its schema.

const SCOPE = { companyId: 'company-1', userId: 'user-1' };
const NAME = syncDbName(SCOPE.companyId, SCOPE.userId);

type Stores = Record<string, string>;
const V1: Stores = {
  projects: 'id, status, dueDate, updatedAt, version',
  tasks: 'id, projectId, status, dueDate, assigneeId, priority, updatedAt, version, [projectId+status]',
  project_logs: 'id, projectId, type, status, createdAt, updatedAt, version',
  photos: 'id, projectId, sha256, createdAt, updatedAt, version',
  schedule_changes: 'id, taskId, status, createdAt, updatedAt, version',
  users: 'id, email',
  subcontractor_assignments: 'id, projectId, subcontractorId',
  outbox: '++seq, &id, rowId, createdAt',
  shadows: '[table+id]',
  blobs: 'sha256, status, [status+lastUsedAt], [status+nextAttemptAt], size',
  syncIssues: '++id, kind, createdAt',
  meta: 'key',
};
const V3: Stores = { thumbnails: 'photoId' };
const V4: Stores = {
  tasks:
    'id, projectId, status, dueDate, assigneeId, priority, updatedAt, version, [projectId+status], category',
};
const V5: Stores = {
  communications:
    'id, projectId, type, createdAt, version, [type+createdAt], [projectId+createdAt], [projectId+type+createdAt]',
  change_orders: 'id, projectId, status, createdAt, version, [projectId+createdAt]',
};
// Indexes nothing queried, dropped (issue 14).
const V6: Stores = {
  projects: 'id',
  tasks: 'id, projectId, status, dueDate, assigneeId, category',
  project_logs: 'id, createdAt',
  photos: 'id, projectId, sha256, createdAt',
  schedule_changes: 'id, createdAt',
  users: 'id',
  subcontractor_assignments: 'id',
  outbox: '++seq, &id, rowId',
  communications: 'id, createdAt, [type+createdAt], [projectId+createdAt], [projectId+type+createdAt]',
  change_orders: 'id, createdAt, [projectId+createdAt]',
};

/** Each release's declarations, in the order it called `version(n).stores()`. */
const RELEASES: { name: string; versions: [number, Stores][] }[] = [
  { name: 'v1 (first sync client)', versions: [[1, V1]] },
  {
    name: 'v3 (photo thumbnails)',
    versions: [
      [1, V1],
      [3, V3],
    ],
  },
  // The Subcontractors board shipped from a branch without thumbnails: version 4 with no thumbnails store.
  {
    name: 'v4 without thumbnails (Subcontractors board branch)',
    versions: [
      [1, V1],
      [4, V4],
    ],
  },
  {
    name: 'v4 (both branches merged)',
    versions: [
      [1, V1],
      [3, V3],
      [4, V4],
    ],
  },
  {
    name: 'v5 (communications and change orders)',
    versions: [
      [1, V1],
      [3, V3],
      [4, V4],
      [5, V5],
    ],
  },
  {
    name: 'v6 (unqueried indexes dropped)',
    versions: [
      [1, V1],
      [3, V3],
      [4, V4],
      [5, V5],
      [6, V6],
    ],
  },
];

function releaseDb(indexedDB: IDBFactory, versions: [number, Stores][]): Dexie {
  const db = new Dexie(NAME, { indexedDB, IDBKeyRange });
  for (const [n, stores] of versions) db.version(n).stores(stores);
  return db;
}

/** Stores and indexes exactly as IndexedDB holds them (names, key paths, flags), and the native version. */
async function structure(indexedDB: IDBFactory) {
  const idb = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(NAME);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  try {
    const names = [...idb.objectStoreNames].sort();
    const tx = idb.transaction(names, 'readonly');
    const stores = names.map((name) => {
      const store = tx.objectStore(name);
      const indexes = [...store.indexNames].sort().map((i) => {
        const index = store.index(i);
        return { name: i, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
      });
      return { name, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes };
    });
    return { version: idb.version, stores };
  } finally {
    idb.close();
  }
}

const TASK_ID = '0193a0c2-5f1e-7000-8000-000000000001';
const TASK = {
  id: TASK_ID,
  version: 7,
  projectId: 'project-1',
  title: 'Pour footing',
  status: 'pending',
  dueDate: '2026-03-02',
  category: 'subcontractor',
};

/** What a device had written under an older release: a pulled task, an unsent change, its shadow, a photo. */
async function fillRelease(db: Dexie) {
  await db.table('projects').put({ id: 'project-1', version: 3, name: 'Harbor Tower', status: 'active' });
  await db.table('tasks').put(TASK);
  await db.table('meta').put({
    key: 'state',
    clientId: 'client-old',
    cursor: 41,
    nextMutationId: 2,
    clockOffsetMs: 0,
    lastSyncedAt: 1_700_000_000_000,
    scope: SCOPE,
  });
  await db.table('outbox').add({
    id: 1,
    op: 'patch',
    table: 'tasks',
    rowId: TASK_ID,
    data: { title: 'Pour footing' },
    baseVersion: 7,
    clientTime: 1_700_000_000_500,
    createdAt: 1_700_000_000_500,
  });
  await db.table('shadows').put({ table: 'tasks', id: TASK_ID, version: 7, row: { ...TASK, title: 'Old' } });
  await db.table('blobs').put({
    sha256: 'ab'.repeat(32),
    bytes: new Uint8Array([1, 2, 3]).buffer,
    mimeType: 'image/jpeg',
    size: 3,
    status: 'pending',
    createdAt: 1,
    lastUsedAt: 1,
    attempts: 0,
    nextAttemptAt: 0,
  });
}

async function openCurrent(indexedDB: IDBFactory): Promise<SyncDb> {
  const db = openSyncDb(SCOPE, { indexedDB, IDBKeyRange });
  await db.open();
  return db;
}

describe('device database across app updates', () => {
  it('a new device gets the same stores and indexes as a device that went through every release', async () => {
    const upgraded = new IDBFactory();
    const last = RELEASES.at(-1)!;
    const shipped = releaseDb(upgraded, last.versions);
    await shipped.open();
    shipped.close();

    const fresh = new IDBFactory();
    (await openCurrent(fresh)).close();

    expect(await structure(fresh)).toEqual(await structure(upgraded));
    expect((await structure(fresh)).version).toBe(60);
  });

  for (const release of RELEASES) {
    it(`a database left by ${release.name} opens with every row kept and every table usable`, async () => {
      const indexedDB = new IDBFactory();
      const old = releaseDb(indexedDB, release.versions);
      await fillRelease(old);
      old.close();

      const db = await openCurrent(indexedDB);
      try {
        expect(await db.projects.get('project-1')).toMatchObject({ name: 'Harbor Tower', version: 3 });
        expect(await db.tasks.get(TASK_ID)).toEqual(TASK);
        expect(await db.shadows.get(['tasks', TASK_ID])).toMatchObject({ version: 7, row: { title: 'Old' } });
        const blob = await db.blobs.get('ab'.repeat(32));
        expect(new Uint8Array(blob!.bytes)).toEqual(new Uint8Array([1, 2, 3]));
        // The same device identity and pull position: nothing is downloaded again, nothing sent twice.
        const meta = await readMeta(db);
        expect(meta).toMatchObject({ clientId: 'client-old', cursor: 41, nextMutationId: 2 });
        expect((await db.outbox.toArray()).map((e) => e.id)).toEqual([1]);

        // Indexes added after that release answer for rows written before it.
        expect((await db.tasks.where('category').equals('subcontractor').toArray()).map((t) => t.id)).toEqual(
          [TASK_ID],
        );
        expect(await db.tasks.orderBy('dueDate').primaryKeys()).toEqual([TASK_ID]);

        // Tables added after that release take rows and answer their screens' queries.
        await db.thumbnails.put({
          photoId: 'photo-1',
          bytes: new ArrayBuffer(2),
          mimeType: 'image/webp',
          createdAt: 1,
        });
        await db.communications.bulkPut([
          {
            id: 'c1',
            version: 1,
            projectId: 'project-1',
            type: 'rfi',
            createdAt: '2026-01-02T00:00:00.000Z',
          },
          {
            id: 'c2',
            version: 1,
            projectId: 'project-1',
            type: 'rfi',
            createdAt: '2026-01-03T00:00:00.000Z',
          },
        ]);
        await db.change_orders.put({
          id: 'co1',
          version: 1,
          projectId: 'project-1',
          createdAt: '2026-01-01',
        });
        const feed = await db.communications
          .where('[projectId+type+createdAt]')
          .between(['project-1', 'rfi', Dexie.minKey], ['project-1', 'rfi', Dexie.maxKey])
          .reverse()
          .primaryKeys();
        expect(feed).toEqual(['c2', 'c1']);
        expect(await db.change_orders.where('[projectId+createdAt]').above(['project-1', '']).count()).toBe(
          1,
        );
        expect(await db.thumbnails.count()).toBe(1);

        // A new local change queues after the one made under the old release and keeps the id sequence.
        await mutate(db, 'tasks', 'patch', TASK_ID, { title: 'Pour footing, east' });
        const queued = await db.outbox.orderBy('seq').toArray();
        expect(queued.map((e) => [e.id, e.data])).toEqual([
          [1, { title: 'Pour footing' }],
          [2, { title: 'Pour footing, east' }],
        ]);
        expect(await db.tasks.get(TASK_ID)).toMatchObject({ title: 'Pour footing, east' });
      } finally {
        db.close();
      }

      const after = await structure(indexedDB);
      expect(after.version).toBe(60);
      // The indexes nothing queries are gone from an upgraded device too: a pulled task writes five.
      const tasks = after.stores.find((s) => s.name === 'tasks')!;
      expect(tasks.indexes.map((i) => i.name)).toEqual([
        'assigneeId',
        'category',
        'dueDate',
        'projectId',
        'status',
      ]);
      const fresh = new IDBFactory();
      (await openCurrent(fresh)).close();
      expect(after).toEqual(await structure(fresh));
    });
  }

  it('opening an up-to-date database changes nothing in it', async () => {
    const indexedDB = new IDBFactory();
    const db = await openCurrent(indexedDB);
    await fillRelease(db);
    db.close();
    const before = await structure(indexedDB);

    for (let i = 0; i < 2; i++) {
      const again = await openCurrent(indexedDB);
      expect(await again.tasks.get(TASK_ID)).toEqual(TASK);
      again.close();
    }
    // No upgrade ran: a version bump would make every other open tab of the app close its connection.
    expect(await structure(indexedDB)).toEqual(before);
    expect(before.version).toBe(60);
  });
});
