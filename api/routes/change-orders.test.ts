import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRbac } from '../db/seed.ts';
import { upsertRbac } from '../db/seed/rbac.ts';
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

type Row = Record<string, unknown> & { id: string };

async function createProject(cookie: string, name: string): Promise<string> {
  const res = await t.request('POST', '/api/projects', { cookie, body: { name, location: 'Site' } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const request = (cookie: string, body: unknown) => t.request('POST', '/api/change-orders', { cookie, body });
const decide = (cookie: string, id: string, body: unknown) =>
  t.request('PATCH', `/api/change-orders/${id}`, { cookie, body });
async function newOrder(cookie: string, body: Record<string, unknown> = {}): Promise<Row> {
  const res = await request(cookie, {
    title: 'Extra rebar',
    description: 'Level 3 slab',
    projectId: projectA,
    ...body,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Row;
}
const list = async (cookie: string, query = '') => {
  const res = await t.request('GET', `/api/change-orders${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
};
const userId = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;
const activities = async (entityId: string) =>
  (
    await t.query<{ action_type: string }>(
      'SELECT action_type FROM user_activities WHERE entity_id = ? ORDER BY created_at, id',
      [entityId],
    )
  ).map((r) => r.action_type);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  manager = await t.login('manager@summit.test');
  crew = await t.login('crew@summit.test');
  sub = await t.login('sub@summit.test');
  harbor = await t.login('admin@harbor.test');
  projectA = await createProject(admin, 'CO Tower A');
  projectB = await createProject(admin, 'CO Tower B');
  harborProject = await createProject(harbor, 'CO Harbor Pier');
  subProject = (
    await t.query<{ id: string }>(
      `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active' LIMIT 1`,
      [await userId('sub@summit.test')],
    )
  )[0]!.id;
});
afterAll(() => t.close());

describe('POST /api/change-orders', () => {
  it('stores the request as pending, requested by the session user, money in cents', async () => {
    const row = await newOrder(manager, { costImpact: 1_250_00, timeImpact: 4 });
    expect(row).toMatchObject({
      title: 'Extra rebar',
      description: 'Level 3 slab',
      projectId: projectA,
      costImpact: 125_000,
      timeImpact: 4,
      status: 'pending',
      requestedBy: await userId('manager@summit.test'),
      approvedBy: null,
      approvedAt: null,
    });
    expect(await activities(row.id)).toEqual(['change_order_created']);
  });

  it('defaults cost and time impact to 0', async () => {
    expect(await newOrder(admin)).toMatchObject({ costImpact: 0, timeImpact: 0 });
  });

  it('notifies the other approvers of the new request', async () => {
    const row = await newOrder(manager);
    const notified = await t.query<{ user_id: string }>(
      'SELECT user_id FROM notifications WHERE related_entity_id = ?',
      [row.id],
    );
    expect(notified.map((n) => n.user_id)).toContain(await userId('admin@summit.test'));
    expect(notified.map((n) => n.user_id)).not.toContain(await userId('manager@summit.test'));
  });

  it('takes a negative cost impact as a credit (a deductive change order) and stores it as sent', async () => {
    const credit = (costImpact: number) =>
      request(admin, { title: 'T', description: 'D', projectId: projectA, costImpact });
    const res = await credit(-500_00);
    expect(res.status).toBe(201);
    const row = (await res.json()) as Row;
    expect(row).toMatchObject({ costImpact: -500_00 });
    expect((await credit(-1e14)).status).toBe(400);
    // The Recent Activity line reads as money: '-$500.00', not '$-500'.
    const [activity] = await t.query<{ description: string }>(
      'SELECT description FROM user_activities WHERE entity_id = ?',
      [row.id],
    );
    expect(activity!.description).toBe('Requested change order "T" on CO Tower A (-$500.00, 0 days)');
  });

  it('refuses fractional cents, a negative or fractional time impact', async () => {
    const base = { title: 'T', description: 'D', projectId: projectA };
    expect((await request(admin, { ...base, costImpact: 10.5 })).status).toBe(400);
    expect((await request(admin, { ...base, timeImpact: -1 })).status).toBe(400);
    expect((await request(admin, { ...base, timeImpact: 1.5 })).status).toBe(400);
  });

  it('refuses a missing title, description or project', async () => {
    const res = await request(admin, { description: 'D', projectId: projectA });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Title is required');
    expect((await request(admin, { title: 'T', projectId: projectA })).status).toBe(400);
    expect((await request(admin, { title: 'T', description: 'D' })).status).toBe(400);
  });

  it('refuses a client-chosen status or requester', async () => {
    const base = { title: 'T', description: 'D', projectId: projectA };
    expect((await request(admin, { ...base, status: 'approved' })).status).toBe(400);
    expect((await request(admin, { ...base, requestedBy: await userId('crew@summit.test') })).status).toBe(
      400,
    );
  });

  it("answers 404 for another company's project", async () => {
    expect((await request(admin, { title: 'T', description: 'D', projectId: harborProject })).status).toBe(
      404,
    );
  });

  it('lets crew and subcontractors submit change orders, pending, on the projects they can see', async () => {
    const fromCrew = await request(crew, { title: 'Crew issue', description: 'D', projectId: projectA });
    expect(fromCrew.status).toBe(201);
    expect(await fromCrew.json()).toMatchObject({
      status: 'pending',
      requestedBy: await userId('crew@summit.test'),
    });
    // projectA is not one of the subcontractor's: refused as if it did not exist.
    expect((await request(sub, { title: 'Sub issue', description: 'D', projectId: projectA })).status).toBe(
      404,
    );
    const fromSub = await request(sub, { title: 'Sub issue', description: 'D', projectId: subProject });
    expect(fromSub.status).toBe(201);
    expect(await fromSub.json()).toMatchObject({
      status: 'pending',
      requestedBy: await userId('sub@summit.test'),
    });
  });

  it('grants the field roles of an existing deployment the new permissions at start (seedRbac)', async () => {
    // A database from before the decision: crew's template role without the change-order permissions.
    await t.exec(
      `DELETE FROM role_permissions WHERE role_id = (SELECT id FROM roles WHERE is_template = 1 AND kind = 'crew')
         AND permission_id IN (SELECT id FROM permissions WHERE name LIKE 'change_orders:%')`,
    );
    expect((await request(crew, { title: 'Old', description: 'D', projectId: projectA })).status).toBe(403);
    // What the server runs at start: seedRbac on SQLite, the same upsertRbac in a write transaction on
    // PostgreSQL (api/db/pg/bootstrap.ts).
    if (t.backend === 'sqlite') seedRbac(t.db);
    else await t.database.writeTx(null, upsertRbac);
    expect((await request(crew, { title: 'New', description: 'D', projectId: projectA })).status).toBe(201);
  });
});

describe('PATCH /api/change-orders/{id}', () => {
  it('approves a pending order and stamps who approved it and when', async () => {
    const order = await newOrder(admin);
    const res = await decide(manager, order.id, { status: 'approved' });
    expect(res.status).toBe(200);
    const row = (await res.json()) as Row;
    expect(row).toMatchObject({
      status: 'approved',
      approvedBy: await userId('manager@summit.test'),
      reason: null,
    });
    expect(Date.parse(String(row.approvedAt))).not.toBeNaN();
    expect(await activities(order.id)).toEqual(['change_order_created', 'change_order_approved']);
  });

  it("settles the other approvers' 'to review' notifications once decided; the requester is told", async () => {
    const crew = await t.login('crew@summit.test');
    const order = await newOrder(crew);
    const about = async () =>
      t.query<{ email: string; title: string; is_read: number | boolean }>(
        `SELECT u.email, n.title, n.is_read FROM notifications n JOIN users u ON u.id = n.user_id
           WHERE n.related_entity_id = ? ORDER BY u.email`,
        [order.id],
      );
    expect(
      (await about()).filter((n) => n.title === 'Change order to review' && !n.is_read).length,
    ).toBeGreaterThan(1);
    await decide(manager, order.id, { status: 'approved' });
    const after = await about();
    expect(after.filter((n) => n.title === 'Change order to review' && !n.is_read)).toEqual([]);
    expect(
      after.filter((n) => n.email === 'crew@summit.test').map((n) => [n.title, Boolean(n.is_read)]),
    ).toEqual([['Change order approved', false]]);
  });

  it("rejects with 'Rejected by project manager' when no reason is given", async () => {
    const order = await newOrder(admin);
    const row = (await (await decide(manager, order.id, { status: 'rejected' })).json()) as Row;
    expect(row).toMatchObject({
      status: 'rejected',
      reason: 'Rejected by project manager',
      approvedBy: null,
    });
  });

  it('rejects with the given reason and tells the requester', async () => {
    const order = await newOrder(manager);
    const res = await decide(admin, order.id, { status: 'rejected', reason: 'Over budget' });
    expect(await res.json()).toMatchObject({ status: 'rejected', reason: 'Over budget' });
    const note = (
      await t.query<{ message: string }>(
        'SELECT message FROM notifications WHERE related_entity_id = ? AND user_id = ?',
        [order.id, await userId('manager@summit.test')],
      )
    )[0];
    expect(note?.message).toContain('Over budget');
  });

  it('resolves a pending order', async () => {
    const order = await newOrder(admin);
    expect(await (await decide(admin, order.id, { status: 'resolved' })).json()).toMatchObject({
      status: 'resolved',
    });
  });

  it('refuses to decide an order twice (409 ALREADY_DECIDED) and keeps the first decision', async () => {
    const order = await newOrder(admin);
    expect((await decide(manager, order.id, { status: 'approved' })).status).toBe(200);
    const res = await decide(admin, order.id, { status: 'rejected' });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('ALREADY_DECIDED');
    const [row] = (await list(admin)).filter((r) => r.id === order.id);
    expect(row).toMatchObject({ status: 'approved', reason: null });
  });

  it("refuses an unknown decision or 'pending' (400)", async () => {
    const order = await newOrder(admin);
    expect((await decide(admin, order.id, { status: 'pending' })).status).toBe(400);
    expect((await decide(admin, order.id, {})).status).toBe(400);
    expect((await decide(admin, order.id, { status: 'approved', costImpact: 5 })).status).toBe(400);
  });

  it("answers 404 for another company's order", async () => {
    const order = await newOrder(admin);
    expect((await decide(harbor, order.id, { status: 'approved' })).status).toBe(404);
    expect((await list(admin)).find((r) => r.id === order.id)?.status).toBe('pending');
  });

  it('forbids crew members and subcontractors from deciding (403)', async () => {
    const order = await newOrder(admin);
    expect((await decide(crew, order.id, { status: 'approved' })).status).toBe(403);
    const subs = await newOrder(admin, { projectId: subProject });
    expect((await decide(sub, subs.id, { status: 'approved' })).status).toBe(403);
    expect((await decide(sub, subs.id, { status: 'rejected' })).status).toBe(403);
  });
});

describe('GET /api/change-orders', () => {
  it("lists the company's orders newest first", async () => {
    t.clock.offsetMs = 60_000;
    const latest = await newOrder(admin, { title: 'Latest' });
    t.clock.offsetMs = 0;
    const rows = await list(admin);
    expect(rows[0]!.id).toBe(latest.id);
    const times = rows.map((r) => String(r.createdAt));
    expect([...times].sort().reverse()).toEqual(times);
    expect(rows.every((r) => r.companyId === t.companyId('summit.test'))).toBe(true);
  });

  it('filters by project and by status', async () => {
    const onB = await newOrder(admin, { projectId: projectB });
    const byProject = await list(admin, `?projectId=${projectB}`);
    expect(byProject.map((r) => r.id)).toEqual([onB.id]);
    const approved = await list(admin, '?status=approved');
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((r) => r.status === 'approved')).toBe(true);
  });

  it("never shows another company's orders, and 404s on its project filter", async () => {
    const harborOrder = await newOrder(harbor, { projectId: harborProject });
    expect((await list(admin)).map((r) => r.id)).not.toContain(harborOrder.id);
    expect(
      (await t.request('GET', `/api/change-orders?projectId=${harborProject}`, { cookie: admin })).status,
    ).toBe(404);
  });

  it('lets crew read every project of the company, a subcontractor only its assigned ones', async () => {
    await newOrder(admin, { title: 'On B' });
    const onSub = await newOrder(admin, { projectId: subProject, title: 'On the sub project' });
    expect((await list(crew)).some((r) => r.projectId === projectB)).toBe(true);
    const subs = await list(sub);
    expect(subs.map((r) => r.id)).toContain(onSub.id);
    const assigned = new Set(
      (
        await t.query<{ id: string }>(
          `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'`,
          [await userId('sub@summit.test')],
        )
      ).map((r) => r.id),
    );
    expect(subs.every((r) => assigned.has(r.projectId as string))).toBe(true);
    const res = await t.request('GET', `/api/change-orders?projectId=${projectA}`, { cookie: sub });
    expect(res.status).toBe(404);
  });
});
