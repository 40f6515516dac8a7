import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  admin: 'admin@summit.test',
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  sub: 'sub@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

async function call(method: string, url: string, who: Who | null, body?: unknown) {
  const res = await t.request(method, url, { cookie: who ? cookie[who] : undefined, body });
  return { status: res.status, body: (await res.json()) as any };
}
const idOf = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;
const inbox = async (who: Who) => (await call('GET', '/api/notifications', who)).body as any[];

let projectId: string;
let harborTaskId: string;

/** A task assigned to the subcontractor (so it can see it) with a known due date. */
async function newTask(title = 'Pour footing') {
  return (
    await call('POST', '/api/tasks', 'manager', {
      title,
      projectId,
      dueDate: '2030-03-10',
      assigneeId: await idOf(EMAILS.sub),
    })
  ).body;
}
async function request(taskId: string, who: Who = 'crew', extra: Record<string, unknown> = {}) {
  return call('POST', '/api/schedule-changes', who, {
    taskId,
    reason: 'Concrete delivery late',
    newDate: '2030-03-17',
    ...extra,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  projectId = (await call('POST', '/api/projects', 'manager', { name: 'Schedule site', location: 'East' }))
    .body.id;
  const harborProject = (await call('POST', '/api/projects', 'harbor', { name: 'Quay', location: 'Dock' }))
    .body.id;
  harborTaskId = (
    await call('POST', '/api/tasks', 'harbor', { title: 'Harbor task', projectId: harborProject })
  ).body.id;
});
afterAll(() => t?.close());

describe('POST /api/schedule-changes', () => {
  it('records the session user as requester whatever userId the body carries, pending, dated from the task', async () => {
    const task = await newTask();
    const res = await request(task.id, 'crew', { userId: await idOf(EMAILS.manager) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      taskId: task.id,
      userId: await idOf(EMAILS.crew),
      reason: 'Concrete delivery late',
      originalDate: '2030-03-10T00:00:00.000Z',
      newDate: '2030-03-17T00:00:00.000Z',
      status: 'pending',
      decidedBy: null,
    });
  });

  it('notifies every approver but not the requester', async () => {
    const task = await newTask('Notify approvers');
    const change = (await request(task.id)).body;
    for (const who of ['admin', 'manager'] as const) {
      const note = (await inbox(who)).find((n) => n.relatedEntityId === change.id);
      expect(note).toMatchObject({
        title: 'Schedule change requested',
        relatedEntityType: 'schedule_change',
      });
      expect(note.message).toContain('Notify approvers');
    }
    expect((await inbox('crew')).some((n) => n.relatedEntityId === change.id)).toBe(false);
    const fromManager = (await request(task.id, 'manager')).body;
    expect((await inbox('manager')).some((n) => n.relatedEntityId === fromManager.id)).toBe(false);
    expect((await inbox('admin')).some((n) => n.relatedEntityId === fromManager.id)).toBe(true);
  });

  it('settles "Schedule change requested" when the task or its project is deleted: nobody is left to decide it', async () => {
    const unread = async (changeId: string) =>
      (await inbox('admin')).filter((n) => n.relatedEntityId === changeId && !n.isRead).length;
    const task = await newTask('Deleted with its request');
    const change = (await request(task.id)).body;
    expect(await unread(change.id)).toBe(1);
    expect((await call('DELETE', `/api/tasks/${task.id}`, 'manager')).status).toBe(200);
    expect(await unread(change.id)).toBe(0);

    const site = (await call('POST', '/api/projects', 'manager', { name: 'Doomed wing', location: 'North' }))
      .body.id;
    const onSite = (await call('POST', '/api/tasks', 'manager', { title: 'Frame wing', projectId: site }))
      .body;
    const other = (await request(onSite.id)).body;
    const kept = (await request((await newTask('Kept request')).id)).body;
    expect(await unread(other.id)).toBe(1);
    expect((await call('DELETE', `/api/projects/${site}`, 'admin')).status).toBe(200);
    expect(await unread(other.id)).toBe(0);
    // A request on another project still waits for its decision.
    expect(await unread(kept.id)).toBe(1);
  });

  it("answers 404 for another company's task or a task the requester cannot see", async () => {
    expect((await request(harborTaskId)).status).toBe(404);
    const hidden = (await call('POST', '/api/tasks', 'manager', { title: 'Hidden', projectId })).body;
    expect((await request(hidden.id, 'sub')).status).toBe(404);
  });

  it('says the reason is required and refuses a bad date (400)', async () => {
    const task = await newTask();
    const noReason = await call('POST', '/api/schedule-changes', 'crew', {
      taskId: task.id,
      newDate: '2030-03-17',
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('Reason is required');
    expect((await request(task.id, 'crew', { newDate: 'next tuesday' })).status).toBe(400);
    expect((await request(task.id, 'crew', { status: 'approved' })).status).toBe(400);
  });
});

describe('GET /api/schedule-changes', () => {
  it("lists the company's requests newest first and none to another company", async () => {
    const task = await newTask();
    const first = (await request(task.id)).body;
    t.clock.offsetMs = 60_000;
    const second = (await request(task.id)).body;
    t.clock.offsetMs = 0;
    const list = (await call('GET', '/api/schedule-changes', 'crew')).body as any[];
    const ids = list.map((x) => x.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const times = list.map((x) => x.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list[0]).not.toHaveProperty('fieldMeta');
    expect((await call('GET', '/api/schedule-changes', 'harbor')).body.map((x: any) => x.id)).not.toContain(
      first.id,
    );
  });

  it('shows a subcontractor only the requests on tasks it can see', async () => {
    const visible = (await request((await newTask()).id)).body;
    const hiddenTask = (await call('POST', '/api/tasks', 'manager', { title: 'Not for subs', projectId }))
      .body;
    const hidden = (await request(hiddenTask.id)).body;
    const ids = (await call('GET', '/api/schedule-changes', 'sub')).body.map((x: any) => x.id);
    expect(ids).toContain(visible.id);
    expect(ids).not.toContain(hidden.id);
  });
});

describe('PATCH /api/schedule-changes/{id}', () => {
  it("approving moves the task's due date and tells the requester", async () => {
    const task = await newTask('Approve me');
    const change = (await request(task.id)).body;
    const res = await call('PATCH', `/api/schedule-changes/${change.id}`, 'manager', { status: 'approved' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', decidedBy: await idOf(EMAILS.manager) });
    expect(res.body.decidedAt).toEqual(expect.any(String));
    const moved = (await call('GET', '/api/tasks', 'manager')).body.find((x: any) => x.id === task.id);
    expect(moved.dueDate).toBe('2030-03-17T00:00:00.000Z');
    expect(moved.version).toBeGreaterThan(task.version);
    const note = (await inbox('crew')).find((n) => n.relatedEntityId === change.id);
    expect(note).toMatchObject({ title: 'Schedule change approved', type: 'success' });
    // The day as people write it, not the stored '2030-03-17'.
    expect(note.message).toBe('Your request to move "Approve me" to Mar 17, 2030 was approved');
  });

  it("rejecting leaves the task's due date and tells the requester with an error notice", async () => {
    const task = await newTask('Reject me');
    const change = (await request(task.id)).body;
    const res = await call('PATCH', `/api/schedule-changes/${change.id}`, 'admin', { status: 'rejected' });
    expect(res.body.status).toBe('rejected');
    const same = (await call('GET', '/api/tasks', 'manager')).body.find((x: any) => x.id === task.id);
    expect(same.dueDate).toBe('2030-03-10T00:00:00.000Z');
    const note = (await inbox('crew')).find((n) => n.relatedEntityId === change.id);
    expect(note).toMatchObject({ title: 'Schedule change rejected', type: 'error' });
  });

  it('refuses crew a decision (403) and leaves the request pending', async () => {
    const change = (await request((await newTask()).id)).body;
    const res = await call('PATCH', `/api/schedule-changes/${change.id}`, 'crew', { status: 'approved' });
    expect(res.status).toBe(403);
    const stored = (await call('GET', '/api/schedule-changes', 'crew')).body.find(
      (x: any) => x.id === change.id,
    );
    expect(stored.status).toBe('pending');
  });

  it('refuses to decide a request twice (409)', async () => {
    const change = (await request((await newTask()).id)).body;
    expect(
      (await call('PATCH', `/api/schedule-changes/${change.id}`, 'manager', { status: 'approved' })).status,
    ).toBe(200);
    const again = await call('PATCH', `/api/schedule-changes/${change.id}`, 'admin', { status: 'rejected' });
    expect(again.status).toBe(409);
  });

  it('lets the requester edit a pending request, but no one else who is not an approver', async () => {
    const change = (await request((await newTask()).id)).body;
    const edit = await call('PATCH', `/api/schedule-changes/${change.id}`, 'crew', {
      reason: 'Crane booked elsewhere',
      newDate: '2030-03-20',
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({
      reason: 'Crane booked elsewhere',
      newDate: '2030-03-20T00:00:00.000Z',
    });
    expect(edit.body.status).toBe('pending');
    const other = await call('PATCH', `/api/schedule-changes/${change.id}`, 'sub', { reason: 'Mine now' });
    expect(other.status).toBe(403);
    const approver = await call('PATCH', `/api/schedule-changes/${change.id}`, 'manager', {
      reason: 'Checked',
    });
    expect(approver.status).toBe(200);
  });

  it('refuses to edit a decided request (409)', async () => {
    const change = (await request((await newTask()).id)).body;
    await call('PATCH', `/api/schedule-changes/${change.id}`, 'manager', { status: 'rejected' });
    const res = await call('PATCH', `/api/schedule-changes/${change.id}`, 'crew', {
      reason: 'Please reconsider',
    });
    expect(res.status).toBe(409);
  });

  it("answers 404 for another company's request", async () => {
    const change = (await request((await newTask()).id)).body;
    expect(
      (await call('PATCH', `/api/schedule-changes/${change.id}`, 'harbor', { status: 'approved' })).status,
    ).toBe(404);
  });

  it('refuses an empty body, a pending status and unknown fields (400)', async () => {
    const change = (await request((await newTask()).id)).body;
    const url = `/api/schedule-changes/${change.id}`;
    expect((await call('PATCH', url, 'manager', {})).status).toBe(400);
    expect((await call('PATCH', url, 'manager', { status: 'pending' })).status).toBe(400);
    expect((await call('PATCH', url, 'manager', { taskId: change.taskId })).status).toBe(400);
  });
});
