import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb, readMeta, type SyncDb } from './db.ts';
import { onLocalWrite } from './hub.ts';
import { LocalWriteError, mutate, mutateAll, newRowId } from './mutate.ts';

const scope = {
  companyId: '01a20198-702f-7673-b99d-1b2e63800c23',
  userId: '01a20198-702f-7673-b99d-22972371d211',
};
const projectId = '01a20198-7030-71fe-932f-d16cf006aa3f';
const device = (): SyncDb => openSyncDb(scope, { indexedDB: new IDBFactory(), IDBKeyRange });

async function tasksOn(db: SyncDb, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newRowId());
  for (const id of ids) await mutate(db, 'tasks', 'create', id, { title: `Task ${id}`, projectId });
  return ids;
}

describe('bulk local writes', () => {
  it('[C2] a batch commits every row with consecutive mutation ids and tells the engine once', async () => {
    const db = device();
    const ids = await tasksOn(db, 20);
    let heard = 0;
    const off = onLocalWrite(db, () => heard++);
    const entries = await mutateAll(
      db,
      ids.map((rowId) => ({ table: 'tasks', op: 'patch', rowId, data: { status: 'completed' } })),
    );
    off();
    expect(heard).toBe(1);
    expect(entries.map((e) => e.id)).toEqual(Array.from({ length: 20 }, (_, i) => 21 + i));
    expect(entries.every((e) => JSON.stringify(e.data) === '{"status":"completed"}')).toBe(true);
    const rows = await db.tasks.bulkGet(ids);
    expect(rows.map((r) => r?.status)).toEqual(Array(20).fill('completed'));
  });

  it('[C2] one refused write leaves the device as it was: no row changed, no entry, no id used', async () => {
    const db = device();
    const ids = await tasksOn(db, 3);
    await expect(
      mutateAll(db, [
        { table: 'tasks', op: 'patch', rowId: ids[0]!, data: { status: 'blocked' } },
        { table: 'tasks', op: 'patch', rowId: newRowId(), data: { status: 'blocked' } },
      ]),
    ).rejects.toBeInstanceOf(LocalWriteError);
    expect((await db.tasks.get(ids[0]!))?.status).toBeUndefined();
    expect(await db.outbox.count()).toBe(3);
    expect((await readMeta(db)).nextMutationId).toBe(4);
  });

  it('[C3] patches that change nothing queue nothing and do not wake the engine', async () => {
    const db = device();
    const ids = await tasksOn(db, 2);
    let heard = 0;
    const off = onLocalWrite(db, () => heard++);
    expect(
      await mutateAll(
        db,
        ids.map((rowId) => ({ table: 'tasks', op: 'patch', rowId, data: { projectId } })),
      ),
    ).toEqual([]);
    off();
    expect(heard).toBe(0);
  });

  it('[C2] deletes and patches mix in one batch', async () => {
    const db = device();
    const [a, b] = await tasksOn(db, 2);
    await mutateAll(db, [
      { table: 'tasks', op: 'delete', rowId: a! },
      { table: 'tasks', op: 'patch', rowId: b!, data: { assigneeId: null } },
    ]);
    expect(await db.tasks.get(a!)).toBeUndefined();
    expect((await db.outbox.orderBy('seq').toArray()).map((e) => e.op)).toEqual([
      'create',
      'create',
      'delete',
      'patch',
    ]);
  });
});
