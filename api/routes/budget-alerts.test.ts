import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';

// Spec 01 section 1: "cost control with automated budget alerts".
let t: TestApp;
let manager: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await t.login('manager@summit.test');
});
afterAll(() => t.close());

const alertsOf = async (email: string, projectId: string) =>
  (
    await t.query<{ title: string; message: string }>(
      `SELECT title, message FROM notifications WHERE user_id = (SELECT id FROM users WHERE email = ?)
         AND related_entity_id = ? ORDER BY created_at, id`,
      [email, projectId],
    )
  ).map((n) => `${n.title}: ${n.message}`);

describe('budget alerts', () => {
  it('tell the finance readers when spend crosses 90% and 100% of the budget, once each', async () => {
    const created = await t.request('POST', '/api/projects', {
      cookie: manager,
      body: { name: 'Quay Wall', location: 'Harbor', budget: 100_000_00, actualCost: 50_000_00 },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const spend = async (actualCost: number) =>
      expect(
        (await t.request('PATCH', `/api/projects/${id}`, { cookie: manager, body: { actualCost } })).status,
      ).toBe(200);
    await spend(60_000_00);
    expect(await alertsOf('admin@summit.test', id)).toEqual([]);
    await spend(91_000_00);
    await spend(95_000_00);
    await spend(104_000_00);
    await spend(120_000_00);
    expect(await alertsOf('admin@summit.test', id)).toEqual([
      'Project nearing its budget: Quay Wall has spent 91% of its budget: $91,000 of its $100,000 budget.',
      'Project over budget: Quay Wall is 4% over its budget: $104,000 of its $100,000 budget.',
    ]);
    // Not the one who made the change, nobody without finance, nobody of another company.
    expect(await alertsOf('manager@summit.test', id)).toEqual([]);
    expect(await alertsOf('crew@summit.test', id)).toEqual([]);
    expect(await alertsOf('sub@summit.test', id)).toEqual([]);
    expect(await alertsOf('admin@harbor.test', id)).toEqual([]);
  });

  it('a budget too large says it is over the limit, not that it is not whole cents', async () => {
    const project = (
      await t.query<{ id: string }>(
        "SELECT id FROM projects WHERE company_id = (SELECT company_id FROM users WHERE email = 'manager@summit.test') LIMIT 1",
      )
    )[0]!.id;
    for (const budget of [1e300, 2 ** 53 + 2]) {
      const res = await t.request('PATCH', `/api/projects/${project}`, { cookie: manager, body: { budget } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^Budget must be at most /);
    }
    const half = await t.request('PATCH', `/api/projects/${project}`, {
      cookie: manager,
      body: { budget: 10.5 },
    });
    expect(((await half.json()) as { message: string }).message).toBe('Budget must be whole cents');
  });
});
