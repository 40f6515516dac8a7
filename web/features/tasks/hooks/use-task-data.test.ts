// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dexie } from 'dexie';
import { renderHook, waitFor, cleanup } from '@testing-library/react';
import type { SyncDb, TaskRow } from '#sync/db.ts';
import { mutate, mutateAll } from '#sync/mutate.ts';
import { pulledTask, testDb } from '../components/test-support.tsx';
import { useTaskData } from './use-task-data.ts';

// Issue 10 "Scale and speed": a write to a few tasks patches what the screen holds instead of reading,
// sorting and grouping every task again, so the rows and groups the write did not touch stay the same
// objects (their rows are not rendered again and their progress is not counted again).

let db: SyncDb;
afterEach(() => {
  cleanup();
  db?.close();
});

const PROJECTS = ['0195a0a0-0000-7000-8000-0000000000p1', '0195a0a0-0000-7000-8000-0000000000p2'];
const id = (n: number) => `0195a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const day = (n: number) => `2025-03-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00.000Z`;

async function seed(count: number) {
  db = testDb();
  const rows: TaskRow[] = [];
  for (let n = 0; n < count; n++)
    rows.push(pulledTask(id(n), PROJECTS[n % 2]!, `Task ${n}`, { dueDate: day(n) }));
  await db.tasks.bulkPut(rows);
  return db;
}

/** What the screen lists: every task in order, as the table holds them. */
async function tableInListOrder(): Promise<string[]> {
  const rows = await db.tasks.toArray();
  return rows
    .sort((a, b) =>
      a.dueDate === b.dueDate ? (a.title! < b.title! ? -1 : 1) : a.dueDate! < b.dueDate! ? -1 : 1,
    )
    .map((t) => `${t.id}:${t.status}:${t.projectId}`);
}

const listed = (tasks: readonly TaskRow[] | undefined) =>
  (tasks ?? []).map((t) => `${t.id}:${t.status}:${t.projectId}`);

describe('the tasks the screen holds', () => {
  it('a status change re-reads that task only: every other row and the other project group stay as they were', async () => {
    await seed(120);
    const { result } = renderHook(() => useTaskData(db));
    await waitFor(() => expect(result.current.tasks).toHaveLength(120));
    const before = result.current;
    const target = id(7); // project p2
    await mutate(db, 'tasks', 'patch', target, { status: 'completed' });
    await waitFor(() => expect(result.current.tasks?.find((t) => t.id === target)?.status).toBe('completed'));
    const after = result.current;
    const old = new Map(before.tasks!.map((t) => [t.id, t]));
    const reused = after.tasks!.filter((t) => old.get(t.id) === t);
    expect(reused).toHaveLength(119);
    expect(after.index!.groups.get(`project:${PROJECTS[0]}`)).toBe(
      before.index!.groups.get(`project:${PROJECTS[0]}`),
    );
    expect(after.index!.groups.get(`project:${PROJECTS[1]}`)).not.toBe(
      before.index!.groups.get(`project:${PROJECTS[1]}`),
    );
    expect(listed(after.tasks)).toEqual(await tableInListOrder());
  });

  it('a bulk change moves tasks between groups and keeps list order; deletes leave the list', async () => {
    await seed(60);
    const { result } = renderHook(() => useTaskData(db));
    await waitFor(() => expect(result.current.tasks).toHaveLength(60));
    await mutateAll(db, [
      { table: 'tasks', op: 'patch', rowId: id(1), data: { projectId: PROJECTS[0] } },
      { table: 'tasks', op: 'patch', rowId: id(3), data: { projectId: PROJECTS[0], dueDate: day(27) } },
      { table: 'tasks', op: 'delete', rowId: id(4) },
    ]);
    await waitFor(() => expect(result.current.tasks).toHaveLength(59));
    expect(listed(result.current.tasks)).toEqual(await tableInListOrder());
    const p1 = result.current.index!.groups.get(`project:${PROJECTS[0]}`)!;
    expect(p1.map((t) => t.id)).toContain(id(3));
    expect(result.current.index!.groups.get(`project:${PROJECTS[1]}`)!.map((t) => t.id)).not.toContain(id(3));
  });

  it('a write of 50 or more rows in one go (a pull page) is read back in full and matches the table', async () => {
    await seed(80);
    const { result } = renderHook(() => useTaskData(db));
    await waitFor(() => expect(result.current.tasks).toHaveLength(80));
    const before = result.current.tasks!;
    const page = before.slice(0, 60).map((t, n) => ({ ...t, status: n % 2 ? 'blocked' : 'completed' }));
    await db.tasks.bulkPut([...page, pulledTask(id(500), PROJECTS[1]!, 'Pulled later', { dueDate: day(3) })]);
    await waitFor(() => expect(result.current.tasks).toHaveLength(81));
    expect(listed(result.current.tasks)).toEqual(await tableInListOrder());
    // The 20 rows the page did not change are still the same objects.
    const old = new Map(before.map((t) => [t.id, t]));
    expect(result.current.tasks!.filter((t) => old.get(t.id) === t)).toHaveLength(20);
  });

  it('a change heard after sign-out closed the database reports no fault', async () => {
    await seed(10);
    const { result } = renderHook(() => useTaskData(db));
    await waitFor(() => expect(result.current.tasks).toHaveLength(10));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Sign-out closes the database while the store is kept; then a change (another tab's write, a
      // range delete) asks it to read the table again.
      db.close();
      Dexie.on.storagemutated.fire({
        [`idb://${db.name}/tasks/`]: { d: 1, from: '', to: '\uffff' },
      } as never);
      await new Promise((r) => setTimeout(r, 50));
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
