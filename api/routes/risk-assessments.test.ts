import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
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
const create = (cookie: string, body: unknown) =>
  t.request('POST', '/api/risk-assessments', { cookie, body });
const list = async (cookie: string, query = '') => {
  const res = await t.request('GET', `/api/risk-assessments${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
};
const userId = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  manager = await t.login('manager@summit.test');
  crew = await t.login('crew@summit.test');
  harbor = await t.login('admin@harbor.test');
  projectA = await createProject(admin, 'Risk Tower A');
  projectB = await createProject(admin, 'Risk Tower B');
  harborProject = await createProject(harbor, 'Risk Harbor Pier');
});
afterAll(() => t.close());

describe('POST /api/risk-assessments', () => {
  it('records a risk with the defaults, the session user as identifier and a server-computed score', async () => {
    const res = await create(manager, { projectId: projectA, riskTitle: 'Late steel delivery' });
    expect(res.status).toBe(201);
    const row = (await res.json()) as Row;
    expect(row).toMatchObject({
      projectId: projectA,
      riskTitle: 'Late steel delivery',
      riskType: 'schedule',
      probability: 'medium',
      impact: 'medium',
      riskScore: 9,
      status: 'identified',
      identifiedBy: await userId('manager@summit.test'),
      assignedTo: null,
      dueDate: null,
    });
    const activity = (
      await t.query<{ action_type: string }>('SELECT action_type FROM user_activities WHERE entity_id = ?', [
        row.id,
      ])
    )[0]!;
    expect(activity.action_type).toBe('risk_identified');
  });

  it('scores impact weight times probability weight and keeps every sent field', async () => {
    const res = await create(admin, {
      projectId: projectB,
      riskType: 'weather',
      riskTitle: 'Storm season',
      riskDescription: 'Pour schedule exposed',
      probability: 'low',
      impact: 'high',
      status: 'monitoring',
      mitigationPlan: 'Tarps and heaters on standby',
      assignedTo: await userId('crew@summit.test'),
      dueDate: '2025-09-30',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      riskType: 'weather',
      riskDescription: 'Pour schedule exposed',
      probability: 'low',
      impact: 'high',
      riskScore: 5,
      status: 'monitoring',
      mitigationPlan: 'Tarps and heaters on standby',
      assignedTo: await userId('crew@summit.test'),
      dueDate: '2025-09-30T00:00:00.000Z',
    });
  });

  it('refuses a client-sent score or identifier (400)', async () => {
    expect((await create(admin, { projectId: projectA, riskTitle: 'R', riskScore: 1 })).status).toBe(400);
    expect(
      (
        await create(admin, {
          projectId: projectA,
          riskTitle: 'R',
          identifiedBy: await userId('crew@summit.test'),
        })
      ).status,
    ).toBe(400);
  });

  it('refuses a missing title, a bad probability, status or due date (400)', async () => {
    const res = await create(admin, { projectId: projectA });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toHaveProperty('riskTitle');
    expect(
      (await create(admin, { projectId: projectA, riskTitle: 'R', probability: 'certain' })).status,
    ).toBe(400);
    expect((await create(admin, { projectId: projectA, riskTitle: 'R', status: 'open' })).status).toBe(400);
    expect((await create(admin, { projectId: projectA, riskTitle: 'R', dueDate: 'next week' })).status).toBe(
      400,
    );
  });

  it("answers 404 for another company's project or assignee", async () => {
    expect((await create(admin, { projectId: harborProject, riskTitle: 'R' })).status).toBe(404);
    const res = await create(admin, {
      projectId: projectA,
      riskTitle: 'R',
      assignedTo: await userId('crew@harbor.test'),
    });
    expect(res.status).toBe(404);
  });

  it('forbids crew members (403)', async () => {
    expect((await create(crew, { projectId: projectA, riskTitle: 'R' })).status).toBe(403);
  });
});

describe('GET /api/risk-assessments', () => {
  it("lists the company's risks, and only those of a project when asked", async () => {
    const all = await list(admin);
    expect(all.map((r) => r.riskTitle)).toEqual(
      expect.arrayContaining(['Late steel delivery', 'Storm season']),
    );
    expect(all.every((r) => r.companyId === t.companyId('summit.test'))).toBe(true);
    const onB = await list(admin, `?projectId=${projectB}`);
    expect(onB.map((r) => r.riskTitle)).toEqual(['Storm season']);
  });

  it("never shows another company's risks, and 404s on its project filter", async () => {
    await create(harbor, { projectId: harborProject, riskTitle: 'Tidal surge' });
    expect((await list(admin)).map((r) => r.riskTitle)).not.toContain('Tidal surge');
    expect((await list(harbor)).map((r) => r.riskTitle)).toContain('Tidal surge');
    const res = await t.request('GET', `/api/risk-assessments?projectId=${harborProject}`, { cookie: admin });
    expect(res.status).toBe(404);
  });

  it('forbids crew members (403)', async () => {
    expect((await t.request('GET', '/api/risk-assessments', { cookie: crew })).status).toBe(403);
  });
});
