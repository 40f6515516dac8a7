import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { cell, device, firstId } from '../sync/testing.ts';

// Decisions on schedule changes pushed by devices that decided offline (issue 10, DECISIONS.md).
let t: TestApp;
let admin: string;
let crew: string;
let manager: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, crew, manager] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('crew@summit.test'),
    t.login('manager@summit.test'),
  ]);
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('summit.test'),
  );
});
afterAll(() => t.close());

async function pendingRequest() {
  const task = await t.request('POST', '/api/tasks', {
    cookie: manager,
    body: { title: `Pour slab ${newId()}`, projectId: project, dueDate: '2030-03-10' },
  });
  const taskRow = (await task.json()) as { id: string; version: number };
  const change = await t.request('POST', '/api/schedule-changes', {
    cookie: crew,
    body: { taskId: taskRow.id, reason: 'Rain all week', newDate: '2030-03-17' },
  });
  expect(change.status).toBe(201);
  return { task: taskRow, change: (await change.json()) as { id: string; version: number } };
}

describe('schedule-change decisions pushed from devices', () => {
  it("[W14] an approval pushed by a device moves the task's due date and bumps its version", async () => {
    const { task, change } = await pendingRequest();
    const phone = device(t, manager);
    const { body } = await phone.push([
      phone.mutation(
        'patch',
        'schedule_changes',
        change.id,
        { status: 'approved' },
        { baseVersion: change.version },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'tasks', task.id, 'due_date')).toBe('2030-03-17T00:00:00.000Z');
    const version = (await cell(t, 'tasks', task.id, 'version')) as number;
    expect(version).toBeGreaterThan(task.version);
    // Another device pulling from the task's old version receives the moved date.
    const other = device(t, crew);
    await other.pull(0, 1); // a device the server knows (an unknown one downloads again, SPEC R5)
    const pulled = await other.pull(task.version);
    const { changes } = pulled.body as unknown as {
      changes: { table: string; id: string; data?: unknown }[];
    };
    const moved = changes.find((c) => c.table === 'tasks' && c.id === task.id);
    expect(moved?.data).toMatchObject({ dueDate: '2030-03-17T00:00:00.000Z' });
  });

  it('[W13] a second decision is rejected as ALREADY_DECIDED, naming the decision and who took it', async () => {
    const { task, change } = await pendingRequest();
    const first = device(t, admin);
    await first.push([first.mutation('patch', 'schedule_changes', change.id, { status: 'rejected' })]);
    const late = device(t, manager);
    // Decided offline earlier than the first device, so last-writer-wins would have let it win.
    const { body } = await late.push([
      late.mutation(
        'patch',
        'schedule_changes',
        change.id,
        { status: 'approved' },
        { baseVersion: change.version, clientTime: t.deps.now().getTime() - 3_600_000 },
      ),
    ]);
    expect(body.results[0]).toMatchObject({
      status: 'rejected',
      code: 'ALREADY_DECIDED',
      message: 'This schedule change was already rejected by Sarah Mitchell',
    });
    expect(await cell(t, 'schedule_changes', change.id, 'status')).toBe('rejected');
    expect(await cell(t, 'tasks', task.id, 'due_date')).toBe('2030-03-10T00:00:00.000Z');
  });

  it('[W13] an edit of a decided request says who approved it (REST too)', async () => {
    const { change } = await pendingRequest();
    await t.request('PATCH', `/api/schedule-changes/${change.id}`, {
      cookie: manager,
      body: { status: 'approved' },
    });
    const res = await t.request('PATCH', `/api/schedule-changes/${change.id}`, {
      cookie: crew,
      body: { reason: 'Still raining' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'ALREADY_DECIDED',
      message: 'This schedule change was already approved by David Okafor',
    });
  });

  it('[W19] a decision pushed from a device that saw an earlier version of the request is refused, naming what it asks now', async () => {
    const { task, change } = await pendingRequest();
    // The requester moves the date (from another device) while the manager decides offline on what it saw.
    const requester = device(t, crew);
    const edit = await requester.push([
      requester.mutation('patch', 'schedule_changes', change.id, {
        newDate: '2030-04-30',
        reason: 'Crew moved',
      }),
    ]);
    expect(edit.body.results[0]).toMatchObject({ status: 'applied' });
    const edited = edit.body.results[0]!.version!;
    const manager1 = device(t, manager);
    const { body } = await manager1.push([
      manager1.mutation(
        'patch',
        'schedule_changes',
        change.id,
        { status: 'approved' },
        { baseVersion: change.version },
      ),
    ]);
    expect(body.results[0]).toMatchObject({
      status: 'rejected',
      code: 'REQUEST_CHANGED',
      message:
        'This schedule change request was edited after you saw it. It now asks for Apr 30, 2030. Look at it again before deciding.',
    });
    expect(await cell(t, 'schedule_changes', change.id, 'status')).toBe('pending');
    expect(await cell(t, 'tasks', task.id, 'due_date')).toBe('2030-03-10T00:00:00.000Z');
    // Decided again on what it asks now: it applies, and the task moves to the date the manager saw.
    const again = await manager1.push([
      manager1.mutation(
        'patch',
        'schedule_changes',
        change.id,
        { status: 'approved' },
        { baseVersion: edited },
      ),
    ]);
    expect(again.body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'tasks', task.id, 'due_date')).toBe('2030-04-30T00:00:00.000Z');
  });
});
