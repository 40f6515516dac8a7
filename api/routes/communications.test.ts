import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let sub: string;
let subProject: string;
let harbor: string;
let projectA: string;
let projectB: string;
let harborProject: string;

async function createProject(cookie: string, name: string): Promise<string> {
  const res = await t.request('POST', '/api/projects', { cookie, body: { name, location: 'Site' } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const send = (cookie: string, body: unknown) => t.request('POST', '/api/communications', { cookie, body });
const list = async (cookie: string, query = '') => {
  const res = await t.request('GET', `/api/communications${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  manager = await t.login('manager@summit.test');
  crew = await t.login('crew@summit.test');
  sub = await t.login('sub@summit.test');
  harbor = await t.login('admin@harbor.test');
  subProject = (
    await t.query<{ id: string }>(
      `SELECT project_id AS id FROM subcontractor_assignments WHERE status = 'active'
         AND subcontractor_id = (SELECT id FROM users WHERE email = 'sub@summit.test') LIMIT 1`,
    )
  )[0]!.id;
  projectA = await createProject(admin, 'Comms Tower A');
  projectB = await createProject(admin, 'Comms Tower B');
  harborProject = await createProject(harbor, 'Harbor Pier');
});
afterAll(() => t.close());

describe('POST /api/communications', () => {
  it('stores the sent body with defaults and the session user as sender', async () => {
    const res = await send(manager, {
      subject: 'Crane delivery',
      message: 'Arrives Monday 7am',
      projectId: projectA,
    });
    expect(res.status).toBe(201);
    const row = await res.json();
    expect(row).toMatchObject({
      subject: 'Crane delivery',
      message: 'Arrives Monday 7am',
      projectId: projectA,
      type: 'message',
      priority: 'normal',
      status: 'open',
      fromEmail: 'manager@summit.test',
    });
    expect(row.fromUserId).toEqual(expect.any(String));
    expect(row.fromName).toEqual(expect.any(String));
    expect(row.createdAt).toMatch(/Z$/);
    const activity = (
      await t.query<{ action_type: string }>('SELECT action_type FROM user_activities WHERE entity_id = ?', [
        row.id,
      ])
    )[0]!;
    expect(activity.action_type).toBe('communication_created');
  });

  it('keeps the chosen type and priority', async () => {
    const res = await send(admin, {
      subject: 'Invoice 17 disputed',
      message: 'Line 3 is wrong',
      type: 'dispute',
      priority: 'urgent',
      projectId: projectB,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ type: 'dispute', priority: 'urgent' });
  });

  it('refuses a missing subject with "Subject is required"', async () => {
    const res = await send(admin, { message: 'No subject', projectId: projectA });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Subject is required');
  });

  it('refuses a blank message and a missing project', async () => {
    expect((await send(admin, { subject: 'S', message: '   ', projectId: projectA })).status).toBe(400);
    expect((await send(admin, { subject: 'S', message: 'M' })).status).toBe(400);
  });

  it('refuses a client-chosen sender (unknown field) and an unknown type', async () => {
    expect(
      (await send(admin, { subject: 'S', message: 'M', projectId: projectA, fromEmail: 'x@y.z' })).status,
    ).toBe(400);
    expect(
      (await send(admin, { subject: 'S', message: 'M', projectId: projectA, type: 'memo' })).status,
    ).toBe(400);
  });

  it("answers 404 for another company's project", async () => {
    const res = await send(admin, { subject: 'S', message: 'M', projectId: harborProject });
    expect(res.status).toBe(404);
  });

  it('lets crew and subcontractors send every type on the projects they can see', async () => {
    for (const type of ['message', 'dispute', 'invoice']) {
      expect(
        (await send(crew, { subject: `Crew ${type}`, message: 'M', type, projectId: projectA })).status,
      ).toBe(201);
    }
    expect(
      (await send(sub, { subject: 'S', message: 'M', type: 'dispute', projectId: projectA })).status,
    ).toBe(404);
    expect(
      (await send(sub, { subject: 'Sub dispute', message: 'M', type: 'dispute', projectId: subProject }))
        .status,
    ).toBe(201);
  });

  it('refuses a field role a communication filed as already decided, and accepts it from an admin', async () => {
    const body = { subject: 'Invoice 7', message: 'M', type: 'invoice', projectId: projectA };
    for (const status of ['approved', 'rejected', 'resolved']) {
      const res = await send(crew, { ...body, status });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
    }
    expect((await send(crew, { ...body, status: 'pending' })).status).toBe(201);
    expect((await send(admin, { ...body, status: 'approved' })).status).toBe(201);
  });
});

describe('GET /api/communications', () => {
  it("lists the company's communications newest first", async () => {
    t.clock.offsetMs = 60_000;
    const later = await (await send(admin, { subject: 'Later', message: 'M', projectId: projectA })).json();
    t.clock.offsetMs = 0;
    const rows = await list(admin);
    expect(rows[0]!.id).toBe(later.id);
    const times = rows.map((r) => String(r.createdAt));
    expect([...times].sort().reverse()).toEqual(times);
    expect(rows.every((r) => r.companyId === t.companyId('summit.test'))).toBe(true);
  });

  it('filters by project', async () => {
    const rows = await list(admin, `?projectId=${projectB}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.projectId === projectB)).toBe(true);
  });

  it('filters by type for the Messages, Disputes and Invoices tabs', async () => {
    const disputes = await list(admin, '?type=dispute');
    expect(disputes.map((r) => r.subject)).toContain('Invoice 17 disputed');
    expect(disputes.every((r) => r.type === 'dispute')).toBe(true);
    const messages = await list(admin, '?type=message');
    expect(messages.some((r) => r.type !== 'message')).toBe(false);
    expect(messages.map((r) => r.subject)).toContain('Crane delivery');
  });

  it("never shows another company's communications", async () => {
    await send(harbor, { subject: 'Harbor only', message: 'M', projectId: harborProject });
    expect((await list(admin)).map((r) => r.subject)).not.toContain('Harbor only');
    const harborRows = await list(harbor);
    expect(harborRows.map((r) => r.subject)).toContain('Harbor only');
    expect(new Set(harborRows.map((r) => r.companyId))).toEqual(new Set([t.companyId('harbor.test')]));
  });

  it("answers 404 when filtering by another company's project", async () => {
    const res = await t.request('GET', `/api/communications?projectId=${harborProject}`, { cookie: admin });
    expect(res.status).toBe(404);
  });

  it('refuses an unknown type filter (400)', async () => {
    expect((await t.request('GET', '/api/communications?type=memo', { cookie: admin })).status).toBe(400);
  });

  it("drops a deleted project's communications from the feed", async () => {
    const gone = await createProject(admin, 'Comms Doomed');
    await send(admin, { subject: 'About to vanish', message: 'M', projectId: gone });
    expect((await t.request('DELETE', `/api/projects/${gone}`, { cookie: admin })).status).toBe(200);
    expect((await list(admin)).map((r) => r.subject)).not.toContain('About to vanish');
  });

  it('lets crew read the company feed, a subcontractor only its assigned projects', async () => {
    const read = async (cookie: string) => {
      const res = await t.request('GET', '/api/communications', { cookie });
      expect(res.status).toBe(200);
      return (await res.json()) as { projectId: string; subject: string }[];
    };
    await send(admin, { subject: 'On B only', message: 'M', projectId: projectB });
    expect((await read(crew)).some((r) => r.subject === 'On B only')).toBe(true);
    const subs = await read(sub);
    expect(subs.some((r) => r.subject === 'Sub dispute')).toBe(true);
    const assigned = new Set(
      (
        await t.query<{ id: string }>(
          `SELECT project_id AS id FROM subcontractor_assignments WHERE status = 'active'
             AND subcontractor_id = (SELECT id FROM users WHERE email = 'sub@summit.test')`,
        )
      ).map((r) => r.id),
    );
    expect(subs.every((r) => assigned.has(r.projectId))).toBe(true);
    expect(subs.some((r) => r.subject === 'On B only')).toBe(false);
  });
});
