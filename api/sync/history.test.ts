import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import type { RowHistory } from '#shared/sync-protocol.ts';
import { cell, device, firstId } from './testing.ts';

// Issue 9 item 3: the person whose value a later offline edit replaced is told, and every synced record
// has a History with the replaced values, restorable by an ordinary synced patch.

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let sub: string;
let harborAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, crew, sub, harborAdmin] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('manager@summit.test'),
    t.login('crew@summit.test'),
    t.login('sub@summit.test'),
    t.login('admin@harbor.test'),
  ]);
});
afterAll(() => t.close());

const userId = async (email: string) => firstId(t, 'SELECT id FROM users WHERE email = ?', email);
const displayName = async (email: string) => {
  const [u] = await t.query<{ f: string; l: string }>(
    'SELECT first_name AS f, last_name AS l FROM users WHERE email = ?',
    [email],
  );
  return `${u!.f} ${u!.l}`;
};

interface Notification {
  title: string;
  message: string;
  type: string;
  relatedEntityType: string | null;
  relatedEntityId: string | null;
}

async function notificationsOf(cookie: string, rowId: string): Promise<Notification[]> {
  const res = await t.request('GET', '/api/notifications', { cookie });
  return ((await res.json()) as Notification[]).filter((n) => n.relatedEntityId === rowId);
}

/** A project of Summit made by a device of its own, so no field stamps belong to the devices under test. */
async function freshProject(name: string) {
  const setup = device(t, admin);
  const id = newId();
  const { body } = await setup.push([
    setup.mutation('create', 'projects', id, { name, location: 'Portland', description: 'Original scope' }),
  ]);
  return { id, version: body.results[0]!.version! };
}

/**
 * The scenario: the admin, online, sets the description; the manager, offline since before that,
 * changed the same field later on the device, and pushes on reconnect: the manager's value wins (SPEC W1 c).
 */
async function offlineEditWins(name: string) {
  const row = await freshProject(name);
  const adminDevice = device(t, admin);
  const managerDevice = device(t, manager);
  const t0 = t.deps.now().getTime();
  const online = await adminDevice.push([
    adminDevice.mutation(
      'patch',
      'projects',
      row.id,
      { description: 'Pour on Friday' },
      { baseVersion: row.version, clientTime: t0 - 10 * 60_000 },
    ),
  ]);
  expect(online.body.results[0]).toMatchObject({ status: 'applied' });
  const offline = await managerDevice.push([
    managerDevice.mutation(
      'patch',
      'projects',
      row.id,
      { description: 'Pour on Monday' },
      { baseVersion: row.version, clientTime: t0 - 5 * 60_000 },
    ),
  ]);
  expect(offline.body.results[0]).toMatchObject({ status: 'applied' });
  expect(await cell(t, 'projects', row.id, 'description')).toBe('Pour on Monday');
  return { row, adminDevice, managerDevice, offlineAt: new Date(t0 - 5 * 60_000) };
}

describe('a replaced value is never lost unseen', () => {
  it('[W11] notifies the user whose value a later offline edit replaced: who, record, field, old and new value, when', async () => {
    const { row, offlineAt } = await offlineEditWins('Harbor Annex');
    const [n, ...more] = await notificationsOf(admin, row.id);
    expect(more).toEqual([]);
    expect(n).toMatchObject({ type: 'warning', relatedEntityType: 'project', relatedEntityId: row.id });
    expect(n!.title).toBe('Your description was replaced');
    expect(n!.message).toContain(await displayName('manager@summit.test'));
    expect(n!.message).toContain('project "Harbor Annex"');
    expect(n!.message).toContain('from "Pour on Friday" to "Pour on Monday"');
    const when = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
      timeZone: 'UTC',
    }).format(offlineAt);
    expect(n!.message).toContain(`in an edit made on ${when} UTC`);
    // The winner is not told about its own win, and nobody else hears of it.
    expect(await notificationsOf(manager, row.id)).toEqual([]);
    expect(await notificationsOf(crew, row.id)).toEqual([]);
  });

  it("[W11] notifies the author of a value set over REST when that write was the row's last one", async () => {
    const row = await freshProject('Office Edit');
    const rest = await t.request('PATCH', `/api/projects/${row.id}`, {
      cookie: admin,
      body: { location: 'Set in the office' },
    });
    expect(rest.status).toBe(200);
    const later = t.deps.now().getTime() + 30_000;
    const m = device(t, manager);
    const { body } = await m.push([
      m.mutation(
        'patch',
        'projects',
        row.id,
        { location: 'Set on site' },
        { baseVersion: row.version, clientTime: later },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    const [n] = await notificationsOf(admin, row.id);
    expect(n?.title).toBe('Your location was replaced');
    expect(n?.message).toContain('from "Set in the office" to "Set on site"');
  });

  it('[W11] does not notify anyone when the field was not changed by someone else since the base version', async () => {
    const row = await freshProject('Quiet Yard');
    const a = device(t, manager);
    await a.push([
      a.mutation('patch', 'projects', row.id, { description: 'x' }, { baseVersion: row.version }),
    ]);
    expect(await notificationsOf(admin, row.id)).toEqual([]);
  });

  it('[W11] does not notify a user about their own value replaced from their other device', async () => {
    const row = await freshProject('Two Phones');
    const desk = device(t, admin);
    const phone = device(t, admin);
    const t0 = t.deps.now().getTime();
    await desk.push([
      desk.mutation(
        'patch',
        'projects',
        row.id,
        { location: 'Desk' },
        { baseVersion: row.version, clientTime: t0 - 60_000 },
      ),
    ]);
    await phone.push([
      phone.mutation(
        'patch',
        'projects',
        row.id,
        { location: 'Phone' },
        { baseVersion: row.version, clientTime: t0 },
      ),
    ]);
    expect(await cell(t, 'projects', row.id, 'location')).toBe('Phone');
    expect(await notificationsOf(admin, row.id)).toEqual([]);
  });

  it('[W12] the History of the record lists the replaced value with who set it and who replaced it, and its activities', async () => {
    const { row } = await offlineEditWins('Riverside Lofts');
    const res = await t.request('GET', `/api/sync/history?table=projects&rowId=${row.id}`, { cookie: admin });
    expect(res.status).toBe(200);
    const history = (await res.json()) as RowHistory;
    const replaced = history.entries.filter((e) => e.kind === 'replaced');
    expect(replaced).toEqual([
      expect.objectContaining({
        field: 'description',
        replacedValue: 'Pour on Friday',
        keptValue: 'Pour on Monday',
        replacedBy: { id: await userId('admin@summit.test'), name: await displayName('admin@summit.test') },
        keptBy: { id: await userId('manager@summit.test'), name: await displayName('manager@summit.test') },
      }),
    ]);
    const activities = history.entries.filter((e) => e.kind === 'activity').map((e) => e.actionType);
    expect(activities).toEqual(['project_updated', 'project_updated', 'project_created']);
    // The crew, who may read projects, sees the same History.
    expect(
      (await t.request('GET', `/api/sync/history?table=projects&rowId=${row.id}`, { cookie: crew })).status,
    ).toBe(200);
  });

  it('[W12] Restore is an ordinary synced patch of that one field, and wins as the newest edit', async () => {
    const { row, adminDevice } = await offlineEditWins('Depot Yard');
    const version = Number(await cell(t, 'projects', row.id, 'version'));
    const { body } = await adminDevice.push([
      adminDevice.mutation(
        'patch',
        'projects',
        row.id,
        { description: 'Pour on Friday' },
        { baseVersion: version },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'projects', row.id, 'description')).toBe('Pour on Friday');
  });

  it('[W12] answers the History only for a row the caller may read: 404 for another company or an unassigned subcontractor', async () => {
    const { row } = await offlineEditWins('Hidden Works');
    const url = `/api/sync/history?table=projects&rowId=${row.id}`;
    const other = await t.request('GET', url, { cookie: harborAdmin });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.request('GET', url, { cookie: sub })).status).toBe(404);
    const missing = await t.request('GET', `/api/sync/history?table=tasks&rowId=${row.id}`, {
      cookie: admin,
    });
    expect(missing.status).toBe(404);
  });

  it('refuses a bad table or row id with 400 and a message', async () => {
    const bad = await t.request('GET', `/api/sync/history?table=invoices&rowId=${newId()}`, {
      cookie: admin,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noId = await t.request('GET', '/api/sync/history?table=projects&rowId=42', { cookie: admin });
    expect(noId.status).toBe(400);
    expect((await noId.json()) as { message: string }).toMatchObject({
      message: expect.stringMatching(/Row id/),
    });
  });
});
