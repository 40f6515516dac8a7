import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { firstId } from '../sync/testing.ts';
import { publicRow } from './core.ts';
import { statements } from './statements.ts';

// The rows a write answers with are built from what was written (ADR 020, round 4) rather than read back:
// they must be exactly the rows a read returns afterwards.
let t: TestApp;
let admin: string;
let project: string;
let company: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  company = t.companyId('summit.test');
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    company,
  );
});
afterAll(() => t.close());

const storedTask = async (id: string) =>
  (await t.orm((db) => db.select().from(schema.tasks).where(eq(schema.tasks.id, id)).get()))!;
const storedLog = async (id: string) =>
  (await t.orm((db) => db.select().from(schema.projectLogs).where(eq(schema.projectLogs.id, id)).get()))!;
const storedProject = async (id: string) =>
  (await t.orm((db) => db.select().from(schema.projects).where(eq(schema.projects.id, id)).get()))!;

describe('rows answered by writes', () => {
  it('a created and then patched task answers with the row as stored (booleans, reals, nulls, defaults)', async () => {
    const created = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title: 'Set anchors', projectId: project, isMilestone: true, estimatedHours: 2.5 },
    });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string };
    expect(task).toEqual(publicRow(await storedTask(task.id)));

    const patched = await t.request('PATCH', `/api/tasks/${task.id}`, {
      cookie: admin,
      body: { status: 'completed', estimatedHours: 4, description: null, isMilestone: false },
    });
    expect(patched.status).toBe(200);
    const after = (await patched.json()) as Record<string, unknown>;
    expect(after).toEqual(publicRow(await storedTask(task.id)));
    expect(after.completedAt).toEqual(expect.any(String));
  });

  it('a log with images (a JSON column) answers as stored, on create and on patch', async () => {
    const created = await t.request('POST', '/api/logs', {
      cookie: admin,
      body: { projectId: project, title: 'Pour day', content: 'Level 2 deck' },
    });
    expect(created.status).toBe(201);
    const log = (await created.json()) as { id: string; images: unknown };
    expect(log.images).toEqual([]);
    expect(log).toEqual(publicRow(await storedLog(log.id)));

    const patched = await t.request('PATCH', `/api/logs/${log.id}`, {
      cookie: admin,
      body: { status: 'closed', title: 'Pour day — done' },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual(publicRow(await storedLog(log.id)));
  });

  it('a project patch answers with the row as stored', async () => {
    const patched = await t.request('PATCH', `/api/projects/${project}`, {
      cookie: admin,
      body: { progress: 37 },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual(publicRow(await storedProject(project)));
  });

  it('a value SQLite stores converted (a number in a text column) answers as SQLite stored it', async () => {
    const rows = statements.rows.tasks;
    const id = newId();
    const at = new Date().toISOString();
    const written = await t.database.writeTx(company, (c) =>
      rows.insert(c.sql, {
        id,
        title: 42 as unknown as string,
        companyId: company,
        createdAt: at,
        updatedAt: at,
        fieldMeta: {},
      }),
    );
    // SQLite binds the number as a double and stores its text form, '42.0': not what was sent. PostgreSQL
    // stores the number's text as sent ('42'); on either the write answers with what was stored.
    expect(written.title).toBe(t.backend === 'sqlite' ? '42.0' : '42');
    expect(written).toEqual(await storedTask(id));

    const current = await storedTask(id);
    const updated = await t.database.writeTx(company, (c) =>
      rows.update(c.sql, id, company, { description: 7 as unknown as string, version: 1 }, current),
    );
    expect(updated!.description).toBe(t.backend === 'sqlite' ? '7.0' : '7');
    expect(updated).toEqual(await storedTask(id));
  });
});
