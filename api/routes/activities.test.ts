import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  admin: 'admin@summit.test',
  manager: 'manager@summit.test',
  sub: 'sub@summit.test',
  crew: 'crew@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

async function call(method: string, url: string, who: Who | null, body?: unknown) {
  const res = await t.request(method, url, { cookie: who ? cookie[who] : undefined, body });
  return { status: res.status, body: (await res.json()) as any };
}
const idOf = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;

const total = async () =>
  (
    await t.query<{ n: number }>('SELECT count(*) AS n FROM user_activities WHERE company_id = ?', [
      t.companyId('summit.test'),
    ])
  )[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  // Enough rows for several pages, some sharing one instant (the tie the cursor's id must break).
  const companyId = t.companyId('summit.test');
  // About a task every role but the subcontractor may read (one with no project, assigned to no one).
  const task = (
    await t.query<{ id: string }>(
      `SELECT id FROM tasks WHERE company_id = ? AND deleted_at IS NULL AND project_id IS NULL LIMIT 1`,
      [companyId],
    )
  )[0]!.id;
  const crewId = await idOf(EMAILS.crew);
  const rows = Array.from({ length: 230 }, (_, i) => ({
    id: crypto.randomUUID(),
    userId: crewId,
    companyId,
    actionType: 'task_updated',
    entityType: 'task',
    entityId: task,
    description: `Bulk activity ${i}`,
    createdAt: `2001-01-01T00:00:${String(Math.floor(i / 4) % 60).padStart(2, '0')}.000Z`,
  }));
  await t.orm((db) => db.insert(schema.userActivities).values(rows).run());
});
afterAll(() => t?.close());

describe('GET /api/activities', () => {
  it('lists what happened, newest first, with who did it, in the fields of the spec', async () => {
    await call('POST', '/api/projects', 'manager', { name: 'Activity site', location: 'Yard' });
    const res = await call('GET', '/api/activities', 'crew');
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      id: expect.any(String),
      action_type: 'project_created',
      first_name: expect.anything(),
      email: EMAILS.manager,
      description: 'Created project Activity site',
      created_at: expect.any(String),
    });
    const times = res.body.map((a: any) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('sends 50 by default and at most 200, and refuses a bad limit or cursor (400)', async () => {
    expect(await total()).toBeGreaterThan(200);
    expect((await call('GET', '/api/activities', 'crew')).body).toHaveLength(50);
    expect((await call('GET', '/api/activities?limit=200', 'crew')).body).toHaveLength(200);
    expect((await call('GET', '/api/activities?limit=201', 'crew')).status).toBe(400);
    expect((await call('GET', '/api/activities?limit=0', 'crew')).status).toBe(400);
    expect((await call('GET', '/api/activities?before=yesterday', 'crew')).status).toBe(400);
  });

  it('pages through the full list with before and beforeId, each activity exactly once', async () => {
    const seen: string[] = [];
    let url = '/api/activities?limit=7';
    for (;;) {
      const page = (await call('GET', url, 'crew')).body as any[];
      seen.push(...page.map((a) => a.id));
      if (page.length < 7) break;
      const last = page[page.length - 1];
      url = `/api/activities?limit=7&before=${encodeURIComponent(last.created_at)}&beforeId=${last.id}`;
    }
    const all = (
      await t.query<{ id: string }>(
        // Crew reads everything of its company but health scores and risks (project_health:read) and
        // administration events such as a user created (rbac:manage).
        `SELECT id FROM user_activities WHERE company_id = ? AND action_type != 'project_health_calculated'
           AND entity_type NOT IN ('risk_assessment', 'user')`,
        [t.companyId('summit.test')],
      )
    ).map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...all].sort());
  });

  it('gives only activities older than the before time', async () => {
    const res = await call('GET', '/api/activities?before=2001-01-01T00:00:10.000Z&limit=200', 'crew');
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((a: any) => a.created_at < '2001-01-01T00:00:10.000Z')).toBe(true);
  });

  it("never shows another company's activities", async () => {
    const harbor = (await call('GET', '/api/activities?limit=200', 'harbor')).body;
    expect(harbor.some((a: any) => a.description.startsWith('Bulk activity'))).toBe(false);
    expect(harbor.some((a: any) => a.email?.endsWith('@summit.test'))).toBe(false);
  });

  it('refuses a visitor who is not signed in (401)', async () => {
    expect((await call('GET', '/api/activities', null)).status).toBe(401);
  });
});

describe('GET /api/activities shows only activities about rows the reader may read', () => {
  const subId = () => idOf(EMAILS.sub);
  const descriptions = async (who: Who) => {
    const res = await call('GET', '/api/activities?limit=200', who);
    expect(res.status).toBe(200);
    return (res.body as { description: string }[]).map((a) => a.description);
  };

  it('hides a change order on a project the subcontractor is not assigned to', async () => {
    const unassigned = (
      await t.query<{ id: string; name: string }>(
        `SELECT id, name FROM projects WHERE company_id = ? AND deleted_at IS NULL AND id NOT IN
           (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active')
         LIMIT 1`,
        [t.companyId('summit.test'), await subId()],
      )
    )[0]!;
    const created = await call('POST', '/api/change-orders', 'manager', {
      projectId: unassigned.id,
      title: 'Budget overrun',
      description: 'Steel prices',
      costImpact: 25_000_000,
      timeImpact: 0,
    });
    expect(created.status).toBe(201);
    const entry = `Requested change order "Budget overrun" on ${unassigned.name}`;
    expect((await descriptions('manager')).some((d) => d.startsWith(entry))).toBe(true);
    const seen = await descriptions('sub');
    expect(seen.some((d) => d.includes('Budget overrun'))).toBe(false);
    expect(seen.some((d) => d.includes('$250,000'))).toBe(false);
  });

  it('hides change-order amounts from a role without change_orders:read', async () => {
    await call('POST', '/api/change-orders', 'manager', {
      projectId: (
        await t.query<{ id: string }>(
          'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL LIMIT 1',
          [t.companyId('summit.test')],
        )
      )[0]!.id,
      title: 'Extra footing',
      description: 'Soil',
      costImpact: 1_234_500,
      timeImpact: 2,
    });
    // A company role like crew's, but without the change-order permissions.
    await t.exec(
      `INSERT INTO roles (name, company_id, kind, created_at) VALUES ('Site hand', ?, 'crew', '2026-01-01')`,
      [t.companyId('summit.test')],
    );
    const roleId = Number(
      (
        await t.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Site hand' AND company_id = ?`, [
          t.companyId('summit.test'),
        ])
      )[0]!.id,
    );
    await t.exec(
      `INSERT INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions
       WHERE name IN ('dashboard:view', 'projects:read', 'tasks:read')`,
      [roleId],
    );
    const crewRole = (
      await t.query<{ r: number }>('SELECT role_id AS r FROM users WHERE email = ?', [EMAILS.crew])
    )[0]!.r;
    await t.exec('UPDATE users SET role_id = ? WHERE email = ?', [roleId, EMAILS.crew]);
    try {
      const seen = await descriptions('crew');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((d) => d.includes('Extra footing') || d.includes('$12,345'))).toBe(false);
      expect((await descriptions('manager')).some((d) => d.includes('Extra footing'))).toBe(true);
    } finally {
      await t.exec('UPDATE users SET role_id = ? WHERE email = ?', [crewRole, EMAILS.crew]);
    }
  });

  it("shows a subcontractor the activities of its assigned projects' rows", async () => {
    const assigned = (
      await t.query<{ id: string }>(
        `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active' LIMIT 1`,
        [await subId()],
      )
    )[0]!.id;
    const log = await call('POST', '/api/logs', 'crew', { projectId: assigned, title: 'Formwork checked' });
    expect(log.status).toBe(201);
    expect((await descriptions('sub')).some((d) => d.includes('Formwork checked'))).toBe(true);
  });
});
