import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let harbor: string;
let harborProject: string;

type Row = Record<string, unknown> & { id: string; projectId: string };
const DAY = 86_400_000;

async function createProject(cookie: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', '/api/projects', { cookie, body: { location: 'Site', ...body } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
const calculate = (cookie: string, projectId: string) =>
  t.request('POST', `/api/project-health-metrics/${projectId}/calculate`, { cookie });
const list = async (cookie: string) => {
  const res = await t.request('GET', '/api/project-health-metrics', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
};
const userId = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;
const iso = (ms: number) => new Date(ms).toISOString();

async function addTask(
  projectId: string,
  values: { status: string; dueDate: string; assigneeId: string | null; deletedAt?: string },
) {
  await t.orm((db) =>
    db
      .insert(schema.tasks)
      .values({ id: newId(), companyId: t.companyId('summit.test'), projectId, title: 'Task', ...values })
      .run(),
  );
}
async function addLog(projectId: string, type: string, status: string, deletedAt?: string) {
  await t.orm((db) =>
    db
      .insert(schema.projectLogs)
      .values({
        id: newId(),
        companyId: t.companyId('summit.test'),
        projectId,
        title: 'Log',
        type,
        status,
        deletedAt,
      })
      .run(),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  manager = await t.login('manager@summit.test');
  crew = await t.login('crew@summit.test');
  harbor = await t.login('admin@harbor.test');
  harborProject = await createProject(harbor, { name: 'Health Harbor Pier' });
});
afterAll(() => t.close());

describe('POST /api/project-health-metrics/{projectId}/calculate', () => {
  let projectId: string;

  beforeAll(async () => {
    // Half-way through a ten-day project at 20% progress, with half its budget spent.
    const now = t.deps.now().getTime();
    projectId = await createProject(admin, {
      name: 'Health Tower',
      progress: 20,
      budget: 1_000_000,
      actualCost: 500_000,
      dueDate: iso(now + 5 * DAY),
    });
    await t.exec('UPDATE projects SET created_at = ? WHERE id = ?', [iso(now - 5 * DAY), projectId]);
    const crewId = await userId('crew@summit.test');
    await addTask(projectId, { status: 'pending', dueDate: iso(now - 3 * DAY), assigneeId: null }); // open, overdue, unassigned
    await addTask(projectId, { status: 'blocked', dueDate: iso(now + 10 * DAY), assigneeId: crewId }); // open, blocked
    await addTask(projectId, { status: 'completed', dueDate: iso(now - 3 * DAY), assigneeId: null }); // not open
    await addTask(projectId, {
      status: 'pending',
      dueDate: iso(now - 3 * DAY),
      assigneeId: null,
      deletedAt: iso(now),
    });
    await addLog(projectId, 'issue', 'open');
    await addLog(projectId, 'safety', 'in-progress');
    await addLog(projectId, 'issue', 'resolved');
    await addLog(projectId, 'general', 'open');
    await addLog(projectId, 'safety', 'open', iso(now));
    const mitigated = {
      projectId,
      riskTitle: 'Handled',
      probability: 'high',
      impact: 'high',
      status: 'mitigated',
    };
    expect(
      (await t.request('POST', '/api/risk-assessments', { cookie: admin, body: mitigated })).status,
    ).toBe(201);
  });

  it('computes the scores from live tasks, open issue/safety logs and open risks, and stores a new row', async () => {
    const res = await calculate(manager, projectId);
    expect(res.status).toBe(201);
    const row = (await res.json()) as Row;
    // schedule 100 - 30 lag - 50 x 1/2 overdue = 45; budget 100 - (50 - 20) = 70; quality 100 - 10 - 20 = 70;
    // resources 100 - 25 unassigned - 25 blocked = 50; overall round(15.75 + 21 + 14 + 7.5) = 58 -> high.
    expect(row).toMatchObject({
      projectId,
      scheduleHealth: 45,
      budgetHealth: 70,
      qualityHealth: 70,
      resourceHealth: 50,
      overallHealthScore: 58,
      riskLevel: 'high',
    });
    expect(Date.parse(String(row.calculatedAt))).toBeGreaterThan(Date.now() - 60_000);
    const [stored] = await t.query('SELECT overall_health_score FROM project_health_metrics WHERE id = ?', [
      row.id,
    ]);
    expect(stored).toEqual({ overall_health_score: 58 });
  });

  it('raises the risk level to the most severe open risk assessment', async () => {
    const severe = { projectId, riskTitle: 'Crane failure', probability: 'high', impact: 'high' };
    expect((await t.request('POST', '/api/risk-assessments', { cookie: admin, body: severe })).status).toBe(
      201,
    );
    const row = (await (await calculate(admin, projectId)).json()) as Row;
    expect(row).toMatchObject({ overallHealthScore: 58, riskLevel: 'critical' });
  });

  it('uses the server clock: once the due date has passed the lag grows', async () => {
    t.clock.offsetMs = 10 * DAY;
    try {
      // A session of the moved clock (the earlier ones would have expired by then).
      const later = await t.login('manager@summit.test');
      const row = (await (await calculate(later, projectId)).json()) as Row;
      // elapsed 100%, lag 80, plus 50 x 1/2 overdue (the blocked task is still ahead) -> 0
      expect(row.scheduleHealth).toBe(0);
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it("answers 404 for another company's project and for an unknown id", async () => {
    expect((await calculate(admin, harborProject)).status).toBe(404);
    expect((await calculate(admin, newId())).status).toBe(404);
  });

  it('forbids crew members (403)', async () => {
    expect((await calculate(crew, projectId)).status).toBe(403);
  });
});

describe('GET /api/project-health-metrics', () => {
  it('returns only the latest metrics row of each visible project', async () => {
    const projectId = await createProject(admin, { name: 'Health Twice' });
    await calculate(admin, projectId);
    t.clock.offsetMs = 60_000;
    const latest = (await (await calculate(admin, projectId)).json()) as Row;
    t.clock.offsetMs = 0;
    const rows = await list(manager);
    expect(rows.filter((r) => r.projectId === projectId).map((r) => r.id)).toEqual([latest.id]);
    const perProject = rows.map((r) => r.projectId);
    expect(new Set(perProject).size).toBe(perProject.length);
    // The earlier row is gone: a recalculation replaces it, so the table stays one row per project.
    expect(await t.query('SELECT id FROM project_health_metrics WHERE project_id = ?', [projectId])).toEqual([
      { id: latest.id },
    ]);
    expect(rows.every((r) => r.companyId === t.companyId('summit.test'))).toBe(true);
  });

  it("never shows another company's metrics", async () => {
    const summitProject = await createProject(admin, { name: 'Health Private' });
    await calculate(admin, summitProject);
    expect((await list(harbor)).map((r) => r.projectId)).not.toContain(summitProject);
  });

  it('leaves out deleted projects', async () => {
    const projectId = await createProject(admin, { name: 'Health Doomed' });
    await calculate(admin, projectId);
    expect((await t.request('DELETE', `/api/projects/${projectId}`, { cookie: admin })).status).toBe(200);
    expect((await list(admin)).map((r) => r.projectId)).not.toContain(projectId);
  });

  it('forbids crew members (403)', async () => {
    expect((await t.request('GET', '/api/project-health-metrics', { cookie: crew })).status).toBe(403);
  });
});
