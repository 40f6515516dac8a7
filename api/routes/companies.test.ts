import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { DOMAIN_TIMESTAMP_DIGITS } from '#shared/rules/company-domain.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let summit: string;
let harbor: string;
let root: string;
let admin: string;
let crew: string;

beforeAll(async () => {
  t = await createTestApp();
  summit = t.companyId('summit.test');
  harbor = t.companyId('harbor.test');
  root = await t.login('root@sitecommand.test');
  admin = await t.login('admin@summit.test');
  crew = await t.login('crew@summit.test');
});
afterAll(() => t.close());

async function call(cookie: string, method: string, url: string, body?: unknown) {
  const res = await t.request(method, url, { cookie, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The first row of a statement, on whichever database the app runs. */
const first = async <R>(sql: string, params: unknown[] = []) => (await t.query<R>(sql, params))[0];

describe('GET /api/companies', () => {
  it('shows root every company, the platform company included, with settings and user counts', async () => {
    const res = await call(root, 'GET', '/api/companies');
    expect(res.status).toBe(200);
    const ids = res.body.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([PLATFORM_COMPANY_ID, summit, harbor]));
    const s = res.body.find((c: { id: string }) => c.id === summit);
    expect(Object.keys(s).sort()).toEqual([
      'created_at',
      'domain',
      'id',
      'is_active',
      'name',
      'settings',
      'status',
      'time_zone',
      'user_count',
    ]);
    expect(Object.keys(s.settings).sort()).toEqual(['subscription_tier', 'type']);
    expect(s).toMatchObject({ domain: 'summit.test', status: 'active', is_active: true });
    const users = await first<{ n: number }>('SELECT count(*) AS n FROM users WHERE company_id = ?', [
      summit,
    ]);
    expect(s.user_count).toBe(users?.n);
    expect(s.user_count).toBeGreaterThanOrEqual(4);
  });

  it('shows a company admin only its own company', async () => {
    const res = await call(admin, 'GET', '/api/companies');
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: string }) => c.id)).toEqual([summit]);
  });

  it('refuses crew with 403', async () => {
    expect((await call(crew, 'GET', '/api/companies')).status).toBe(403);
  });
});

describe('POST /api/companies', () => {
  it('creates a company; a blank domain is generated from the name and the time', async () => {
    const res = await call(root, 'POST', '/api/companies', {
      name: 'Apex Steel & Concrete',
      domain: '',
      settings: { type: 'partner', subscription_tier: 'professional' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Apex Steel & Concrete',
      status: 'active',
      is_active: true,
      user_count: 0,
      settings: { type: 'partner', subscription_tier: 'professional' },
    });
    // 'apexsteelcon' (12 characters) + the last 8 digits of the creation time + the product suffix.
    const stamp = String(Date.parse(res.body.created_at)).slice(-DOMAIN_TIMESTAMP_DIGITS);
    expect(res.body.domain).toBe(`apexsteelcon${stamp}.sitecommand.app`);
    const listed = await call(root, 'GET', '/api/companies');
    expect(listed.body.map((c: { id: string }) => c.id)).toContain(res.body.id);
  });

  it('keeps a given domain (lowercased) and defaults the settings to a basic customer', async () => {
    const res = await call(root, 'POST', '/api/companies', {
      name: 'Keel Marine',
      domain: 'Keel-Marine.example',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      domain: 'keel-marine.example',
      settings: { type: 'customer', subscription_tier: 'basic' },
    });
  });

  it('says "Company name is required" when the name is blank (400)', async () => {
    const res = await call(root, 'POST', '/api/companies', { name: '  ', domain: 'blank.example' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Company name is required');
  });

  it('says a name is too long, not that it is missing, whether created or renamed (400, nothing stored)', async () => {
    const name = 'x'.repeat(10_000);
    const before = await first<{ n: number }>('SELECT count(*) AS n FROM companies');
    const res = await call(root, 'POST', '/api/companies', { name });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Company name must be at most 200 characters');
    expect(await first<{ n: number }>('SELECT count(*) AS n FROM companies')).toEqual(before);
    const renamed = await call(root, 'PATCH', `/api/rbac/companies/${harbor}`, { name });
    expect(renamed.body.message).toBe('Company name must be at most 200 characters');
  });

  it('refuses a domain another company already uses (409)', async () => {
    const res = await call(root, 'POST', '/api/companies', { name: 'Copycat', domain: 'harbor.test' });
    expect(res.status).toBe(409);
  });

  it('refuses unknown status values and unknown fields (400)', async () => {
    expect((await call(root, 'POST', '/api/companies', { name: 'X Co', status: 'closed' })).status).toBe(400);
    expect((await call(root, 'POST', '/api/companies', { name: 'X Co', owner: 'me' })).status).toBe(400);
    expect(
      (await call(root, 'POST', '/api/companies', { name: 'X Co', domain: 'not a domain' })).status,
    ).toBe(400);
  });

  it('refuses a company admin with 403', async () => {
    const res = await call(admin, 'POST', '/api/companies', { name: 'Admin Co' });
    expect(res.status).toBe(403);
    expect(await first("SELECT count(*) AS n FROM companies WHERE name = 'Admin Co'")).toEqual({ n: 0 });
  });
});

describe('PATCH /api/rbac/companies/{id}', () => {
  it('lets root rename a company and change its tier, keeping the other settings', async () => {
    const created = (
      await call(root, 'POST', '/api/companies', { name: 'Ridge Works', settings: { type: 'partner' } })
    ).body;
    const res = await call(root, 'PATCH', `/api/rbac/companies/${created.id}`, {
      name: 'Ridge Works Ltd',
      settings: { subscription_tier: 'enterprise' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Ridge Works Ltd',
      domain: created.domain,
      settings: { type: 'partner', subscription_tier: 'enterprise' },
    });
  });

  it('suspending a company signs its users out at their next request; reactivating lets them back in', async () => {
    const created = (await call(root, 'POST', '/api/companies', { name: 'Short Lived' })).body;
    const user = (
      await call(root, 'POST', '/api/rbac/users', {
        email: 'worker@shortlived.test',
        first_name: 'Sam',
        last_name: 'Lee',
        company_id: created.id,
        role_id: 3,
      })
    ).body;
    const cookie = await t.login(user.email, user.one_time_password);
    expect((await call(cookie, 'GET', '/api/auth/user')).status).toBe(200);
    const res = await call(root, 'PATCH', `/api/rbac/companies/${created.id}`, { status: 'suspended' });
    expect(res.body).toMatchObject({ status: 'suspended', is_active: false });
    expect((await call(cookie, 'GET', '/api/auth/user')).status).toBe(401);
    await call(root, 'PATCH', `/api/rbac/companies/${created.id}`, { status: 'active' });
    await t.login(user.email, user.one_time_password);
  });

  it('refuses to suspend the platform company (400)', async () => {
    const res = await call(root, 'PATCH', `/api/rbac/companies/${PLATFORM_COMPANY_ID}`, {
      status: 'suspended',
    });
    expect(res.status).toBe(400);
  });

  it('refuses a domain already in use (409), a company admin (403) and an unknown company (404)', async () => {
    expect(
      (await call(root, 'PATCH', `/api/rbac/companies/${summit}`, { domain: 'harbor.test' })).status,
    ).toBe(409);
    expect((await call(admin, 'PATCH', `/api/rbac/companies/${summit}`, { name: 'Mine now' })).status).toBe(
      403,
    );
    expect((await call(root, 'PATCH', '/api/rbac/companies/no-such-company', { name: 'X' })).status).toBe(
      404,
    );
  });
});

describe('company time zone (DECISIONS.md: what "today" is)', () => {
  it('defaults to UTC, or takes the zone the creating browser sends', async () => {
    const plain = await call(root, 'POST', '/api/companies', { name: 'Zone Less' });
    expect(plain.body.time_zone).toBe('UTC');
    const la = await call(root, 'POST', '/api/companies', {
      name: 'Zone West',
      time_zone: 'America/Los_Angeles',
    });
    expect(la.status).toBe(201);
    expect(la.body.time_zone).toBe('America/Los_Angeles');
    const bad = await call(root, 'POST', '/api/companies', { name: 'Zone Bad', time_zone: 'Mars/Base' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });

  it('lets a company admin set its own zone, which the session user then carries as companyTimeZone', async () => {
    const before = await call(admin, 'GET', '/api/auth/user');
    expect(before.body.companyTimeZone).toBe('UTC');
    const res = await call(admin, 'PATCH', `/api/rbac/companies/${summit}`, {
      time_zone: 'Pacific/Auckland',
    });
    expect(res.status).toBe(200);
    expect(res.body.time_zone).toBe('Pacific/Auckland');
    expect((await call(crew, 'GET', '/api/auth/user')).body.companyTimeZone).toBe('Pacific/Auckland');
    await call(admin, 'PATCH', `/api/rbac/companies/${summit}`, { time_zone: 'UTC' });
    expect((await call(crew, 'GET', '/api/auth/user')).body.companyTimeZone).toBe('UTC');
  });

  it('refuses an unknown zone (400, nothing changes), another company (404), crew (403) and other fields (403)', async () => {
    const bad = await call(admin, 'PATCH', `/api/rbac/companies/${summit}`, { time_zone: 'Europe/Atlantis' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(bad.body)).toContain('IANA time zone');
    const zone = async () =>
      (await first<{ z: string }>('SELECT time_zone AS z FROM companies WHERE id = ?', [summit]))?.z;
    expect(await zone()).toBe('UTC');
    expect(
      (await call(admin, 'PATCH', `/api/rbac/companies/${harbor}`, { time_zone: 'Asia/Tokyo' })).status,
    ).toBe(404);
    expect(
      (await call(crew, 'PATCH', `/api/rbac/companies/${summit}`, { time_zone: 'Asia/Tokyo' })).status,
    ).toBe(403);
    const both = await call(admin, 'PATCH', `/api/rbac/companies/${summit}`, {
      time_zone: 'Asia/Tokyo',
      status: 'suspended',
    });
    expect(both.status).toBe(403);
    expect(await zone()).toBe('UTC');
  });
});

interface TableInfo {
  name: string;
  columns: string[];
  fks: { table: string; from: string; to: string }[];
}

/** The app's tables with their columns and foreign keys, from the catalog of the database the app runs on. */
async function tables(): Promise<TableInfo[]> {
  if (t.backend === 'sqlite') {
    const names = (
      await t.query<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
      )
    ).map((r) => r.name);
    return Promise.all(
      names.map(async (name) => ({
        name,
        columns: (await t.query<{ name: string }>(`PRAGMA table_info("${name}")`)).map((c) => c.name),
        fks: await t.query<{ table: string; from: string; to: string }>(`PRAGMA foreign_key_list("${name}")`),
      })),
    );
  }
  // PostgreSQL: the tables of the app's schema (drizzle's own bookkeeping lives in the schema "drizzle").
  const names = (
    await t.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '__drizzle%'`,
    )
  ).map((r) => r.name);
  return Promise.all(
    names.map(async (name) => ({
      name,
      columns: (
        await t.query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
          [name],
        )
      ).map((c) => c.name),
      // As PRAGMA foreign_key_list: the referenced table, the referencing column and the referenced one.
      fks: await t.query<{ table: string; from: string; to: string }>(
        `SELECT pt.relname AS "table", a.attname AS "from", pa.attname AS "to"
         FROM pg_constraint con
         JOIN pg_class ct ON ct.oid = con.conrelid
         JOIN pg_namespace ns ON ns.oid = ct.relnamespace
         JOIN pg_class pt ON pt.oid = con.confrelid
         CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS k(child, parent)
         JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.child
         JOIN pg_attribute pa ON pa.attrelid = con.confrelid AND pa.attnum = k.parent
         WHERE con.contype = 'f' AND ns.nspname = current_schema() AND ct.relname = ?`,
        [name],
      ),
    })),
  );
}

/**
 * Rows whose foreign key points at no row: SQLite's PRAGMA foreign_key_check; on PostgreSQL the same
 * question asked of every foreign key of every table.
 */
async function danglingReferences(): Promise<unknown[]> {
  if (t.backend === 'sqlite') return t.query('PRAGMA foreign_key_check');
  const dangling: unknown[] = [];
  for (const table of await tables()) {
    for (const fk of table.fks) {
      const n = (await first<{ n: number }>(
        `SELECT count(*) AS n FROM "${table.name}" c WHERE c."${fk.from}" IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM "${fk.table}" p WHERE p."${fk.to}" = c."${fk.from}")`,
      ))!.n;
      if (n > 0) dangling.push({ table: table.name, parent: fk.table, column: fk.from, n });
    }
  }
  return dangling;
}

async function countOwned(table: TableInfo, companyId: string): Promise<number> {
  const column = table.name === 'companies' ? 'id' : 'company_id';
  if (!table.columns.includes(column)) return 0;
  return (await first<{ n: number }>(`SELECT count(*) AS n FROM "${table.name}" WHERE "${column}" = ?`, [
    companyId,
  ]))!.n;
}

describe('DELETE /api/companies/{id}', () => {
  it('deletes the company and everything of it in every table, leaving the other company intact', async () => {
    // Give Harbor a role of its own, a live session and a user created through the API.
    const role = (
      await call(root, 'POST', '/api/rbac/roles', {
        name: 'Harbor Pilot',
        company_id: harbor,
        permissions: [1],
      })
    ).body;
    const extra = (
      await call(root, 'POST', '/api/rbac/users', {
        email: 'pilot@harbor.test',
        first_name: 'Pia',
        last_name: 'Lot',
        company_id: harbor,
        role_id: role.id,
      })
    ).body;
    const harborAdmin = await t.login('admin@harbor.test');

    const all = await tables();
    // Ids of every row Harbor owns, per table, so references to them can be looked for afterwards.
    const owned = new Map<string, string[]>();
    for (const table of all) {
      if (
        !table.columns.includes('id') ||
        (!table.columns.includes('company_id') && table.name !== 'companies')
      )
        continue;
      const column = table.name === 'companies' ? 'id' : 'company_id';
      const ids = (
        await t.query<{ id: string }>(`SELECT id FROM "${table.name}" WHERE "${column}" = ?`, [harbor])
      ).map((r) => String(r.id));
      owned.set(table.name, ids);
    }
    expect(owned.get('users')).toContain(extra.id);
    expect(owned.get('roles')).toContain(String(role.id));
    expect(owned.get('projects')?.length).toBeGreaterThan(0);
    expect(owned.get('tasks')?.length).toBeGreaterThan(0);
    const photoKey = async (company: string) =>
      (
        await first<{ filename: string }>('SELECT filename FROM photos WHERE company_id = ? LIMIT 1', [
          company,
        ])
      )?.filename;
    const harborPhoto = await photoKey(harbor);
    const summitPhoto = await photoKey(summit);
    expect(harborPhoto && (await t.store.has(harborPhoto))).toBe(true);
    const summitBefore = Object.fromEntries(
      await Promise.all(all.map(async (table) => [table.name, await countOwned(table, summit)] as const)),
    );

    const res = await call(root, 'DELETE', `/api/companies/${harbor}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: harbor });

    for (const table of await tables()) {
      // No row of Harbor's left...
      expect({ table: table.name, rows: await countOwned(table, harbor) }).toEqual({
        table: table.name,
        rows: 0,
      });
      // ...and no row anywhere still pointing at one of Harbor's rows (sessions, role permissions...).
      for (const fk of table.fks) {
        const ids = owned.get(fk.table) ?? [];
        if (!ids.length) continue;
        const n = (await first<{ n: number }>(
          `SELECT count(*) AS n FROM "${table.name}" WHERE CAST("${fk.from}" AS TEXT) IN (${ids.map(() => '?').join(',')})`,
          ids,
        ))!.n;
        expect({ table: table.name, column: fk.from, n }).toEqual({
          table: table.name,
          column: fk.from,
          n: 0,
        });
      }
    }
    expect(await danglingReferences()).toEqual([]);
    // The photo files go too; the other company's stay.
    expect(await t.store.has(harborPhoto!)).toBe(false);
    expect(summitPhoto && (await t.store.has(summitPhoto))).toBe(true);
    expect((await call(harborAdmin, 'GET', '/api/auth/user')).status).toBe(401);
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'admin@harbor.test', password: 'sitecommand-demo' },
    });
    expect(login.status).toBe(401);

    const summitAfter = Object.fromEntries(
      await Promise.all(
        (await tables()).map(async (table) => [table.name, await countOwned(table, summit)] as const),
      ),
    );
    expect(summitAfter).toEqual(summitBefore);
    const projects = await call(admin, 'GET', '/api/projects');
    expect(projects.status).toBe(200);
    expect(projects.body.length).toBeGreaterThan(0);
    const listed = (await call(root, 'GET', '/api/companies')).body.map((c: { id: string }) => c.id);
    expect(listed).not.toContain(harbor);
    expect(listed).toContain(summit);
  });

  it('refuses to delete the platform company (409)', async () => {
    const res = await call(root, 'DELETE', `/api/companies/${PLATFORM_COMPANY_ID}`);
    expect(res.status).toBe(409);
    expect((await call(root, 'GET', '/api/auth/user')).status).toBe(200);
  });

  it('refuses a company admin with 403 and answers 404 for an unknown company', async () => {
    expect((await call(admin, 'DELETE', `/api/companies/${summit}`)).status).toBe(403);
    expect((await call(root, 'DELETE', '/api/companies/no-such-company')).status).toBe(404);
    expect(await first('SELECT count(*) AS n FROM companies WHERE id = ?', [summit])).toEqual({ n: 1 });
  });
});
