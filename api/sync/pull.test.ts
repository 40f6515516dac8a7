import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { WIRE_ROW_SCHEMAS } from '#shared/schemas/wire.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import type { PullPage, PulledChange, PulledTable, SyncTable } from '#shared/sync-protocol.ts';
import { eventStreamOptions } from '../routes/sync.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { syncNotifier } from './events.ts';
import { purgeTombstones } from './horizon.ts';
import { device, firstId } from './testing.ts';

let t: TestApp;
let admin: string;
let crew: string;
let sub: string;
let summit: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, crew, sub] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('crew@summit.test'),
    t.login('sub@summit.test'),
  ]);
  summit = t.companyId('summit.test');
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    summit,
  );
});
afterAll(() => t.close());

const lastVersion = async (company = summit) =>
  (await t.query<{ v: number }>('SELECT last_version AS v FROM companies WHERE id = ?', [company]))[0]!.v;

async function idsOf(table: PulledTable, company: string): Promise<Set<string>> {
  return new Set(
    (await t.query<{ id: string }>(`SELECT id FROM ${table} WHERE company_id = ?`, [company])).map(
      (r) => r.id,
    ),
  );
}

async function pullPage(cookie: string, query: string) {
  const res = await t.request('GET', `/api/sync/pull?${query}&schemaVersion=${SCHEMA_VERSION}`, { cookie });
  return {
    status: res.status,
    body: (await res.json()) as PullPage & { reset?: true; reason?: string; code?: string },
  };
}

/** Every change from `cursor` on, page by page. */
async function pullAll(d: ReturnType<typeof device>, cursor = 0, limit = 1000) {
  const changes: PulledChange[] = [];
  for (;;) {
    const { body } = await d.pull(cursor, limit);
    if ('reset' in body) throw new Error(`unexpected reset ${String(body.reason)}`);
    changes.push(...body.changes);
    cursor = body.cursor;
    if (!body.hasMore) return { changes, cursor, last: body };
  }
}

describe('pull', () => {
  it('[L1] refuses a bad cursor, limit or client id with 400', async () => {
    for (const q of [
      'cursor=-1',
      'cursor=abc',
      'cursor=1.5',
      'limit=0',
      'limit=5001',
      'clientId=not-a-uuid',
    ]) {
      const { status, body } = await pullPage(admin, q);
      expect(status, q).toBe(400);
      expect(body.code, q).toBe('VALIDATION_FAILED');
    }
    expect((await pullPage(admin, 'limit=5000')).status).toBe(200);
  });

  it('[L2] lists the company’s changes after the cursor in ascending version order, and nothing else', async () => {
    const { body } = await pullPage(admin, 'cursor=0&limit=5000');
    const versions = body.changes.map((c) => c.version);
    expect(versions.length).toBeGreaterThan(100);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    const harbor = t.companyId('harbor.test');
    for (const c of body.changes) {
      expect((await idsOf(c.table, harbor)).has(c.id)).toBe(false);
    }
    const tables: PulledTable[] = [
      'projects',
      'tasks',
      'project_logs',
      'photos',
      'schedule_changes',
      'communications',
      'change_orders',
      'users',
      'subcontractor_assignments',
    ];
    let total = 0;
    for (const table of tables) total += (await idsOf(table, summit)).size;
    expect(body.changes.length).toBe(total);
    const later = await pullPage(admin, `cursor=${versions[50]}&limit=5000`);
    expect(later.body.changes.map((c) => c.version)).toEqual(versions.slice(51));
  });

  it('[L3] sends rows in camelCase without sync bookkeeping, and tombstones without data', async () => {
    const d = device(t, admin);
    const before = await lastVersion();
    const id = newId();
    await d.push([
      d.mutation('create', 'tasks', id, {
        title: 'Strip forms',
        category: 'project',
        projectId: project,
        isMilestone: true,
      }),
      d.mutation('create', 'project_logs', newId(), { projectId: project, title: 'Pour log', images: [] }),
    ]);
    const { body } = await d.pull(before);
    if ('reset' in body) throw new Error('reset');
    const created = body.changes.find((c) => c.id === id);
    expect(created).toMatchObject({
      table: 'tasks',
      deleted: false,
      data: { id, projectId: project, isMilestone: true },
    });
    if (!created || created.deleted) throw new Error('missing');
    expect(created.data).not.toHaveProperty('fieldMeta');
    expect(created.data).not.toHaveProperty('deletedAt');
    expect(created.data).not.toHaveProperty('project_id');
    const log = body.changes.find((c) => c.table === 'project_logs');
    expect(log && !log.deleted && Array.isArray(log.data.images)).toBe(true);

    const afterCreate = await lastVersion();
    await d.push([d.mutation('delete', 'tasks', id)]);
    const gone = await d.pull(afterCreate);
    if ('reset' in gone.body) throw new Error('reset');
    expect(gone.body.changes).toEqual([{ table: 'tasks', id, version: await lastVersion(), deleted: true }]);
  });

  it('[L3] every row sent parses strictly with its shared wire schema, whoever pulls', async () => {
    for (const cookie of [admin, crew, sub]) {
      const { body } = await pullPage(cookie, 'cursor=0&limit=5000');
      const tables = new Set<string>();
      for (const c of body.changes) {
        if (c.deleted) continue;
        tables.add(c.table);
        const parsed = WIRE_ROW_SCHEMAS[c.table].safeParse(c.data);
        expect(parsed.error?.issues ?? [], `${c.table} ${c.id}`).toEqual([]);
      }
      expect(tables.has('users') && tables.has('tasks')).toBe(true);
    }
  });

  it('[L4] pages with limit and hasMore without skipping or repeating a change', async () => {
    const d = device(t, admin);
    const whole = await pullAll(d, 0, 5000);
    const paged = await pullAll(d, 0, 7);
    expect(paged.changes).toEqual(whole.changes);
    expect(paged.last.hasMore).toBe(false);
    expect(paged.cursor).toBe(await lastVersion());
    const page = await d.pull(0, 7);
    if ('reset' in page.body) throw new Error('reset');
    expect(page.body).toMatchObject({ hasMore: true, cursor: page.body.changes[6]!.version });
    expect(page.body.changes).toHaveLength(7);
    const idle = await d.pull(paged.cursor);
    expect(idle.body).toMatchObject({ changes: [], hasMore: false, cursor: paged.cursor });
  });

  it('[L5] carries the client’s last mutation id and the server’s time', async () => {
    const d = device(t, crew);
    await d.push([
      d.mutation('create', 'tasks', newId(), { title: 'Check levels', category: 'general' }),
      d.mutation('create', 'tasks', newId(), { title: 'Check plumb', category: 'general' }),
    ]);
    t.clock.offsetMs = 3_600_000;
    try {
      const { body } = await d.pull(await lastVersion());
      expect(body).toMatchObject({ lastMutationId: 2 });
      expect(Math.abs((body as PullPage).serverTime - (Date.now() + 3_600_000))).toBeLessThan(5_000);
    } finally {
      t.clock.offsetMs = 0;
    }
    const anonymous = await pullPage(crew, `cursor=${await lastVersion()}`);
    expect(anonymous.body.lastMutationId).toBe(0);
  });

  it('[L11] answers 503 SYNC_UNAVAILABLE with Retry-After to pulls beyond the 256 already waiting', async () => {
    const cursor = await lastVersion();
    const answers = await Promise.all(
      Array.from({ length: 300 }, () =>
        t.request('GET', `/api/sync/pull?cursor=${cursor}&schemaVersion=${SCHEMA_VERSION}`, { cookie: crew }),
      ),
    );
    const refused = answers.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(300 - refused.length);
    for (const res of refused) {
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { code: string }).code).toBe('SYNC_UNAVAILABLE');
    }
  });

  it('[L6] mirrors for every role and synced table exactly the rows the REST lists show', async () => {
    const subId = await firstId(t, `SELECT id FROM users WHERE email = 'sub@summit.test'`);
    // Edge cases of the rule: a task assigned to the subcontractor on a project it is not assigned to, and
    // a project whose assignment ended (its rows must leave the subcontractor's mirror and lists alike).
    const outside = await firstId(
      t,
      `SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL AND id NOT IN
         (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ?) ORDER BY id LIMIT 1`,
      summit,
      subId,
    );
    const d = device(t, admin);
    await d.push([
      d.mutation('create', 'tasks', newId(), {
        title: 'Sub task elsewhere',
        category: 'project',
        projectId: outside,
        assigneeId: subId,
      }),
    ]);
    const ended = await firstId(
      t,
      `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'
       ORDER BY project_id LIMIT 1`,
      subId,
    );
    await t.exec(
      `UPDATE subcontractor_assignments SET status = 'completed' WHERE subcontractor_id = ? AND project_id = ?`,
      [subId, ended],
    );
    const lists: Record<SyncTable, string> = {
      projects: '/api/projects',
      tasks: '/api/tasks',
      project_logs: '/api/logs',
      photos: '/api/photos',
      schedule_changes: '/api/schedule-changes',
      communications: '/api/communications',
      change_orders: '/api/change-orders',
    };
    const manager = await t.login('manager@summit.test');
    const seen: Record<string, number> = {};
    for (const [role, cookie] of Object.entries({ admin, manager, crew, sub })) {
      const { changes } = await pullAll(device(t, cookie), 0, 5000);
      for (const [table, url] of Object.entries(lists) as [SyncTable, string][]) {
        const pulled = changes.filter((c) => c.table === table && !c.deleted).map((c) => c.id);
        const res = await t.request('GET', url, { cookie });
        const listed = res.status === 200 ? ((await res.json()) as { id: string }[]).map((r) => r.id) : [];
        if (res.status !== 200) expect(res.status, `${role} ${url}`).toBe(403);
        expect(pulled.sort(), `${role} ${table}`).toEqual(listed.sort());
        seen[`${role} ${table}`] = listed.length;
      }
    }
    // Not vacuous: each role reads rows of every table it may read, and the subcontractor fewer.
    expect(seen['sub projects']).toBeGreaterThan(0);
    expect(seen['sub photos']).toBeGreaterThan(0);
    expect(seen['sub tasks']).toBeLessThan(seen['crew tasks']!);
    expect(seen['sub projects']).toBeLessThan(seen['crew projects']!);
    await t.exec(
      `UPDATE subcontractor_assignments SET status = 'active' WHERE subcontractor_id = ? AND project_id = ?`,
      [subId, ended],
    );
  });

  it('[L7] resets a cursor that is ahead of the server', async () => {
    const { body } = await device(t, crew).pull((await lastVersion()) + 10);
    expect(body).toEqual({ reset: true, reason: 'ahead' });
  });

  it('[L8] resets a cursor below the tombstone horizon after a purge', async () => {
    const d = device(t, admin);
    const id = newId();
    await d.push([d.mutation('create', 'tasks', id, { title: 'Temporary', category: 'general' })]);
    const beforeDelete = await lastVersion();
    await d.push([d.mutation('delete', 'tasks', id)]);
    const tombstone = await lastVersion();

    const { horizon, purged } = await purgeTombstones(
      t.database,
      summit,
      new Date(Date.now() + 60_000).toISOString(),
    );
    expect(purged).toBeGreaterThan(0);
    expect(horizon).toBeGreaterThanOrEqual(tombstone);
    expect((await d.pull(beforeDelete)).body).toEqual({ reset: true, reason: 'horizon' });
    const fresh = await pullAll(d, 0, 5000);
    expect(fresh.changes.some((c) => c.id === id)).toBe(false);
    expect((await d.pull(horizon)).body).toMatchObject({ hasMore: false });
  });

  it('[L9] resets a subcontractor whose assignments changed since its full download', async () => {
    const subId = await firstId(t, `SELECT id FROM users WHERE email = 'sub@summit.test'`);
    const d = device(t, sub);
    const first = await pullAll(d, 0, 5000);
    const unassigned = await firstId(
      t,
      `SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL AND id NOT IN
         (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active') LIMIT 1`,
      summit,
      subId,
    );
    expect(first.changes.some((c) => c.id === unassigned)).toBe(false);
    await t.exec(
      `INSERT INTO subcontractor_assignments (id, subcontractor_id, project_id, company_id, status, created_at)
       VALUES (?, ?, ?, ?, 'active', ?)`,
      [newId(), subId, unassigned, summit, new Date().toISOString()],
    );
    expect((await d.pull(first.cursor)).body).toEqual({ reset: true, reason: 'scope' });
    const again = await pullAll(d, 0, 5000);
    expect(again.changes.some((c) => c.id === unassigned)).toBe(true);
    expect((await d.pull(again.cursor)).body).toMatchObject({ changes: [], hasMore: false });
    const crewDevice = device(t, crew);
    const crewAll = await pullAll(crewDevice, 0, 5000);
    expect((await crewDevice.pull(crewAll.cursor)).body).toMatchObject({ hasMore: false });
  });
});

/** Reads server-sent events one block at a time. */
function eventReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<string> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return block;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

const versionOf = (block: string) => {
  expect(block).toMatch(/^event: version\n/);
  return (JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { version: number }).version;
};

describe('read-only mirrors', () => {
  const usersOf = (body: PullPage) =>
    new Map(
      body.changes
        .filter((c) => c.table === 'users')
        .map((c) => [c.id, c.deleted ? null : (c.data as Record<string, unknown>)]),
    );
  const userId = async (email: string) => firstId(t, 'SELECT id FROM users WHERE email = ?', email);

  it('[L12] sends every role the company’s people by name, role kind and active flag, never a password', async () => {
    const companyUsers = await idsOf('users', summit);
    for (const cookie of [admin, crew, sub]) {
      const { body } = await pullPage(cookie, 'cursor=0&limit=5000');
      const users = usersOf(body);
      expect(new Set(users.keys())).toEqual(companyUsers);
      const crewRow = users.get(await userId('crew@summit.test'))!;
      expect(Object.keys(crewRow).sort()).toEqual(
        [
          'email',
          'firstName',
          'id',
          'isActive',
          'lastName',
          'name',
          'profileImageUrl',
          'role',
          'version',
        ].sort(),
      );
      expect(crewRow).toMatchObject({ role: 'crew', isActive: true });
      expect(typeof crewRow.name).toBe('string');
      for (const row of users.values()) expect(JSON.stringify(row)).not.toMatch(/password|\$argon2/);
    }
  });

  it('[L12] shows colleagues’ email addresses to office roles only; crew and subcontractors see their own', async () => {
    const adminId = await userId('admin@summit.test');
    const { body: office } = await pullPage(admin, 'cursor=0&limit=5000');
    expect(usersOf(office).get(await userId('crew@summit.test'))!.email).toBe('crew@summit.test');
    for (const [cookie, own] of [
      [crew, 'crew@summit.test'],
      [sub, 'sub@summit.test'],
    ] as const) {
      const users = usersOf((await pullPage(cookie, 'cursor=0&limit=5000')).body);
      expect(users.get(adminId)!.email).toBeNull();
      expect(users.get(await userId(own))!.email).toBe(own);
      const emails = [...users.values()].map((u) => u!.email).filter((e) => e !== null);
      expect(emails).toEqual([own]);
    }
  });

  it('[L15] sends projects’ budget and actual cost to finance readers only; the rest get null, over REST too', async () => {
    const projectsOf = (body: PullPage) =>
      body.changes.flatMap((c) => (c.table === 'projects' && !c.deleted ? [c.data] : []));
    const office = projectsOf((await pullPage(admin, 'cursor=0&limit=5000')).body);
    expect(office.some((p) => typeof p.budget === 'number' && (p.actualCost as number) > 0)).toBe(true);
    for (const cookie of [crew, sub]) {
      const rows = projectsOf((await pullPage(cookie, 'cursor=0&limit=5000')).body);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((p) => [p.budget, p.actualCost])).toEqual(rows.map(() => [null, null]));
      const rest = (await (await t.request('GET', '/api/projects', { cookie })).json()) as Record<
        string,
        unknown
      >[];
      expect(rest.length).toBe(rows.length);
      expect(rest.map((p) => [p.budget, p.actualCost])).toEqual(rest.map(() => [null, null]));
    }
    const restOffice = (await (await t.request('GET', '/api/projects', { cookie: admin })).json()) as {
      budget: number | null;
    }[];
    expect(restOffice.some((p) => typeof p.budget === 'number')).toBe(true);
  });

  it('[L15][L9] a crew role given finance:read downloads again, and then gets the money', async () => {
    const d = device(t, crew);
    const first = await pullAll(d, 0, 5000);
    const crewRole = await firstId(t, `SELECT role_id AS id FROM users WHERE email = 'crew@summit.test'`);
    const finance = await firstId(t, `SELECT id FROM permissions WHERE name = 'finance:read'`);
    await t.exec('INSERT INTO role_permissions (role_id, permission_id) VALUES (?, ?)', [crewRole, finance]);
    try {
      expect((await d.pull(first.cursor)).body).toEqual({ reset: true, reason: 'scope' });
      const again = await pullAll(d, 0, 5000);
      const rows = again.changes.flatMap((c) => (c.table === 'projects' && !c.deleted ? [c.data] : []));
      expect(rows.some((p) => typeof p.budget === 'number')).toBe(true);
    } finally {
      await t.exec('DELETE FROM role_permissions WHERE role_id = ? AND permission_id = ?', [
        crewRole,
        finance,
      ]);
    }
  });

  it('[L12] sends subcontractor assignments: the company’s to the office, only its own to a subcontractor', async () => {
    const assignmentsOf = (body: PullPage) =>
      body.changes.filter((c) => c.table === 'subcontractor_assignments').map((c) => c.id);
    const all = await idsOf('subcontractor_assignments', summit);
    expect(all.size).toBeGreaterThan(0);
    expect(new Set(assignmentsOf((await pullPage(admin, 'cursor=0&limit=5000')).body))).toEqual(all);
    const subId = await userId('sub@summit.test');
    const own = (
      await t.query<{ id: string }>('SELECT id FROM subcontractor_assignments WHERE subcontractor_id = ?', [
        subId,
      ])
    ).map((r) => r.id);
    expect(own.length).toBeGreaterThan(0);
    const { body } = await pullPage(sub, 'cursor=0&limit=5000');
    expect(assignmentsOf(body).sort()).toEqual(own.sort());
    const row = body.changes.find((c) => c.table === 'subcontractor_assignments' && !c.deleted);
    expect(row && !row.deleted && row.data.subcontractorId).toBe(subId);
  });

  it('[L12] a new, renamed, deactivated or deleted user reaches a device from its cursor', async () => {
    const start = (await pullPage(admin, 'cursor=0&limit=5000')).body.cursor;
    // NULLS LAST: SQLite's order for DESC, which PostgreSQL reverses by default (the company's own role first).
    const roleId = (
      await t.query<{ id: number }>(
        "SELECT id FROM roles WHERE kind = 'crew' AND (company_id = ? OR company_id IS NULL) ORDER BY company_id DESC NULLS LAST",
        [summit],
      )
    )[0]!.id;
    const created = await t.request('POST', '/api/rbac/users', {
      cookie: admin,
      body: {
        email: 'newhand@summit.test',
        first_name: 'New',
        last_name: 'Hand',
        company_id: summit,
        role_id: roleId,
      },
    });
    expect(created.status).toBe(201);
    const id = await userId('newhand@summit.test');
    let page = (await pullPage(crew, `cursor=${start}&limit=5000`)).body;
    expect(usersOf(page).get(id)).toMatchObject({ name: 'New Hand', isActive: true, email: null });

    const renamed = await t.request('PATCH', `/api/rbac/users/${id}`, {
      cookie: admin,
      body: { first_name: 'Newer', is_active: false },
    });
    expect(renamed.status).toBe(200);
    page = (await pullPage(crew, `cursor=${page.cursor}&limit=5000`)).body;
    expect([...usersOf(page).keys()]).toEqual([id]);
    expect(usersOf(page).get(id)).toMatchObject({ name: 'Newer Hand', firstName: 'Newer', isActive: false });

    expect((await t.request('DELETE', `/api/rbac/users/${id}`, { cookie: admin })).status).toBe(200);
    page = (await pullPage(crew, `cursor=${page.cursor}&limit=5000`)).body;
    const gone = page.changes.filter((c) => c.table === 'users');
    expect(gone).toEqual([{ table: 'users', id, version: expect.any(Number) as number, deleted: true }]);
    expect((await pullPage(crew, `cursor=${page.cursor}&limit=5000`)).body.changes).toEqual([]);
  });
});

describe('read-only mirror tombstones', () => {
  it('[L12][L8] a deleted user’s tombstone is purged with the others and raises the horizon', async () => {
    // NULLS LAST: SQLite's order for DESC, which PostgreSQL reverses by default.
    const roleId = (
      await t.query<{ id: number }>(
        "SELECT id FROM roles WHERE kind = 'crew' ORDER BY company_id DESC NULLS LAST",
      )
    )[0]!.id;
    const created = await t.request('POST', '/api/rbac/users', {
      cookie: admin,
      body: {
        email: 'brief@summit.test',
        first_name: 'Brief',
        last_name: 'Stay',
        company_id: summit,
        role_id: roleId,
      },
    });
    const id = ((await created.json()) as { id: string }).id;
    const before = await lastVersion();
    expect((await t.request('DELETE', `/api/rbac/users/${id}`, { cookie: admin })).status).toBe(200);
    const tombstone = await lastVersion();
    expect(tombstone).toBeGreaterThan(before);
    const { horizon } = await purgeTombstones(
      t.database,
      summit,
      new Date(Date.now() + 60_000).toISOString(),
    );
    expect(horizon).toBeGreaterThanOrEqual(tombstone);
    expect(
      (await t.query<{ n: number }>('SELECT count(*) AS n FROM sync_tombstones WHERE row_id = ?', [id]))[0]!
        .n,
    ).toBe(0);
    expect((await pullPage(admin, `cursor=${before}&limit=5000`)).body).toEqual({
      reset: true,
      reason: 'horizon',
    });
  });
});

describe('events', () => {
  it('[L10] streams the company’s latest version on connect and after each commit', async () => {
    const res = await t.request('GET', '/api/sync/events', { cookie: crew });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventReader(res);
    expect(versionOf(await events.next())).toBe(await lastVersion());

    const d = device(t, crew);
    await d.push([d.mutation('create', 'tasks', newId(), { title: 'Poke me', category: 'general' })]);
    expect(versionOf(await events.next())).toBe(await lastVersion());

    const rest = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title: 'Via REST', category: 'general' },
    });
    expect(rest.status).toBe(201);
    expect(versionOf(await events.next())).toBe(await lastVersion());

    const harbor = eventReader(
      await t.request('GET', '/api/sync/events', { cookie: await t.login('admin@harbor.test') }),
    );
    expect(versionOf(await harbor.next())).toBe(await lastVersion(t.companyId('harbor.test')));
    await harbor.cancel();

    expect(syncNotifier(t.database).listenerCount(summit)).toBe(1);
    await events.cancel();
    await new Promise((r) => setTimeout(r, 10));
    expect(syncNotifier(t.database).listenerCount(summit)).toBe(0);
  });

  it('[L10] sends a heartbeat comment while nothing changes', async () => {
    const saved = eventStreamOptions.heartbeatMs;
    eventStreamOptions.heartbeatMs = 20;
    try {
      const events = eventReader(await t.request('GET', '/api/sync/events', { cookie: crew }));
      versionOf(await events.next());
      expect(await events.next()).toBe(': ping');
      await events.cancel();
    } finally {
      eventStreamOptions.heartbeatMs = saved;
    }
  });
});
