import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { startOfTodayIn } from '#shared/rules/dates.ts';

const utcMidnight = (now: Date) => startOfTodayIn(now, 'UTC').toISOString();

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
const stats = async (who: Who) => (await call('GET', '/api/dashboard/stats', who)).body;
const count = async (sql: string, ...params: unknown[]) => (await t.query<{ n: number }>(sql, params))[0]!.n;

async function addPhoto(projectId: string, domain: string, createdAt: string) {
  await t.orm((db) =>
    db
      .insert(schema.photos)
      .values({
        id: crypto.randomUUID(),
        projectId,
        companyId: t.companyId(domain),
        filename: 'x.jpg',
        createdAt,
      })
      .run(),
  );
}

let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  projectId = (await call('POST', '/api/projects', 'manager', { name: 'Stats site', location: 'West' })).body
    .id;
});
afterAll(() => t?.close());

describe('GET /api/dashboard/stats', () => {
  it("counts the company's live data", async () => {
    const company = t.companyId('summit.test');
    const res = await call('GET', '/api/dashboard/stats', 'manager');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      activeProjects: await count(
        "SELECT count(*) AS n FROM projects WHERE company_id = ? AND deleted_at IS NULL AND status = 'active'",
        company,
      ),
      pendingTasks: await count(
        "SELECT count(*) AS n FROM tasks WHERE company_id = ? AND deleted_at IS NULL AND status <> 'completed'",
        company,
      ),
      photosUploaded: await count(
        'SELECT count(*) AS n FROM photos WHERE company_id = ? AND deleted_at IS NULL',
        company,
      ),
      photosUploadedToday: await count(
        'SELECT count(*) AS n FROM photos WHERE company_id = ? AND deleted_at IS NULL AND created_at >= ?',
        company,
        utcMidnight(t.deps.now()),
      ),
    });
  });

  it('takes one pending task off when a task is completed, and adds it back when reopened', async () => {
    const task = (await call('POST', '/api/tasks', 'manager', { title: 'Count me', projectId })).body;
    const before = await stats('crew');
    await call('PATCH', `/api/tasks/${task.id}`, 'crew', { status: 'completed' });
    expect((await stats('crew')).pendingTasks).toBe(before.pendingTasks - 1);
    await call('PATCH', `/api/tasks/${task.id}`, 'crew', { status: 'pending' });
    expect((await stats('crew')).pendingTasks).toBe(before.pendingTasks);
  });

  it('counts a new active project, and photos uploaded today apart from older ones', async () => {
    const before = await stats('manager');
    await call('POST', '/api/projects', 'manager', { name: 'Another', location: 'South' });
    await call('POST', '/api/projects', 'manager', { name: 'Paused', location: 'South', status: 'on-hold' });
    await addPhoto(projectId, 'summit.test', t.deps.now().toISOString());
    await addPhoto(
      projectId,
      'summit.test',
      new Date(Date.parse(utcMidnight(t.deps.now())) - 1).toISOString(),
    );
    const after = await stats('manager');
    expect(after.activeProjects).toBe(before.activeProjects + 1);
    expect(after.photosUploaded).toBe(before.photosUploaded + 2);
    expect(after.photosUploadedToday).toBe(before.photosUploadedToday + 1);
  });

  it("is not moved by another company's data", async () => {
    const before = await stats('harbor');
    await call('POST', '/api/projects', 'manager', { name: 'Summit only', location: 'North' });
    await call('POST', '/api/tasks', 'manager', { title: 'Summit only', projectId });
    await addPhoto(projectId, 'summit.test', t.deps.now().toISOString());
    expect(await stats('harbor')).toEqual(before);
  });

  it("counts only a subcontractor's assigned projects and its tasks", async () => {
    const visible = await count(
      `SELECT count(DISTINCT p.id) AS n FROM projects p JOIN subcontractor_assignments a ON a.project_id = p.id
       JOIN users u ON u.id = a.subcontractor_id
       WHERE u.email = ? AND a.status = 'active' AND p.deleted_at IS NULL AND p.status = 'active'`,
      EMAILS.sub,
    );
    const pending = await count(
      `SELECT count(*) AS n FROM tasks t, users u WHERE u.email = ? AND t.company_id = u.company_id
         AND t.deleted_at IS NULL AND t.status <> 'completed' AND (t.assignee_id = u.id OR t.project_id IN (
           SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = u.id AND status = 'active'))`,
      EMAILS.sub,
    );
    const sub = await stats('sub');
    expect(sub.activeProjects).toBe(visible);
    expect(sub.pendingTasks).toBe(pending);
    expect(sub.pendingTasks).toBeLessThan((await stats('manager')).pendingTasks);
  });

  it('refuses a visitor who is not signed in (401)', async () => {
    expect((await call('GET', '/api/dashboard/stats', null)).status).toBe(401);
  });

  it('takes midnight UTC as the start of today for a UTC company', () => {
    expect(utcMidnight(new Date('2030-06-15T23:59:59.999+05:00'))).toBe('2030-06-15T00:00:00.000Z');
    expect(utcMidnight(new Date('2030-06-15T00:00:00.000Z'))).toBe('2030-06-15T00:00:00.000Z');
  });

  it("counts photos uploaded today from midnight in the company's time zone", async () => {
    const zone = 'America/Los_Angeles';
    const admin = await t.login('admin@summit.test');
    const set = async (time_zone: string) =>
      t.request('PATCH', `/api/rbac/companies/${t.companyId('summit.test')}`, {
        cookie: admin,
        body: { time_zone },
      });
    expect((await set(zone)).status).toBe(200);
    try {
      const before = (await stats('manager')).photosUploadedToday;
      const midnight = startOfTodayIn(t.deps.now(), zone).getTime();
      await addPhoto(projectId, 'summit.test', new Date(midnight).toISOString());
      await addPhoto(projectId, 'summit.test', new Date(midnight - 1).toISOString());
      expect((await stats('manager')).photosUploadedToday).toBe(before + 1);
      // Los Angeles midnight is 07:00 or 08:00 UTC: a UTC day would have counted differently.
      expect(new Date(midnight).getUTCHours()).toBeGreaterThanOrEqual(7);
    } finally {
      await set('UTC');
    }
  });
});
