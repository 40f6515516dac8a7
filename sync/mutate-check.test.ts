import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it, vi } from 'vitest';

// Its own file and a fresh module: the push schema that checks every write is loaded apart from the first
// screen (ADR 025), and this is the page's first write, made inside the caller's own transaction.
it("[C2] the page's first write, inside a caller's transaction (a project deleted with its tasks), waits for the mutation check and commits whole", async () => {
  vi.resetModules();
  const { mutate, newRowId } = await import('./mutate.ts');
  const { openSyncDb } = await import('./db.ts');
  const db = openSyncDb(
    { companyId: '01a20198-702f-7673-b99d-1b2e63800c23', userId: '01a20198-702f-7673-b99d-22972371d211' },
    { indexedDB: new IDBFactory(), IDBKeyRange },
  );
  const project = newRowId();
  const task = newRowId();
  await db.transaction('rw', [db.projects, db.tasks, db.outbox, db.shadows, db.meta], async () => {
    await mutate(db, 'projects', 'create', project, { name: 'North wing' });
    await mutate(db, 'tasks', 'create', task, { title: 'Pour footings', projectId: project });
  });
  expect((await db.outbox.toArray()).map((e) => [e.id, e.table, e.op])).toEqual([
    [1, 'projects', 'create'],
    [2, 'tasks', 'create'],
  ]);
  expect(await db.tasks.get(task)).toMatchObject({ title: 'Pour footings', projectId: project });
  // And the check is the push's own: a write the server would refuse is refused here too.
  await expect(mutate(db, 'tasks', 'create', 'not-a-uuid', { title: 'Bad id' })).rejects.toMatchObject({
    code: 'INVALID',
  });
  db.close();
});
