import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import type { PullPage } from '#shared/sync-protocol.ts';
import { hashToken, readSession } from '../auth/session.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { pull } from './pull.ts';
import { cell, device, firstId, projectWithRequests } from './testing.ts';

/**
 * Communications and change orders on the sync lane (issue 12): raised from any device of a role that sees
 * the project, decided by the office, and a decision someone else already took comes back named.
 */

let t: TestApp;
let admin: string;
let manager: string;
let crew: string;
let sub: string;
let summit: string;
let project: string;
let subProject: string;
let otherProject: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, crew, sub] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('manager@summit.test'),
    t.login('crew@summit.test'),
    t.login('sub@summit.test'),
  ]);
  summit = t.companyId('summit.test');
  const subId = await firstId(t, `SELECT id FROM users WHERE email = 'sub@summit.test'`);
  subProject = await firstId(
    t,
    `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active' LIMIT 1`,
    subId,
  );
  otherProject = await firstId(
    t,
    `SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL AND id NOT IN
       (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active')
     ORDER BY id LIMIT 1`,
    summit,
    subId,
  );
  project = subProject;
});
afterAll(() => t?.close());

const userId = async (email: string) => firstId(t, 'SELECT id FROM users WHERE email = ?', email);

async function pullAll(cookie: string) {
  const d = device(t, cookie);
  const { status, body } = await d.pull(0, 5000);
  expect(status).toBe(200);
  return (body as PullPage).changes;
}

const idsIn = (changes: PullPage['changes'], table: string) =>
  new Set(changes.filter((c) => c.table === table).map((c) => c.id));

describe('communications and change orders on the sync lane', () => {
  it('[L14] pull sends the company’s communications and change orders; a subcontractor only its projects’', async () => {
    // Rows of both kinds on a project the subcontractor is not assigned to, and on one it is.
    const d = device(t, admin);
    const hidden = { comm: newId(), order: newId() };
    const shown = { comm: newId(), order: newId() };
    const { body } = await d.push([
      d.mutation('create', 'communications', hidden.comm, {
        projectId: otherProject,
        subject: 'Not for the sub',
        message: 'Office only',
      }),
      d.mutation('create', 'change_orders', hidden.order, {
        projectId: otherProject,
        title: 'Not for the sub',
        description: 'Office only',
      }),
      d.mutation('create', 'communications', shown.comm, {
        projectId: subProject,
        subject: 'For the sub',
        message: 'On its project',
      }),
      d.mutation('create', 'change_orders', shown.order, {
        projectId: subProject,
        title: 'For the sub',
        description: 'On its project',
      }),
    ]);
    expect(body.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);

    const all = async (table: string) =>
      new Set(
        (await t.query<{ id: string }>(`SELECT id FROM ${table} WHERE company_id = ?`, [summit])).map(
          (r) => r.id,
        ),
      );
    const forCrew = await pullAll(crew);
    expect(idsIn(forCrew, 'communications')).toEqual(await all('communications'));
    expect(idsIn(forCrew, 'change_orders')).toEqual(await all('change_orders'));

    const forSub = await pullAll(sub);
    const subComms = idsIn(forSub, 'communications');
    const subOrders = idsIn(forSub, 'change_orders');
    expect(subComms.has(shown.comm)).toBe(true);
    expect(subOrders.has(shown.order)).toBe(true);
    expect(subComms.has(hidden.comm)).toBe(false);
    expect(subOrders.has(hidden.order)).toBe(false);
    // Exactly what the REST lists show the subcontractor.
    const rest = async (path: string) =>
      new Set(
        (
          (await (await t.request('GET', `${path}?limit=500`, { cookie: sub })).json()) as { id: string }[]
        ).map((r) => r.id),
      );
    expect(subComms).toEqual(await rest('/api/communications'));
    expect(subOrders).toEqual(await rest('/api/change-orders'));
  });

  it('[W15] a crew device creates a dispute and a change order, which starts pending whatever it sends', async () => {
    const d = device(t, crew);
    const comm = newId();
    const order = newId();
    const { status, body } = await d.push([
      d.mutation('create', 'communications', comm, {
        projectId: project,
        subject: 'Rebar delivery short',
        message: 'Six bundles missing',
        type: 'dispute',
        priority: 'high',
        status: 'open',
        fromName: 'Someone else',
        createdAt: '2020-01-01T00:00:00.000Z',
      }),
      d.mutation('create', 'change_orders', order, {
        projectId: project,
        title: 'Extra footing',
        description: 'Soft ground at grid C4',
        costImpact: 1999,
        timeImpact: 2,
        status: 'approved',
        approvedBy: await userId('admin@summit.test'),
      }),
    ]);
    expect(status).toBe(200);
    expect(body.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await cell(t, 'communications', comm, 'type')).toBe('dispute');
    expect(await cell(t, 'communications', comm, 'from_user_id')).toBe(await userId('crew@summit.test'));
    expect(await cell(t, 'communications', comm, 'from_name')).not.toBe('Someone else');
    expect(await cell(t, 'change_orders', order, 'status')).toBe('pending');
    expect(await cell(t, 'change_orders', order, 'approved_by')).toBeNull();
    expect(await cell(t, 'change_orders', order, 'cost_impact')).toBe(1999);
    expect(await cell(t, 'change_orders', order, 'requested_by')).toBe(await userId('crew@summit.test'));

    // The manager's device pulls both.
    const changes = await pullAll(manager);
    expect(idsIn(changes, 'communications').has(comm)).toBe(true);
    const pulled = changes.find((c) => c.id === order);
    expect(pulled && !pulled.deleted && pulled.data).toMatchObject({ status: 'pending', costImpact: 1999 });
  });

  it('[W15] refuses a communication on a project the device’s user cannot see', async () => {
    const d = device(t, sub);
    const { body } = await d.push([
      d.mutation('create', 'communications', newId(), {
        projectId: otherProject,
        subject: 'Sneaky',
        message: 'Not my project',
      }),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' });
  });

  it('[W17] a crew or subcontractor decision is refused and changes nothing; REST says 403', async () => {
    const owner = device(t, crew);
    const order = newId();
    await owner.push([
      owner.mutation('create', 'change_orders', order, {
        projectId: project,
        title: 'Crew cannot approve this',
        description: 'Needs the office',
      }),
    ]);
    const version = (await cell(t, 'change_orders', order, 'version')) as number;
    for (const cookie of [crew, sub]) {
      const d = device(t, cookie);
      const { body } = await d.push([
        d.mutation('patch', 'change_orders', order, { status: 'approved' }, { baseVersion: version }),
      ]);
      expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'FORBIDDEN' });
      const rest = await t.request('PATCH', `/api/change-orders/${order}`, {
        cookie,
        body: { status: 'approved' },
      });
      expect(rest.status).toBe(403);
    }
    expect(await cell(t, 'change_orders', order, 'status')).toBe('pending');
    expect(await cell(t, 'change_orders', order, 'version')).toBe(version);
  });

  it('[W16] a decision applies while pending; a second one, made offline, comes back named; REST answers 409', async () => {
    const owner = device(t, crew);
    const order = newId();
    await owner.push([
      owner.mutation('create', 'change_orders', order, {
        projectId: project,
        title: 'Decide me once',
        description: 'Two managers, two devices',
        costImpact: 123456,
      }),
    ]);
    const base = (await cell(t, 'change_orders', order, 'version')) as number;
    // Both office devices saw the request pending; the manager's approval reaches the server first.
    const first = device(t, manager);
    const second = device(t, admin);
    const approve = await first.push([
      first.mutation('patch', 'change_orders', order, { status: 'approved' }, { baseVersion: base }),
    ]);
    expect(approve.body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'change_orders', order, 'status')).toBe('approved');
    expect(await cell(t, 'change_orders', order, 'approved_by')).toBe(await userId('manager@summit.test'));
    const after = (await cell(t, 'change_orders', order, 'version')) as number;
    expect(after).toBeGreaterThan(base);

    // A later clock would win a field under W1 (c); a decision is not a field and must not.
    const stale = await second.push([
      second.mutation(
        'patch',
        'change_orders',
        order,
        { status: 'rejected', reason: 'Too dear' },
        { baseVersion: base, clientTime: t.deps.now().getTime() + 30_000 },
      ),
    ]);
    expect(stale.body.results[0]).toMatchObject({
      status: 'rejected',
      code: 'ALREADY_DECIDED',
      message: 'This change order was already approved by David Okafor',
    });
    expect(await cell(t, 'change_orders', order, 'status')).toBe('approved');
    expect(await cell(t, 'change_orders', order, 'version')).toBe(after);

    const rest = await t.request('PATCH', `/api/change-orders/${order}`, {
      cookie: admin,
      body: { status: 'rejected' },
    });
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({ code: 'ALREADY_DECIDED' });

    // The requester's device pulls the decision.
    const pulled = (await pullAll(crew)).find((c) => c.id === order);
    expect(pulled && !pulled.deleted && pulled.data).toMatchObject({ status: 'approved' });
  });

  it('[W16] a rejection names who rejected it to a later decision', async () => {
    const owner = device(t, crew);
    const order = newId();
    await owner.push([
      owner.mutation('create', 'change_orders', order, {
        projectId: project,
        title: 'Reject me',
        description: 'Then approve me',
      }),
    ]);
    const base = (await cell(t, 'change_orders', order, 'version')) as number;
    const m = device(t, manager);
    await m.push([
      m.mutation('patch', 'change_orders', order, { status: 'rejected' }, { baseVersion: base }),
    ]);
    expect(await cell(t, 'change_orders', order, 'reason')).toBe('Rejected by project manager');
    const a = device(t, admin);
    const { body } = await a.push([
      a.mutation('patch', 'change_orders', order, { status: 'approved' }, { baseVersion: base }),
    ]);
    expect(body.results[0]).toMatchObject({
      code: 'ALREADY_DECIDED',
      message: 'This change order was already rejected by David Okafor',
    });
  });

  it('[W15] REST answers keep the sync bookkeeping (field stamps, tombstone) to themselves', async () => {
    for (const path of ['/api/communications', '/api/change-orders']) {
      const rows = (await (await t.request('GET', path, { cookie: manager })).json()) as object[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).not.toHaveProperty('fieldMeta');
        expect(row).not.toHaveProperty('deletedAt');
      }
    }
  });

  it('[L3][W7] deleting a project deletes its communications and change orders on every device too', async () => {
    const { project: doomed, comm, order } = await projectWithRequests(t, admin, crew, 'Doomed annex');
    const office = device(t, manager);
    const { body: before } = await office.pull(0, 5000);
    const base = (await cell(t, 'change_orders', order, 'version')) as number;
    expect(idsIn((before as PullPage).changes, 'change_orders').has(order)).toBe(true);
    const approvers = await t.query<{ n: number }>(
      `SELECT count(*) AS n FROM notifications WHERE related_entity_id = ? AND is_read = 0`,
      [order],
    );
    expect(approvers[0]!.n).toBeGreaterThan(0);

    expect((await t.request('DELETE', `/api/projects/${doomed}`, { cookie: admin })).status).toBe(200);

    // The manager's device learns both are gone, so its feed no longer offers Approve on a request the
    // server no longer shows anyone.
    const { body: after } = await office.pull((before as PullPage).cursor, 5000);
    const gone = (after as PullPage).changes.filter((c) => c.id === comm || c.id === order);
    expect(gone).toEqual([
      expect.objectContaining({ table: 'communications', id: comm, deleted: true }),
      expect.objectContaining({ table: 'change_orders', id: order, deleted: true }),
    ]);
    // A first download holds none of them either (what the REST lists show).
    const fresh = await pullAll(crew);
    expect(fresh.some((c) => (c.id === comm || c.id === order) && !c.deleted)).toBe(false);
    // A decision taken offline before the device heard of it says the request was deleted.
    const late = await office.push([
      office.mutation('patch', 'change_orders', order, { status: 'approved' }, { baseVersion: base }),
    ]);
    expect(late.body.results[0]).toMatchObject({ status: 'rejected', code: 'ROW_DELETED' });
    expect(await cell(t, 'change_orders', order, 'status')).toBe('pending');
    // Nobody is left with "Change order to review" about it.
    const unread = await t.query<{ n: number }>(
      `SELECT count(*) AS n FROM notifications WHERE related_entity_id = ? AND is_read = 0`,
      [order],
    );
    expect(unread[0]!.n).toBe(0);
  });

  it('[P11] a communication cannot be edited or deleted from a device', async () => {
    const d = device(t, crew);
    const comm = newId();
    await d.push([
      d.mutation('create', 'communications', comm, { projectId: project, subject: 'S', message: 'M' }),
    ]);
    const { body } = await d.push([
      d.mutation('patch', 'communications', comm, { subject: 'Edited' }, { baseVersion: 1 }),
      d.mutation('delete', 'communications', comm),
    ]);
    expect(body.results.map((r) => r.code)).toEqual(['UNSUPPORTED_OP', 'UNSUPPORTED_OP']);
    expect(await cell(t, 'communications', comm, 'subject')).toBe('S');
  });
});

describe('the schema version of an app that predates mirrored communications', () => {
  it('[P2][P15] push from a version-1 app answers 426 and applies nothing', async () => {
    const d = device(t, crew);
    const comm = newId();
    const { status, body } = await d.push(
      [d.mutation('create', 'communications', comm, { projectId: project, subject: 'S', message: 'M' })],
      1,
    );
    expect(status).toBe(426);
    expect(body).toMatchObject({ code: 'SCHEMA_TOO_OLD', minSchemaVersion: 2 });
    expect(await cell(t, 'communications', comm, 'id')).toBeUndefined();
  });

  it('[P15] pull with no schemaVersion or 1 answers 426, with 3 answers 400, with 2 the page', async () => {
    const ask = (v?: string) =>
      t.request('GET', `/api/sync/pull?clientId=${newId()}&cursor=0${v ? `&schemaVersion=${v}` : ''}`, {
        cookie: crew,
      });
    for (const v of [undefined, '1']) {
      const old = await ask(v);
      expect(old.status).toBe(426);
      expect(await old.json()).toMatchObject({ code: 'SCHEMA_TOO_OLD', minSchemaVersion: 2 });
    }
    expect((await ask('3')).status).toBe(400);
    expect((await ask('2')).status).toBe(200);
  });

  it('[P15][L9] an app updated past the tables it skipped downloads again', async () => {
    // The route refuses a version-1 app (above); pull() itself still serves the page such an app got before
    // the refusal existed, and the app skipped the tables it did not know (C6). Once updated, the device
    // must not continue from that page's cursor.
    const token = /sc_session=([^;]+)/.exec(crew)![1]!;
    const user = (await readSession(t.deps, hashToken(token)))!;
    const clientId = newId();
    const pullAs = (cursor: number, schemaVersion: number) =>
      pull(t.database, user, { clientId, cursor, limit: 1000, schemaVersion }, new Date());
    const first = (await pullAs(0, 1)) as PullPage;
    expect(first.changes.length).toBeGreaterThan(0);
    expect(await pullAs(first.cursor, 2)).toEqual({ reset: true, reason: 'scope' });
    const again = (await pullAs(0, 2)) as PullPage;
    expect(again.changes.some((c) => c.table === 'change_orders')).toBe(true);
    expect(await pullAs(again.cursor, 2)).toMatchObject({ changes: [] });
  });
});
