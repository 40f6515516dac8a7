import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import type { PullPage } from '#shared/sync-protocol.ts';
import { repairDeletedProjects } from '../mutators/repair.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { purgeTombstones } from './horizon.ts';
import { device, firstId, projectWithRequests, type Device } from './testing.ts';

/**
 * A database from before deleting a project took its communications and change orders with it (commit
 * e1a245c): the project is a tombstone, its requests are live. The start-up repair (sync/SPEC.md W21)
 * deletes them as deleting the project now does.
 */

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let summit: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, crew] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('manager@summit.test'),
    t.login('crew@summit.test'),
  ]);
  summit = t.companyId('summit.test');
});
afterAll(() => t?.close());

const DAY_MS = 24 * 3600_000;

/**
 * A project with a communication and a pending change order raised from a crew device, then deleted as
 * deleteProject did before e1a245c (the project alone tombstoned, at a new version, `daysAgo` days ago),
 * while `office` kept pulling.
 */
async function deletedTheOldWay(office: Device, cursor: number, daysAgo: number) {
  const { project, comm, order } = await projectWithRequests(
    t,
    admin,
    crew,
    `Old annex ${newId().slice(0, 6)}`,
  );
  const adminId = await firstId(t, `SELECT id FROM users WHERE email = 'admin@summit.test'`);
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  await t.exec('UPDATE companies SET last_version = last_version + 1 WHERE id = ?', [summit]);
  await t.exec(
    `UPDATE projects SET deleted_at = ?, updated_at = ?, updated_by = ?,
       version = (SELECT last_version FROM companies WHERE id = ?) WHERE id = ?`,
    [at, at, adminId, summit, project],
  );
  const { body } = await office.pull(cursor, 5000);
  const page = body as PullPage;
  return { project, comm, order, page };
}

const unreadAbout = async (id: string) =>
  (
    await t.query<{ n: number }>(
      `SELECT count(*) AS n FROM notifications WHERE related_entity_id = ? AND is_read = 0`,
      [id],
    )
  )[0]!.n;

const lastVersion = async () =>
  (await t.query<{ v: number }>('SELECT last_version AS v FROM companies WHERE id = ?', [summit]))[0]!.v;

describe('the start-up repair of deleted projects', () => {
  it('[W21] deletes the communications and change orders a project deleted before e1a245c left behind, once', async () => {
    const office = device(t, manager);
    const start = ((await office.pull(0, 5000)).body as PullPage).cursor;
    const { project, comm, order, page } = await deletedTheOldWay(office, start, 2);
    // The state an old database is in: the project gone from the device, its requests still there.
    expect(page.changes).toContainEqual(expect.objectContaining({ id: project, deleted: true }));
    expect(page.changes).toContainEqual(expect.objectContaining({ id: order, deleted: false }));
    expect(await unreadAbout(order)).toBeGreaterThan(0);

    expect(await repairDeletedProjects(t.database)).toBeGreaterThan(0);

    const { body } = await office.pull(page.cursor, 5000);
    const after = body as PullPage;
    expect(after.changes.filter((c) => c.id === comm || c.id === order)).toEqual([
      expect.objectContaining({ table: 'communications', id: comm, deleted: true }),
      expect.objectContaining({ table: 'change_orders', id: order, deleted: true }),
    ]);
    // Nobody is left with "Change order to review" about it.
    expect(await unreadAbout(order)).toBe(0);
    // A decision taken offline on the orphan says it is gone, as for a project deleted today.
    const late = await office.push([
      office.mutation('patch', 'change_orders', order, { status: 'approved' }),
    ]);
    expect(late.body.results[0]).toMatchObject({ status: 'rejected', code: 'ROW_DELETED' });

    // The next start finds nothing to do and changes nothing: no new version, nothing to pull.
    const version = await lastVersion();
    expect(await repairDeletedProjects(t.database)).toBe(0);
    expect(await lastVersion()).toBe(version);
    expect(((await office.pull(after.cursor, 5000)).body as PullPage).changes).toEqual([]);
  });

  it('[W21] settles "Schedule change requested" left unread about a request deleted with its project', async () => {
    const call = async (method: string, url: string, cookie: string, body?: unknown) =>
      (await (await t.request(method, url, { cookie, body })).json()) as { id: string };
    const project = await call('POST', '/api/projects', admin, { name: 'Old wing', location: 'West' });
    const task = await call('POST', '/api/tasks', admin, { title: 'Old footing', projectId: project.id });
    const change = await call('POST', '/api/schedule-changes', crew, {
      taskId: task.id,
      reason: 'Rain',
      newDate: '2030-04-02',
    });
    expect((await t.request('DELETE', `/api/projects/${project.id}`, { cookie: admin })).status).toBe(200);
    // The state of a database from before deleting settled them: the request gone, its calls unread.
    await t.exec(`UPDATE notifications SET is_read = 0 WHERE related_entity_id = ?`, [change.id]);
    expect(await unreadAbout(change.id)).toBeGreaterThan(0);

    await repairDeletedProjects(t.database);
    expect(await unreadAbout(change.id)).toBe(0);
  });

  it('[W21][L8] a device that missed the repair before the project was purged downloads again', async () => {
    const office = device(t, manager);
    const start = ((await office.pull(0, 5000)).body as PullPage).cursor;
    // Deleted 29 days ago: the repair tombstones its requests the day before the project's purge.
    const { project, comm, page } = await deletedTheOldWay(office, start, 29);
    await repairDeletedProjects(t.database);
    // The purge a day later takes the project and, with it, the requests' fresh tombstones.
    const dayLater = new Date(Date.now() + DAY_MS);
    await purgeTombstones(
      t.database,
      summit,
      new Date(dayLater.getTime() - 30 * DAY_MS).toISOString(),
      dayLater,
    );
    expect(await t.query('SELECT id FROM projects WHERE id = ?', [project])).toEqual([]);
    expect(await t.query('SELECT id FROM communications WHERE id = ?', [comm])).toEqual([]);

    // The device offline meanwhile cannot be told of each deletion any more: it must download again.
    const { body } = await office.pull(page.cursor, 5000);
    expect(body).toMatchObject({ reset: true, reason: 'horizon' });
  });
});
