import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { device } from '../sync/testing.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
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
/** Users' ids by email, read once in beforeAll (so the many lookups below stay synchronous). */
const userIds = new Map<string, string>();
const idOf = (email: string) => {
  const id = userIds.get(email);
  if (!id) throw new Error(`no user ${email}`);
  return id;
};

let subAssignment: string;
let otherAssignment: string;
let deletedProjectAssignment: string;
let projectId: string;

async function assign(subcontractorId: string, project: string) {
  const id = crypto.randomUUID();
  await t.orm((db) =>
    db
      .insert(schema.subcontractorAssignments)
      .values({
        id,
        subcontractorId,
        projectId: project,
        companyId: t.companyId('summit.test'),
        assignedBy: idOf(EMAILS.manager),
        startDate: '2030-01-01T00:00:00.000Z',
        endDate: '2030-06-30T00:00:00.000Z',
        specialization: 'Electrical',
        status: 'active',
        createdAt: '2030-01-01T00:00:00.000Z',
      })
      .run(),
  );
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  for (const u of await t.query<{ id: string; email: string }>('SELECT id, email FROM users')) {
    userIds.set(u.email, u.id);
  }
  projectId = (await call('POST', '/api/projects', 'manager', { name: 'Wiring', location: 'Block C' })).body
    .id;
  const doomed = (await call('POST', '/api/projects', 'manager', { name: 'Doomed', location: 'Block D' }))
    .body.id;
  subAssignment = await assign(idOf(EMAILS.sub), projectId);
  otherAssignment = await assign(idOf(EMAILS.crew), projectId);
  deletedProjectAssignment = await assign(idOf(EMAILS.sub), doomed);
  await call('DELETE', `/api/projects/${doomed}`, 'manager');
});
afterAll(() => t?.close());

describe('GET /api/subcontractor-assignments', () => {
  it("lists the company's assignments with every field of the spec", async () => {
    const res = await call('GET', '/api/subcontractor-assignments', 'manager');
    expect(res.status).toBe(200);
    const ids = res.body.map((a: any) => a.id);
    expect(ids).toContain(subAssignment);
    expect(ids).toContain(otherAssignment);
    expect(res.body.find((a: any) => a.id === subAssignment)).toMatchObject({
      subcontractorId: idOf(EMAILS.sub),
      projectId,
      assignedBy: idOf(EMAILS.manager),
      startDate: '2030-01-01T00:00:00.000Z',
      endDate: '2030-06-30T00:00:00.000Z',
      specialization: 'Electrical',
      status: 'active',
      createdAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('shows a subcontractor only its own assignments', async () => {
    const res = await call('GET', '/api/subcontractor-assignments', 'sub');
    expect(res.status).toBe(200);
    const ids = res.body.map((a: any) => a.id);
    expect(ids).toContain(subAssignment);
    expect(ids).not.toContain(otherAssignment);
    expect(res.body.every((a: any) => a.subcontractorId === idOf(EMAILS.sub))).toBe(true);
  });

  it('leaves out assignments to deleted projects', async () => {
    const ids = (await call('GET', '/api/subcontractor-assignments', 'manager')).body.map((a: any) => a.id);
    expect(ids).not.toContain(deletedProjectAssignment);
  });

  it("never shows another company's assignments", async () => {
    const harbor = (await call('GET', '/api/subcontractor-assignments', 'harbor')).body;
    expect(harbor.map((a: any) => a.id)).not.toContain(subAssignment);
    expect(harbor.every((a: any) => a.companyId === t.companyId('harbor.test'))).toBe(true);
  });

  it('refuses crew, who lack assignments:read (403)', async () => {
    expect((await call('GET', '/api/subcontractor-assignments', 'crew')).status).toBe(403);
  });
});

describe('POST /api/subcontractor-assignments', () => {
  let freshProject: string;
  beforeAll(async () => {
    freshProject = (await call('POST', '/api/projects', 'manager', { name: 'Atrium', location: 'Block E' }))
      .body.id;
  });

  it('lets a manager put a subcontractor on a project: active, assigned by the manager, listed to the subcontractor', async () => {
    const res = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId: freshProject,
      specialization: 'Glazing',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      subcontractorId: idOf(EMAILS.sub),
      projectId: freshProject,
      assignedBy: idOf(EMAILS.manager),
      specialization: 'Glazing',
      status: 'active',
    });
    const mine = (await call('GET', '/api/subcontractor-assignments', 'sub')).body;
    expect(mine.map((a: any) => a.id)).toContain(res.body.id);
    // The subcontractor now reads the project it was put on.
    const projects = (await call('GET', '/api/projects', 'sub')).body;
    expect(projects.map((p: any) => p.id)).toContain(freshProject);
  });

  it('refuses a second active assignment of the same pair (409) and stores nothing', async () => {
    const before = (await call('GET', '/api/subcontractor-assignments', 'manager')).body.length;
    const res = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId: freshProject,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ALREADY_ASSIGNED');
    expect((await call('GET', '/api/subcontractor-assignments', 'manager')).body.length).toBe(before);
  });

  it('refuses a user who is not a subcontractor (404) and a missing project id (400)', async () => {
    const crew = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.crew),
      projectId: freshProject,
    });
    expect(crew.status).toBe(404);
    expect(crew.body).toMatchObject({ code: 'NOT_FOUND', message: 'Subcontractor not found' });
    const bad = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(expect.any(String));
  });

  it('refuses an end date before the start date (400) and stores nothing', async () => {
    const before = (await call('GET', '/api/subcontractor-assignments', 'manager')).body.length;
    const res = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId,
      startDate: '2027-01-01',
      endDate: '2026-01-01',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('End date must not be before the start date');
    expect((await call('GET', '/api/subcontractor-assignments', 'manager')).body.length).toBe(before);
  });

  it('refuses crew and subcontractors, who lack assignments:manage (403)', async () => {
    const body = { subcontractorId: idOf(EMAILS.sub), projectId: projectId };
    expect((await call('POST', '/api/subcontractor-assignments', 'crew', body)).status).toBe(403);
    expect((await call('POST', '/api/subcontractor-assignments', 'sub', body)).status).toBe(403);
  });
});

describe('an assignment reaches the devices (sync/SPEC.md L13)', () => {
  async function pullAll(d: ReturnType<typeof device>, from = 0) {
    const changes: { table: string; id: string; deleted: boolean }[] = [];
    let cursor = from;
    for (;;) {
      const { body } = await d.pull(cursor, 5000);
      if ('reset' in body) return { reset: body, changes, cursor };
      changes.push(...(body.changes as typeof changes));
      cursor = body.cursor;
      if (!body.hasMore) return { reset: null, changes, cursor };
    }
  }

  it('[L13][L12][L9] the manager pulls the new row from its cursor; the subcontractor is reset and then holds the project', async () => {
    const project = (await call('POST', '/api/projects', 'manager', { name: 'Depot', location: 'Block F' }))
      .body.id as string;
    const office = device(t, cookie.manager!);
    const phone = device(t, cookie.sub!);
    const officeStart = await pullAll(office);
    const phoneStart = await pullAll(phone);
    expect(phoneStart.changes.some((c) => c.id === project)).toBe(false);

    const made = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId: project,
    });
    expect(made.status).toBe(201);

    const officeNext = await pullAll(office, officeStart.cursor);
    expect(officeNext.reset).toBeNull();
    expect(officeNext.changes).toContainEqual(
      expect.objectContaining({ table: 'subcontractor_assignments', id: made.body.id, deleted: false }),
    );
    expect((await phone.pull(phoneStart.cursor)).body).toEqual({ reset: true, reason: 'scope' });
    const again = await pullAll(phone);
    expect(again.changes.some((c) => c.table === 'projects' && c.id === project)).toBe(true);
    expect(again.changes.some((c) => c.table === 'subcontractor_assignments' && c.id === made.body.id)).toBe(
      true,
    );
  });
});

describe('DELETE /api/subcontractor-assignments/:id', () => {
  it('takes a subcontractor off a project: the subcontractor no longer reads it', async () => {
    const project = (await call('POST', '/api/projects', 'manager', { name: 'Annex', location: 'Block G' }))
      .body.id as string;
    const made = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId: project,
    });
    expect((await call('GET', '/api/projects', 'sub')).body.map((p: any) => p.id)).toContain(project);
    // Neither the subcontractor nor crew may take it away.
    expect((await call('DELETE', `/api/subcontractor-assignments/${made.body.id}`, 'sub')).status).toBe(403);
    expect((await call('DELETE', `/api/subcontractor-assignments/${made.body.id}`, 'crew')).status).toBe(403);
    const res = await call('DELETE', `/api/subcontractor-assignments/${made.body.id}`, 'manager');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: made.body.id });
    const ids = (await call('GET', '/api/subcontractor-assignments', 'manager')).body.map((a: any) => a.id);
    expect(ids).not.toContain(made.body.id);
    expect((await call('GET', '/api/projects', 'sub')).body.map((p: any) => p.id)).not.toContain(project);
    // Gone: a second delete is a 404.
    expect((await call('DELETE', `/api/subcontractor-assignments/${made.body.id}`, 'manager')).status).toBe(
      404,
    );
  });

  it("answers 404 for another company's assignment and leaves it in place", async () => {
    const res = await call('DELETE', `/api/subcontractor-assignments/${subAssignment}`, 'harbor');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    const ids = (await call('GET', '/api/subcontractor-assignments', 'manager')).body.map((a: any) => a.id);
    expect(ids).toContain(subAssignment);
  });

  it('[L13][L12] the removal reaches the office as a tombstone and the subcontractor as a scope reset', async () => {
    const project = (await call('POST', '/api/projects', 'manager', { name: 'Kiosk', location: 'Block H' }))
      .body.id as string;
    const made = await call('POST', '/api/subcontractor-assignments', 'manager', {
      subcontractorId: idOf(EMAILS.sub),
      projectId: project,
    });
    const office = device(t, cookie.manager!);
    const phone = device(t, cookie.sub!);
    const pullTo = async (d: ReturnType<typeof device>) => {
      let cursor = 0;
      for (;;) {
        const { body } = await d.pull(cursor, 5000);
        if ('reset' in body) throw new Error('unexpected reset');
        cursor = body.cursor;
        if (!body.hasMore) return cursor;
      }
    };
    const officeCursor = await pullTo(office);
    const phoneCursor = await pullTo(phone);
    await call('DELETE', `/api/subcontractor-assignments/${made.body.id}`, 'manager');
    const { body } = await office.pull(officeCursor, 5000);
    expect('changes' in body && body.changes).toContainEqual(
      expect.objectContaining({ table: 'subcontractor_assignments', id: made.body.id, deleted: true }),
    );
    expect((await phone.pull(phoneCursor)).body).toEqual({ reset: true, reason: 'scope' });
  });
});
