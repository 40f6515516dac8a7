import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

async function call(method: string, url: string, who: Who | null, body?: unknown) {
  const res = await t.request(method, url, { cookie: who ? cookie[who] : undefined, body });
  return { status: res.status, body: (await res.json()) as any };
}
const idOf = (email: string) =>
  t.db.$client.prepare<[string], { id: string }>('SELECT id FROM users WHERE email = ?').get(email)!.id;

const total = () =>
  t.db.$client
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM user_activities WHERE company_id = ?')
    .get(t.companyId('summit.test'))!.n;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  // Enough rows for several pages, some sharing one instant (the tie the cursor's id must break).
  const companyId = t.companyId('summit.test');
  const rows = Array.from({ length: 230 }, (_, i) => ({
    id: crypto.randomUUID(),
    userId: idOf(EMAILS.crew),
    companyId,
    actionType: 'task_updated',
    description: `Bulk activity ${i}`,
    createdAt: `2001-01-01T00:00:${String(Math.floor(i / 4) % 60).padStart(2, '0')}.000Z`,
  }));
  t.db.insert(schema.userActivities).values(rows).run();
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
    expect(total()).toBeGreaterThan(200);
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
    const all = t.db.$client
      .prepare<[string], { id: string }>('SELECT id FROM user_activities WHERE company_id = ?')
      .all(t.companyId('summit.test'))
      .map((r) => r.id);
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
