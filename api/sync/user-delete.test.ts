import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { cell, device, firstId } from './testing.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
});
afterAll(() => t.close());

describe('deleting a user reaches every device', () => {
  it('[L2][L12] a task assigned to a deleted user is pulled unassigned, in a new version', async () => {
    const summit = t.companyId('summit.test');
    const crewRole = 3; // the built-in Crew role (api/db/seed/rbac.ts)
    const created = await t.request('POST', '/api/rbac/users', {
      cookie: admin,
      body: {
        email: `leaver.${Date.now()}@summit.test`,
        first_name: 'Lee',
        last_name: 'Ver',
        company_id: summit,
        role_id: crewRole,
      },
    });
    expect(created.status).toBe(201);
    const leaver = ((await created.json()) as { id: string }).id;
    const project = await firstId(
      t,
      'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL LIMIT 1',
      summit,
    );
    const d = device(t, admin);
    const taskId = newId();
    await d.push([
      d.mutation('create', 'tasks', taskId, {
        title: 'Strip formwork',
        category: 'project',
        projectId: project,
        assigneeId: leaver,
      }),
    ]);
    const pulled = await d.pull(0, 5000);
    if ('reset' in pulled.body || pulled.body.hasMore) throw new Error('setup: expected one full page');
    const versionBefore = Number(await cell(t, 'tasks', taskId, 'version'));

    expect((await t.request('DELETE', `/api/rbac/users/${leaver}`, { cookie: admin })).status).toBe(200);

    const after = await d.pull(pulled.body.cursor, 5000);
    if ('reset' in after.body) throw new Error('unexpected reset');
    const change = after.body.changes.find((c) => c.table === 'tasks' && c.id === taskId);
    expect(change).toMatchObject({
      deleted: false,
      data: expect.objectContaining({ assigneeId: null }) as unknown,
    });
    expect(change!.version).toBeGreaterThan(versionBefore);
    expect(after.body.changes).toContainEqual(
      expect.objectContaining({ table: 'users', id: leaver, deleted: true }),
    );
  });
});
