import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { MAX_CLOCK_AHEAD_MS } from '#shared/sync-protocol.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import type { ConflictEntry } from './conflicts.ts';
import { cell, device, firstId } from './testing.ts';

let t: TestApp;
let admin: string;
let crew: string;
let manager: string;
let sub: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, crew, manager, sub] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('crew@summit.test'),
    t.login('manager@summit.test'),
    t.login('sub@summit.test'),
  ]);
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('summit.test'),
  );
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.offsetMs = 0;
});

const now = () => t.deps.now().getTime();

/** A task made by a device of its own, so its field stamps are not those of the devices under test. */
async function freshTask(): Promise<{ id: string; version: number }> {
  const setup = device(t, admin);
  const id = newId();
  const { body } = await setup.push([
    setup.mutation('create', 'tasks', id, {
      title: 'Set out grid lines',
      category: 'project',
      projectId: project,
    }),
  ]);
  return { id, version: body.results[0]!.version! };
}

/** The row's conflict history in the order it was written (ids are UUIDv7, made in creation order). */
async function history(rowId: string) {
  return t.query<{
    field: string;
    kept: string;
    overwritten: string;
    keptClient: string;
    overwrittenClient: string;
  }>(
    `SELECT field, kept_value AS kept, overwritten_value AS overwritten, kept_client_id AS "keptClient",
       overwritten_client_id AS "overwrittenClient" FROM sync_conflicts WHERE row_id = ? ORDER BY created_at, id`,
    [rowId],
  );
}

const fieldMeta = async (id: string) =>
  JSON.parse(String(await cell(t, 'tasks', id, 'field_meta'))) as Record<string, [number, number, string]>;

describe('per-field last writer wins', () => {
  it('[W1] applies a patch made on the current version', async () => {
    const row = await freshTask();
    const a = device(t, crew);
    const { body } = await a.push([
      a.mutation('patch', 'tasks', row.id, { title: 'Grid A-F' }, { baseVersion: row.version }),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(body.results[0]!.conflicts).toBeUndefined();
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Grid A-F');
    expect(await history(row.id)).toEqual([]);
  });

  it('[W1] keeps both concurrent edits of different fields, whatever their times', async () => {
    const row = await freshTask();
    const a = device(t, crew);
    const b = device(t, manager);
    await a.push([a.mutation('patch', 'tasks', row.id, { title: 'Grid A-H' }, { baseVersion: row.version })]);
    const { body } = await b.push([
      b.mutation(
        'patch',
        'tasks',
        row.id,
        { priority: 'critical' },
        { baseVersion: row.version, clientTime: now() - 3_600_000 },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Grid A-H');
    expect(await cell(t, 'tasks', row.id, 'priority')).toBe('critical');
  });

  it('[W1] on the same field the later time wins and the earlier loses, both kept in the history', async () => {
    const row = await freshTask();
    const T = now();
    const [a, b, c] = [device(t, crew), device(t, manager), device(t, admin)];
    const opts = (dt: number) => ({ baseVersion: row.version, clientTime: T + dt });
    await a.push([a.mutation('patch', 'tasks', row.id, { title: 'From A' }, opts(1000))]);
    const later = await b.push([b.mutation('patch', 'tasks', row.id, { title: 'From B' }, opts(2000))]);
    expect(later.body.results[0]).toMatchObject({ status: 'applied' });

    const earlier = await c.push([
      c.mutation('patch', 'tasks', row.id, { title: 'From C', priority: 'low' }, opts(1500)),
    ]);
    expect(earlier.body.results[0]).toMatchObject({
      status: 'partially_applied',
      conflicts: [{ field: 'title', kept: 'From B', yours: 'From C' }],
    });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('From B');
    expect(await cell(t, 'tasks', row.id, 'priority')).toBe('low');
    expect(await history(row.id)).toEqual([
      {
        field: 'title',
        kept: '"From B"',
        overwritten: '"From A"',
        keptClient: b.clientId,
        overwrittenClient: a.clientId,
      },
      {
        field: 'title',
        kept: '"From B"',
        overwritten: '"From C"',
        keptClient: b.clientId,
        overwrittenClient: c.clientId,
      },
    ]);
  });

  it('[W1] an earlier write of the same device is never a conflict, even with an older clock', async () => {
    const row = await freshTask();
    const a = device(t, crew);
    await a.push([a.mutation('patch', 'tasks', row.id, { title: 'Mine 1' }, { baseVersion: row.version })]);
    const { body } = await a.push([
      a.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'Mine 2' },
        { baseVersion: row.version, clientTime: now() - 600_000 },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Mine 2');
    expect(await history(row.id)).toEqual([]);
  });

  it('[W2] clamps a clock a year ahead, so a real edit made after the window beats it', async () => {
    const row = await freshTask();
    const fast = device(t, crew);
    const pushedAt = now();
    const yearAhead = pushedAt + 365 * 86_400_000;
    const first = await fast.push([
      fast.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'From the future' },
        { baseVersion: row.version, clientTime: yearAhead },
      ),
    ]);
    expect(first.body.results[0]).toMatchObject({ status: 'applied' });
    expect((await fieldMeta(row.id)).title![1]).toBeLessThanOrEqual(
      t.deps.now().getTime() + MAX_CLOCK_AHEAD_MS,
    );

    t.clock.offsetMs = 2 * 60_000;
    const honest = device(t, manager);
    const { body } = await honest.push([
      honest.mutation('patch', 'tasks', row.id, { title: 'Real edit' }, { baseVersion: row.version }),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Real edit');
  });

  it('[W3] equal times keep the value the server already has', async () => {
    const row = await freshTask();
    const T = now();
    const [a, b] = [device(t, crew), device(t, manager)];
    await a.push([
      a.mutation('patch', 'tasks', row.id, { title: 'Tie A' }, { baseVersion: row.version, clientTime: T }),
    ]);
    const { body } = await b.push([
      b.mutation('patch', 'tasks', row.id, { title: 'Tie B' }, { baseVersion: row.version, clientTime: T }),
    ]);
    expect(body.results[0]).toMatchObject({
      status: 'partially_applied',
      conflicts: [{ field: 'title', kept: 'Tie A' }],
    });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Tie A');
  });

  it('[W4] a losing value equal to the kept one is not a conflict', async () => {
    const row = await freshTask();
    const T = now();
    const [a, b] = [device(t, crew), device(t, manager)];
    await a.push([
      a.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'Same' },
        { baseVersion: row.version, clientTime: T + 5000 },
      ),
    ]);
    const { body } = await b.push([
      b.mutation('patch', 'tasks', row.id, { title: 'Same' }, { baseVersion: row.version, clientTime: T }),
    ]);
    expect(body.results[0]).toEqual({ id: 1, status: 'applied', version: expect.any(Number) as number });
    expect(await history(row.id)).toEqual([]);
  });

  it('[W5] serves the history to the row’s company only, and to a subcontractor only its own', async () => {
    const row = await freshTask();
    const [a, b] = [device(t, crew), device(t, manager)];
    const T = now();
    await a.push([
      a.mutation('patch', 'tasks', row.id, { title: 'Kept' }, { baseVersion: row.version, clientTime: T }),
    ]);
    await b.push([
      b.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'Lost' },
        { baseVersion: row.version, clientTime: T - 1 },
      ),
    ]);

    const url = `/api/sync/conflicts?table=tasks&rowId=${row.id}`;
    const mine = await t.request('GET', url, { cookie: admin });
    expect(mine.status).toBe(200);
    const entries = (await mine.json()) as ConflictEntry[];
    expect(entries).toMatchObject([
      {
        table: 'tasks',
        rowId: row.id,
        field: 'title',
        keptValue: 'Kept',
        overwrittenValue: 'Lost',
        keptClientId: a.clientId,
      },
    ]);
    const harbor = await t.request('GET', url, { cookie: await t.login('admin@harbor.test') });
    expect(await harbor.json()).toEqual([]);
    const subs = (await (
      await t.request('GET', '/api/sync/conflicts', { cookie: sub })
    ).json()) as ConflictEntry[];
    expect(subs).toEqual([]);
    expect((await t.request('GET', '/api/sync/conflicts?table=invoices', { cookie: admin })).status).toBe(
      400,
    );
  });

  it('[W6] a delete wins over a concurrent edit, which is rejected ROW_DELETED', async () => {
    const row = await freshTask();
    const [a, b] = [device(t, admin), device(t, crew)];
    const del = await a.push([
      a.mutation('delete', 'tasks', row.id, {}, { baseVersion: row.version, clientTime: now() - 60_000 }),
    ]);
    expect(del.body.results[0]).toMatchObject({ status: 'applied' });
    const { body } = await b.push([
      b.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'Edited offline' },
        { baseVersion: row.version, clientTime: now() },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'ROW_DELETED' });
    expect(await cell(t, 'tasks', row.id, 'title')).toBe('Set out grid lines');
    const again = await a.push([a.mutation('delete', 'tasks', row.id)]);
    expect(again.body.results[0]).toEqual({
      id: 2,
      status: 'applied',
      version: del.body.results[0]!.version,
    });
  });

  it('[W7] a create or move under a deleted parent is rejected PARENT_DELETED', async () => {
    const boss = device(t, admin);
    const parent = newId();
    const row = await freshTask();
    await boss.push([
      boss.mutation('create', 'projects', parent, { name: 'Demolished', location: 'Lot 9' }),
      boss.mutation('delete', 'projects', parent),
    ]);
    const field = device(t, crew);
    const { body } = await field.push([
      field.mutation('create', 'tasks', newId(), { title: 'Orphan', category: 'project', projectId: parent }),
      field.mutation('create', 'project_logs', newId(), { projectId: parent, title: 'Daily report' }),
      field.mutation('patch', 'tasks', row.id, { projectId: parent }, { baseVersion: row.version }),
    ]);
    expect(body.results.map((r) => r.code)).toEqual(['PARENT_DELETED', 'PARENT_DELETED', 'PARENT_DELETED']);
    expect(await cell(t, 'tasks', row.id, 'project_id')).toBe(project);
  });

  it('[W8] a create sent again by the same device is applied once; by another device it is a conflict', async () => {
    const a = device(t, crew);
    const id = newId();
    const data = { title: 'Order formwork', category: 'project', projectId: project };
    const first = await a.push([a.mutation('create', 'tasks', id, data)]);
    const again = await a.push([a.mutation('create', 'tasks', id, data)]);
    expect(again.body.results[0]).toEqual({
      id: 2,
      status: 'applied',
      version: first.body.results[0]!.version,
    });
    const b = device(t, manager);
    const other = await b.push([b.mutation('create', 'tasks', id, data)]);
    expect(other.body.results[0]).toMatchObject({ status: 'rejected', code: 'CONFLICT' });
  });

  it('[W9] fields a mutator derives are stamped as the device’s writes', async () => {
    const row = await freshTask();
    const a = device(t, crew);
    await a.push([
      a.mutation('patch', 'tasks', row.id, { status: 'completed' }, { baseVersion: row.version }),
    ]);
    expect(await cell(t, 'tasks', row.id, 'completed_at')).not.toBeNull();
    expect((await fieldMeta(row.id)).completedAt![2]).toBe(a.clientId);
  });

  it('[W10] a REST edit takes part like a device, stamped as the server', async () => {
    const row = await freshTask();
    const before = now();
    const rest = await t.request('PATCH', `/api/tasks/${row.id}`, {
      cookie: admin,
      body: { title: 'Office edit' },
    });
    expect(rest.status).toBe(200);
    expect((await fieldMeta(row.id)).title![2]).toBe('server');
    const a = device(t, crew);
    const { body } = await a.push([
      a.mutation(
        'patch',
        'tasks',
        row.id,
        { title: 'Field edit' },
        { baseVersion: row.version, clientTime: before - 1000 },
      ),
    ]);
    expect(body.results[0]).toMatchObject({
      status: 'partially_applied',
      conflicts: [{ field: 'title', kept: 'Office edit' }],
    });
    expect((await history(row.id))[0]).toMatchObject({ keptClient: 'server', overwrittenClient: a.clientId });
  });
});
