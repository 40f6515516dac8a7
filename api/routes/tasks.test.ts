import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../db/index.ts';
import { publicRow } from '../mutators/core.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { device } from '../sync/testing.ts';

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
/** Users' ids by email, read once in beforeAll (so the lookups below stay synchronous). */
const userIds = new Map<string, string>();
const idOf = (email: string) => {
  const id = userIds.get(email);
  if (!id) throw new Error(`no user ${email}`);
  return id;
};

/** Puts sub@summit.test on a project (an active assignment). */
const assignSub = (project: string) =>
  t.orm((db) =>
    db
      .insert(schema.subcontractorAssignments)
      .values({
        id: crypto.randomUUID(),
        subcontractorId: idOf(EMAILS.sub),
        projectId: project,
        companyId: t.companyId('summit.test'),
        status: 'active',
      })
      .run(),
  );

let projectId: string;
let harborProjectId: string;
let harborTaskId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  for (const u of await t.query<{ id: string; email: string }>('SELECT id, email FROM users')) {
    userIds.set(u.email, u.id);
  }
  projectId = (await call('POST', '/api/projects', 'manager', { name: 'Tasks tower', location: 'Pier 4' }))
    .body.id;
  harborProjectId = (await call('POST', '/api/projects', 'harbor', { name: 'Harbor wall', location: 'Dock' }))
    .body.id;
  harborTaskId = (
    await call('POST', '/api/tasks', 'harbor', { title: 'Harbor task', projectId: harborProjectId })
  ).body.id;
});
afterAll(() => t?.close());

describe('GET /api/tasks', () => {
  it("lists the company's live tasks and none of another company's", async () => {
    const created = await call('POST', '/api/tasks', 'manager', { title: 'Pour slab', projectId });
    const summit = await call('GET', '/api/tasks', 'crew');
    expect(summit.status).toBe(200);
    const ids = summit.body.map((x: any) => x.id);
    expect(ids).toContain(created.body.id);
    expect(ids).not.toContain(harborTaskId);
    expect(summit.body.every((x: any) => x.companyId === t.companyId('summit.test'))).toBe(true);
    const harbor = await call('GET', '/api/tasks', 'harbor');
    expect(harbor.body.map((x: any) => x.id)).not.toContain(created.body.id);
  });

  it('answers each task with the same fields and values as the stored row, without sync bookkeeping', async () => {
    const created = await call('POST', '/api/tasks', 'manager', {
      title: 'Shape check',
      projectId,
      isMilestone: true,
      estimatedHours: 2.5,
      dueDate: '2030-05-01',
    });
    const listed = (await call('GET', '/api/tasks', 'manager')).body.find(
      (x: any) => x.id === created.body.id,
    );
    const stored = (await t.orm((db) =>
      db.select().from(schema.tasks).where(eq(schema.tasks.id, created.body.id)).get(),
    ))!;
    const expected = JSON.parse(JSON.stringify(publicRow(stored)));
    expect(listed).toEqual(expected);
    expect(Object.keys(listed)).toEqual(Object.keys(expected));
    expect(listed.isMilestone).toBe(true);
    expect(listed).not.toHaveProperty('fieldMeta');
    expect(listed).not.toHaveProperty('deletedAt');
  });

  it('shows a subcontractor only the tasks of its assigned projects and the tasks assigned to it', async () => {
    const assigned = (await call('POST', '/api/projects', 'manager', { name: 'Sub site', location: 'North' }))
      .body.id;
    await assignSub(assigned);
    const onAssigned = (
      await call('POST', '/api/tasks', 'manager', { title: 'Framing', projectId: assigned })
    ).body;
    const elsewhere = (await call('POST', '/api/tasks', 'manager', { title: 'Roofing', projectId })).body;
    const mine = (
      await call('POST', '/api/tasks', 'manager', {
        title: 'Paperwork',
        category: 'general',
        assigneeId: idOf(EMAILS.sub),
      })
    ).body;
    const list = await call('GET', '/api/tasks', 'sub');
    const ids = list.body.map((x: any) => x.id);
    expect(ids).toContain(onAssigned.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(elsewhere.id);
    const assignedIds = (
      await t.query<{ project_id: string }>(
        "SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'",
        [idOf(EMAILS.sub)],
      )
    ).map((r) => r.project_id);
    expect(
      list.body.every((x: any) => assignedIds.includes(x.projectId) || x.assigneeId === idOf(EMAILS.sub)),
    ).toBe(true);
    expect((await call('PATCH', `/api/tasks/${elsewhere.id}`, 'sub', { status: 'completed' })).status).toBe(
      404,
    );
  });

  it('refuses a visitor who is not signed in (401)', async () => {
    expect((await call('GET', '/api/tasks', null)).status).toBe(401);
  });
});

describe('POST /api/tasks', () => {
  it('creates a task with the defaults of the spec and answers 201 with the row', async () => {
    const res = await call('POST', '/api/tasks', 'crew', { title: '  Order rebar ', projectId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Order rebar',
      projectId,
      category: 'project',
      status: 'pending',
      priority: 'medium',
      isMilestone: false,
      completedAt: null,
      companyId: t.companyId('summit.test'),
      updatedBy: idOf(EMAILS.crew),
    });
    expect(res.body.version).toBeGreaterThan(0);
    expect(res.body).not.toHaveProperty('fieldMeta');
  });

  it('keeps a client-chosen id and refuses a second create with it (409)', async () => {
    const id = '01890a5d-ac96-774b-bcce-b302099a8057';
    const first = await call('POST', '/api/tasks', 'crew', {
      id,
      title: 'Offline task',
      category: 'general',
    });
    expect(first.status).toBe(201);
    expect(first.body.id).toBe(id);
    expect(
      (await call('POST', '/api/tasks', 'crew', { id, title: 'Again', category: 'general' })).status,
    ).toBe(409);
  });

  it("requires a project when the category is 'project', with the spec's message (400)", async () => {
    const res = await call('POST', '/api/tasks', 'manager', { title: 'No project', category: 'project' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Project selection is required when category is 'Project Related'");
    expect(res.body.fields.projectId).toBe(
      "Project selection is required when category is 'Project Related'",
    );
    const defaulted = await call('POST', '/api/tasks', 'manager', {
      title: 'Default category',
      projectId: null,
    });
    expect(defaulted.status).toBe(400);
  });

  it('creates administrative and general tasks without a project', async () => {
    for (const category of ['administrative', 'general']) {
      const res = await call('POST', '/api/tasks', 'manager', {
        title: `${category} task`,
        category,
        projectId: null,
      });
      expect(res.status).toBe(201);
      expect(res.body.projectId).toBeNull();
    }
  });

  it('says the title is required, and refuses unknown fields and bad enums (400)', async () => {
    const noTitle = await call('POST', '/api/tasks', 'manager', { projectId });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toBe('Title is required');
    const unknown = await call('POST', '/api/tasks', 'manager', { title: 'x', projectId, userId: 'someone' });
    expect(unknown.status).toBe(400);
    const badStatus = await call('POST', '/api/tasks', 'manager', { title: 'x', projectId, status: 'done' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.fields).toHaveProperty('status');
  });

  it("answers 404 for another company's project or assignee", async () => {
    const project = await call('POST', '/api/tasks', 'manager', { title: 'x', projectId: harborProjectId });
    expect(project.status).toBe(404);
    const assignee = await call('POST', '/api/tasks', 'manager', {
      title: 'x',
      projectId,
      assigneeId: idOf('crew@harbor.test'),
    });
    expect(assignee.status).toBe(404);
  });

  it('stamps completedAt when a task is created completed', async () => {
    const before = t.deps.now().toISOString();
    const res = await call('POST', '/api/tasks', 'manager', {
      title: 'Done already',
      projectId,
      status: 'completed',
    });
    expect(res.body.completedAt >= before).toBe(true);
  });
});

describe('PATCH /api/tasks/{id}', () => {
  it('stamps completedAt with the server clock when completed and clears it for any other status', async () => {
    const task = (await call('POST', '/api/tasks', 'crew', { title: 'Inspect', projectId })).body;
    t.clock.offsetMs = 3 * 86_400_000;
    try {
      const expected = t.deps.now().getTime();
      const done = await call('PATCH', `/api/tasks/${task.id}`, 'crew', { status: 'completed' });
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('completed');
      expect(Math.abs(Date.parse(done.body.completedAt) - expected)).toBeLessThan(5_000);
      expect(done.body.version).toBeGreaterThan(task.version);
      const again = await call('PATCH', `/api/tasks/${task.id}`, 'crew', { status: 'completed' });
      expect(again.body.completedAt).toBe(done.body.completedAt);
      const reopened = await call('PATCH', `/api/tasks/${task.id}`, 'crew', { status: 'in-progress' });
      expect(reopened.body.completedAt).toBeNull();
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it('changes any subset of the fields', async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Old', projectId })).body;
    const res = await call('PATCH', `/api/tasks/${task.id}`, 'manager', {
      title: 'New',
      priority: 'critical',
      dueDate: '2031-02-03T10:00:00+02:00',
      description: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'New',
      priority: 'critical',
      dueDate: '2031-02-03T08:00:00.000Z',
    });
  });

  it("refuses to move a project task out of its project, with the spec's message (400)", async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Stays', projectId })).body;
    const res = await call('PATCH', `/api/tasks/${task.id}`, 'manager', { projectId: null });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Project selection is required when category is 'Project Related'");
    const general = await call('PATCH', `/api/tasks/${task.id}`, 'manager', {
      category: 'general',
      projectId: null,
    });
    expect(general.status).toBe(200);
  });

  it('notifies a new assignee, but not a user who assigns a task to themselves', async () => {
    const crewId = idOf(EMAILS.crew);
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Check scaffold', projectId })).body;
    const assigned = await call('PATCH', `/api/tasks/${task.id}`, 'manager', { assigneeId: crewId });
    expect(assigned.body.assigneeId).toBe(crewId);
    const inbox = (await call('GET', '/api/notifications', 'crew')).body;
    const note = inbox.find((n: any) => n.relatedEntityId === task.id);
    expect(note).toMatchObject({
      title: 'Task assigned',
      message: 'You were assigned "Check scaffold"',
      isRead: false,
    });

    const own = (await call('POST', '/api/tasks', 'manager', { title: 'Mine', projectId })).body;
    await call('PATCH', `/api/tasks/${own.id}`, 'manager', { assigneeId: idOf(EMAILS.manager) });
    const managerInbox = (await call('GET', '/api/notifications', 'manager')).body;
    expect(managerInbox.some((n: any) => n.relatedEntityId === own.id)).toBe(false);
  });

  it("answers 404 for another company's task and for another company's assignee", async () => {
    expect((await call('PATCH', `/api/tasks/${harborTaskId}`, 'admin', { status: 'completed' })).status).toBe(
      404,
    );
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Mine', projectId })).body;
    const res = await call('PATCH', `/api/tasks/${task.id}`, 'manager', {
      assigneeId: idOf('admin@harbor.test'),
    });
    expect(res.status).toBe(404);
    const harborView = (await t.orm((db) =>
      db.select().from(schema.tasks).where(eq(schema.tasks.id, harborTaskId)).get(),
    ))!;
    expect(harborView.status).toBe('pending');
  });

  it('refuses unknown fields (400)', async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'x', projectId })).body;
    expect((await call('PATCH', `/api/tasks/${task.id}`, 'manager', { companyId: 'x' })).status).toBe(400);
  });
});

describe('a subcontractor cannot take a task out of its own sight', () => {
  const MESSAGE = 'A task must stay on one of your projects or be assigned to you';
  let site: string;
  const taskCount = async () => (await t.query('SELECT id FROM tasks')).length;
  const stored = async (id: string) =>
    (
      await t.query<{ project_id: string | null; category: string; assignee_id: string | null }>(
        'SELECT project_id, category, assignee_id FROM tasks WHERE id = ?',
        [id],
      )
    )[0];

  beforeAll(async () => {
    site = (await call('POST', '/api/projects', 'manager', { name: 'Sub yard', location: 'East' })).body.id;
    await assignSub(site);
  });

  it('refuses moving a task of its project off every project (403), and the task stays', async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Steel', projectId: site })).body;
    const res = await call('PATCH', `/api/tasks/${task.id}`, 'sub', { projectId: null, category: 'general' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MESSAGE);
    expect(await stored(task.id)).toEqual({ project_id: site, category: 'project', assignee_id: null });
    expect((await call('GET', '/api/tasks', 'sub')).body.map((x: any) => x.id)).toContain(task.id);
  });

  it('refuses creating a task with no project for someone else (403) and stores nothing', async () => {
    const before = await taskCount();
    const res = await call('POST', '/api/tasks', 'sub', { title: 'Loose end', category: 'general' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MESSAGE);
    expect(await taskCount()).toBe(before);
  });

  it('still creates a task of its project, or one assigned to itself, and still reassigns on its project', async () => {
    const onSite = await call('POST', '/api/tasks', 'sub', { title: 'Weld', projectId: site });
    expect(onSite.status).toBe(201);
    const own = await call('POST', '/api/tasks', 'sub', {
      title: 'Invoice',
      category: 'general',
      assigneeId: idOf(EMAILS.sub),
    });
    expect(own.status).toBe(201);
    expect((await call('GET', '/api/tasks', 'sub')).body.map((x: any) => x.id)).toContain(own.body.id);
    const handed = await call('PATCH', `/api/tasks/${onSite.body.id}`, 'sub', {
      assigneeId: idOf(EMAILS.crew),
    });
    expect(handed.status).toBe(200);
  });

  it('a push of the same move is rejected with the same reason, and the task stays', async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Bolts', projectId: site })).body;
    const d = device(t, cookie.sub!);
    const { status, body } = await d.push([
      d.mutation(
        'patch',
        'tasks',
        task.id,
        { projectId: null, category: 'general' },
        { baseVersion: task.version },
      ),
    ]);
    expect(body).toMatchObject({ results: [{ status: 'rejected', code: 'FORBIDDEN', message: MESSAGE }] });
    expect(status).toBe(200);
    expect(await stored(task.id)).toEqual({ project_id: site, category: 'project', assignee_id: null });
  });
});

describe('DELETE /api/tasks/{id}', () => {
  it('tombstones the task and its schedule changes, which then disappear from the lists', async () => {
    const task = (
      await call('POST', '/api/tasks', 'crew', { title: 'Temporary', projectId, dueDate: '2030-01-01' })
    ).body;
    const change = (
      await call('POST', '/api/schedule-changes', 'crew', {
        taskId: task.id,
        reason: 'Rain',
        newDate: '2030-01-05',
      })
    ).body;
    const res = await call('DELETE', `/api/tasks/${task.id}`, 'manager');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: task.id, deleted: { scheduleChanges: 1 } });
    expect((await call('GET', '/api/tasks', 'manager')).body.map((x: any) => x.id)).not.toContain(task.id);
    expect((await call('GET', '/api/schedule-changes', 'manager')).body.map((x: any) => x.id)).not.toContain(
      change.id,
    );
    const stored = (await t.orm((db) =>
      db.select().from(schema.scheduleChanges).where(eq(schema.scheduleChanges.id, change.id)).get(),
    ))!;
    expect(stored.deletedAt).not.toBeNull();
    expect((await call('PATCH', `/api/tasks/${task.id}`, 'manager', { title: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/api/tasks/${task.id}`, 'manager')).status).toBe(404);
  });

  it('refuses crew, who lack tasks:delete (403)', async () => {
    const task = (await call('POST', '/api/tasks', 'crew', { title: 'Keep me', projectId })).body;
    expect((await call('DELETE', `/api/tasks/${task.id}`, 'crew')).status).toBe(403);
    expect((await call('GET', '/api/tasks', 'crew')).body.map((x: any) => x.id)).toContain(task.id);
  });

  it("answers 404 for another company's task and leaves it alone", async () => {
    expect((await call('DELETE', `/api/tasks/${harborTaskId}`, 'admin')).status).toBe(404);
    expect((await call('GET', '/api/tasks', 'harbor')).body.map((x: any) => x.id)).toContain(harborTaskId);
  });
});

describe('GET /api/tasks caching', () => {
  it('answers a repeat read from the cache and any task write with the new list', async () => {
    const t2 = await createTestApp();
    try {
      const cookie = await t2.login('admin@summit.test');
      const first = await t2.request('GET', '/api/tasks', { cookie });
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/"tasks-\d+"$/);
      const before = (await first.json()) as { id: string; title: string }[];
      const again = await t2.request('GET', '/api/tasks', { cookie, headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      const target = before[0]!;
      await t2.request('PATCH', `/api/tasks/${target.id}`, {
        cookie,
        body: { title: 'Renamed by the cache test' },
      });
      const after = await t2.request('GET', '/api/tasks', { cookie, headers: { 'if-none-match': etag! } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      const list = (await after.json()) as { id: string; title: string }[];
      expect(list.find((x) => x.id === target.id)?.title).toBe('Renamed by the cache test');
      // Another company's reads never see this company's cached list.
      const harbor = await t2.login('admin@harbor.test');
      const theirs = (await (await t2.request('GET', '/api/tasks', { cookie: harbor })).json()) as {
        id: string;
      }[];
      expect(theirs.some((x) => x.id === target.id)).toBe(false);
    } finally {
      await t2.close();
    }
  });
});
