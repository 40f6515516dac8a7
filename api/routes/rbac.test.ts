import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import {
  AdminCompanySchema,
  AdminPermissionSchema,
  AdminRoleSchema,
  AdminUserSchema,
} from '#shared/schemas/rbac.ts';
import { ROUTE_PERMISSIONS } from '../route-permissions.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let summit: string;
let harbor: string;
const cookies: Record<string, string> = {};

const ADMIN = 1;
const MANAGER = 2;
const CREW = 3;
const ROOT_ROLE = 5;

beforeAll(async () => {
  t = await createTestApp();
  summit = t.companyId('summit.test');
  harbor = t.companyId('harbor.test');
  for (const email of [
    'admin@summit.test',
    'manager@summit.test',
    'crew@summit.test',
    'admin@harbor.test',
    'root@sitecommand.test',
  ]) {
    cookies[email] = await t.login(email);
  }
});
afterAll(() => t.close());

const admin = () => cookies['admin@summit.test']!;
const root = () => cookies['root@sitecommand.test']!;

async function call(cookie: string, method: string, url: string, body?: unknown) {
  const res = await t.request(method, url, { cookie, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let seq = 0;
const uniqueEmail = (prefix = 'new') => `${prefix}.${Date.now()}.${++seq}@summit.test`;

/** Creates a user through the API as `by` and returns the response body (with the one-time password). */
async function createUser(by: string, fields: Record<string, unknown> = {}) {
  const res = await call(by, 'POST', '/api/rbac/users', {
    email: uniqueEmail(),
    first_name: 'Nia',
    last_name: 'Okafor',
    company_id: summit,
    role_id: CREW,
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Signs a new user in with the one-time password and sets a password of their own. */
async function activate(email: string, oneTime: string): Promise<string> {
  const cookie = await t.login(email, oneTime);
  const res = await t.request('POST', '/api/auth/change-password', {
    cookie,
    body: { currentPassword: oneTime, newPassword: 'a-new-secret-password' },
  });
  expect(res.status).toBe(200);
  return rotatedCookie(res);
}

/** The session cookie a password change answers with (the session is rotated on change). */
function rotatedCookie(res: Response): string {
  const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error('no rotated session cookie');
  return `sc_session=${token}`;
}

async function userIdOf(email: string): Promise<string> {
  const [row] = await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]);
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

describe('who may use the RBAC administration', () => {
  const rbacRoutes = Object.keys(ROUTE_PERMISSIONS).filter(
    (k) => k.includes(' /api/rbac/') || k.includes(' /api/companies'),
  );

  it('refuses crew and managers on every RBAC and company route with 403', async () => {
    expect(rbacRoutes.length).toBe(14);
    for (const email of ['crew@summit.test', 'manager@summit.test']) {
      for (const key of rbacRoutes) {
        const [method = '', path = ''] = key.split(' ');
        const url = path.replace(/:\w+/g, path.includes('/roles/') ? '1' : summit);
        const res = await call(
          cookies[email]!,
          method,
          url,
          method === 'GET' || method === 'DELETE' ? undefined : {},
        );
        expect({ email, key, status: res.status, code: res.body?.code }).toEqual({
          email,
          key,
          status: 403,
          code: 'FORBIDDEN',
        });
      }
    }
  });

  it('refuses a company admin the root-only routes (roles and companies writes) with 403', async () => {
    const rootOnly = Object.entries(ROUTE_PERMISSIONS).filter(([, rule]) => rule === 'platform:admin');
    // PATCH /api/rbac/companies/:id is root's too, except a company's own time zone (companies.test.ts).
    expect(rootOnly.length).toBe(5);
    for (const [key] of rootOnly) {
      const [method = '', path = ''] = key.split(' ');
      const res = await call(admin(), method, path.replace(':id', '1'), method === 'DELETE' ? undefined : {});
      expect({ key, status: res.status }).toEqual({ key, status: 403 });
    }
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    const res = await t.request('GET', '/api/rbac/users');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/rbac/permissions', () => {
  it('lists every permission with id, name, description, category, resource type and action', async () => {
    const res = await call(admin(), 'GET', '/api/rbac/permissions');
    expect(res.status).toBe(200);
    const update = res.body.find((p: { name: string }) => p.name === 'tasks:update');
    expect(Object.keys(update).sort()).toEqual([
      'action',
      'category',
      'description',
      'id',
      'name',
      'resource_type',
    ]);
    expect(update).toMatchObject({ resource_type: 'tasks', action: 'update', category: 'Tasks' });
    expect(res.body.map((p: { name: string }) => p.name)).toContain('platform:admin');
  });
});

describe('GET /api/rbac/roles', () => {
  let harborRole: number;
  beforeAll(async () => {
    const res = await call(root(), 'POST', '/api/rbac/roles', { name: 'Harbor Foreman', company_id: harbor });
    harborRole = res.body.id;
  });

  it('shows root every role, the Platform Administrator included', async () => {
    const res = await call(root(), 'GET', '/api/rbac/roles');
    expect(res.status).toBe(200);
    const platform = res.body.find((r: { id: number }) => r.id === ROOT_ROLE);
    expect(platform).toMatchObject({
      name: 'Platform Administrator',
      kind: 'root',
      company_id: PLATFORM_COMPANY_ID,
    });
    expect(res.body.map((r: { id: number }) => r.id)).toContain(harborRole);
  });

  it('shows a company admin the templates and its own roles, never the Platform Administrator or another company’s', async () => {
    const res = await call(admin(), 'GET', '/api/rbac/roles');
    expect(res.status).toBe(200);
    const ids = res.body.map((r: { id: number }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([ADMIN, MANAGER, CREW, 4]));
    expect(ids).not.toContain(ROOT_ROLE);
    expect(ids).not.toContain(harborRole);
    expect(res.body.some((r: { kind: string }) => r.kind === 'root')).toBe(false);
    const crew = res.body.find((r: { id: number }) => r.id === CREW);
    expect(Object.keys(crew).sort()).toEqual([
      'company_id',
      'description',
      'id',
      'is_template',
      'kind',
      'name',
      'permissions',
    ]);
    expect(crew.permissions.length).toBeGreaterThan(0);
    expect(crew.permissions.every((p: unknown) => Number.isInteger(p))).toBe(true);
  });
});

describe('POST /api/rbac/roles', () => {
  it('lets root create a company role with permissions; its kind defaults to crew', async () => {
    const perms = (await call(root(), 'GET', '/api/rbac/permissions')).body as { id: number; name: string }[];
    const ids = perms.filter((p) => p.name.startsWith('tasks:')).map((p) => p.id);
    const res = await call(root(), 'POST', '/api/rbac/roles', {
      name: 'Site Foreman',
      description: 'Runs a site',
      company_id: summit,
      is_template: false,
      permissions: ids,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Site Foreman',
      company_id: summit,
      is_template: false,
      kind: 'crew',
    });
    expect([...res.body.permissions].sort()).toEqual([...ids].sort());
    const adminView = await call(admin(), 'GET', '/api/rbac/roles');
    expect(adminView.body.map((r: { id: number }) => r.id)).toContain(res.body.id);
  });

  it('refuses unknown permission ids with 400', async () => {
    const res = await call(root(), 'POST', '/api/rbac/roles', {
      name: 'Bogus',
      company_id: summit,
      permissions: [999999],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('999999');
  });

  it('refuses a missing name and unknown fields with 400', async () => {
    expect((await call(root(), 'POST', '/api/rbac/roles', { permissions: [] })).status).toBe(400);
    expect((await call(root(), 'POST', '/api/rbac/roles', { name: 'X', colour: 'red' })).status).toBe(400);
  });

  it('a role is either a template (for every company) or one company’s, never neither nor both (400)', async () => {
    const before = (await t.query('SELECT id FROM roles')).length;
    const neither = await call(root(), 'POST', '/api/rbac/roles', { name: 'Floating', company_id: null });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toBe(
      'A role for all companies is a template role: tick Template role, or choose a company',
    );
    const both = await call(root(), 'POST', '/api/rbac/roles', {
      name: 'Both',
      company_id: summit,
      is_template: true,
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(
      'A template role is for all companies: choose All companies, or untick Template role',
    );
    expect((await t.query('SELECT id FROM roles')).length).toBe(before);
    const template = await call(root(), 'POST', '/api/rbac/roles', { name: 'Regional', is_template: true });
    expect(template.status).toBe(201);
    // A company's role cannot become a template while it keeps its company.
    const own = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Yard', company_id: summit })).body;
    expect((await call(root(), 'PATCH', `/api/rbac/roles/${own.id}`, { is_template: true })).status).toBe(
      400,
    );
    expect(
      (await call(root(), 'PATCH', `/api/rbac/roles/${own.id}`, { is_template: true, company_id: null }))
        .status,
    ).toBe(200);
  });

  it('answers 404 for a company that does not exist', async () => {
    const res = await call(root(), 'POST', '/api/rbac/roles', {
      name: 'Ghost',
      company_id: 'no-such-company',
    });
    expect(res.status).toBe(404);
  });
});

describe('platform:admin belongs to the Platform Administrator role only', () => {
  const platformAdmin = async () =>
    ((await call(root(), 'GET', '/api/rbac/permissions')).body as { id: number; name: string }[]).find(
      (p) => p.name === 'platform:admin',
    )!.id;
  const roleCount = async () => (await t.query('SELECT id FROM roles')).length;

  it('refuses root creating a company role of another kind that holds it (400), and creates nothing', async () => {
    const before = await roleCount();
    const res = await call(root(), 'POST', '/api/rbac/roles', {
      name: 'Back Office',
      company_id: summit,
      kind: 'admin',
      permissions: [await platformAdmin()],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Only the Platform Administrator role can hold platform:admin');
    expect(await roleCount()).toBe(before);
  });

  it('refuses adding it to a custom role (400), and leaves the role as it was', async () => {
    const role = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Clerk', company_id: summit })).body;
    const res = await call(root(), 'PATCH', `/api/rbac/roles/${role.id}`, {
      permissions: [await platformAdmin()],
    });
    expect(res.status).toBe(400);
    const listed = (await call(root(), 'GET', '/api/rbac/roles')).body.find(
      (r: { id: number }) => r.id === role.id,
    );
    expect(listed.permissions).toEqual([]);
  });

  it('a role row that lists it anyway (written before this rule) gives its holders no platform power', async () => {
    const role = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Legacy Ops', company_id: summit }))
      .body;
    await t.exec('INSERT INTO role_permissions (role_id, permission_id) VALUES (?, ?)', [
      role.id,
      await platformAdmin(),
    ]);
    // A company admin may hand a custom role of its company to anyone of its company.
    const user = await createUser(admin(), { role_id: role.id });
    const cookie = await activate(user.email, user.one_time_password);
    const me = (await call(cookie, 'GET', '/api/auth/user')).body;
    expect(me.grants).not.toContain('platform:admin');
    expect((await call(cookie, 'DELETE', `/api/companies/${harbor}`)).status).toBe(403);
    expect((await call(cookie, 'POST', '/api/rbac/roles', { name: 'Mine' })).status).toBe(403);
    expect(await t.query('SELECT id FROM companies WHERE id = ?', [harbor])).toHaveLength(1);
  });
});

describe('PATCH /api/rbac/roles/{id}', () => {
  it('lets root rename a role and replace its permissions', async () => {
    const created = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Estimator', company_id: summit }))
      .body;
    const perms = (await call(root(), 'GET', '/api/rbac/permissions')).body as { id: number; name: string }[];
    const read = perms.find((p) => p.name === 'projects:read')!.id;
    const res = await call(root(), 'PATCH', `/api/rbac/roles/${created.id}`, {
      name: 'Senior Estimator',
      permissions: [read],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Senior Estimator', permissions: [read] });
    const listed = (await call(root(), 'GET', '/api/rbac/roles')).body.find(
      (r: { id: number }) => r.id === created.id,
    );
    expect(listed).toMatchObject({ name: 'Senior Estimator', permissions: [read] });
  });

  it('changing a role’s kind changes the role of every user who holds it', async () => {
    const role = (
      await call(root(), 'POST', '/api/rbac/roles', { name: 'Trade Partner', company_id: summit })
    ).body;
    const user = await createUser(admin(), { role_id: role.id });
    expect(user.role).toBe('crew');
    expect(
      (await call(root(), 'PATCH', `/api/rbac/roles/${role.id}`, { kind: 'subcontractor' })).status,
    ).toBe(200);
    const listed = (await call(admin(), 'GET', '/api/rbac/users')).body.find(
      (u: { id: string }) => u.id === user.id,
    );
    expect(listed.role).toBe('subcontractor');
  });

  it('refuses to take platform:admin away from the Platform Administrator role (400)', async () => {
    const res = await call(root(), 'PATCH', `/api/rbac/roles/${ROOT_ROLE}`, { permissions: [] });
    expect(res.status).toBe(400);
    const still = (await call(root(), 'GET', '/api/rbac/roles')).body.find(
      (r: { id: number }) => r.id === ROOT_ROLE,
    );
    expect(still.permissions.length).toBeGreaterThan(0);
  });

  it('refuses to change the kind of a template role (400)', async () => {
    expect((await call(root(), 'PATCH', `/api/rbac/roles/${CREW}`, { kind: 'admin' })).status).toBe(400);
  });

  it('answers 404 for a role that does not exist', async () => {
    expect((await call(root(), 'PATCH', '/api/rbac/roles/987654', { name: 'X' })).status).toBe(404);
    expect((await call(root(), 'PATCH', '/api/rbac/roles/abc', { name: 'X' })).status).toBe(404);
  });
});

describe('DELETE /api/rbac/roles/{id}', () => {
  it('deletes an unused role', async () => {
    const role = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Temporary', company_id: summit }))
      .body;
    const res = await call(root(), 'DELETE', `/api/rbac/roles/${role.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: role.id });
    const ids = (await call(root(), 'GET', '/api/rbac/roles')).body.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(role.id);
  });

  it('refuses with 409 while users still hold the role', async () => {
    const role = (await call(root(), 'POST', '/api/rbac/roles', { name: 'Held', company_id: summit })).body;
    await createUser(admin(), { role_id: role.id });
    const res = await call(root(), 'DELETE', `/api/rbac/roles/${role.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/assigned to 1 user/);
  });

  it('refuses with 409 to delete any of the five template roles', async () => {
    for (const id of [1, 2, 3, 4, 5]) {
      expect((await call(root(), 'DELETE', `/api/rbac/roles/${id}`)).status).toBe(409);
    }
  });

  it('answers 404 for a role that does not exist', async () => {
    expect((await call(root(), 'DELETE', '/api/rbac/roles/987654')).status).toBe(404);
  });
});

describe('GET /api/rbac/users', () => {
  const FIELDS = [
    'company_id',
    'company_name',
    'email',
    'first_name',
    'id',
    'is_active',
    'last_name',
    'name',
    'role',
    'role_id',
    'role_name',
    'username',
  ];

  it('shows a company admin only its own company’s users, never a password', async () => {
    const res = await call(admin(), 'GET', '/api/rbac/users');
    expect(res.status).toBe(200);
    const emails = res.body.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['admin@summit.test', 'crew@summit.test']));
    expect(emails).not.toContain('admin@harbor.test');
    expect(emails).not.toContain('root@sitecommand.test');
    expect(res.body.every((u: { company_id: string }) => u.company_id === summit)).toBe(true);
    expect(Object.keys(res.body[0]).sort()).toEqual(FIELDS);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/);
  });

  it('shows root the users of every company with company and role names', async () => {
    const res = await call(root(), 'GET', '/api/rbac/users');
    expect(res.status).toBe(200);
    const companies = new Set(res.body.map((u: { company_id: string }) => u.company_id));
    expect([...companies]).toEqual(expect.arrayContaining([summit, harbor, PLATFORM_COMPANY_ID]));
    const harborAdmin = res.body.find((u: { email: string }) => u.email === 'admin@harbor.test');
    expect(harborAdmin).toMatchObject({ role: 'admin', role_id: ADMIN, company_id: harbor, is_active: true });
    expect(harborAdmin.company_name).toBeTruthy();
    expect(harborAdmin.role_name).toBeTruthy();
  });
});

describe('GET /api/rbac/companies/{id}/users', () => {
  it('lists the users of the admin’s own company', async () => {
    const res = await call(admin(), 'GET', `/api/rbac/companies/${summit}/users`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((u: { company_id: string }) => u.company_id === summit)).toBe(true);
  });

  it('answers 404 to a company admin asking for another company’s users', async () => {
    const res = await call(admin(), 'GET', `/api/rbac/companies/${harbor}/users`);
    expect(res.status).toBe(404);
  });

  it('lets root list any company’s users, and answers 404 for an unknown company', async () => {
    const res = await call(root(), 'GET', `/api/rbac/companies/${harbor}/users`);
    expect(res.status).toBe(200);
    expect(res.body.map((u: { email: string }) => u.email)).toContain('crew@harbor.test');
    expect((await call(root(), 'GET', '/api/rbac/companies/nope/users')).status).toBe(404);
  });
});

describe('POST /api/rbac/users', () => {
  it('creates a user with username = email, name = first + last, a lowercased email and the role’s kind', async () => {
    const email = uniqueEmail('Mixed.Case').replace('@summit.test', '@Summit.Test');
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email,
      first_name: 'Ana',
      last_name: 'Silva',
      company_id: summit,
      role_id: MANAGER,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: email.toLowerCase(),
      username: email.toLowerCase(),
      name: 'Ana Silva',
      first_name: 'Ana',
      last_name: 'Silva',
      company_id: summit,
      role_id: MANAGER,
      role: 'manager',
      is_active: true,
    });
    expect(res.body.password).toBeUndefined();
  });

  it('returns a one-time password once; it signs the user in, who must then set their own password', async () => {
    const created = await createUser(admin());
    expect(typeof created.one_time_password).toBe('string');
    expect(created.one_time_password.length).toBeGreaterThanOrEqual(16);
    // Never shown again.
    const listed = await call(admin(), 'GET', '/api/rbac/users');
    expect(JSON.stringify(listed.body)).not.toContain(created.one_time_password);
    const edited = await call(admin(), 'PATCH', `/api/rbac/users/${created.id}`, { first_name: 'Nina' });
    expect(edited.body.one_time_password).toBeUndefined();

    const cookie = await t.login(created.email, created.one_time_password);
    const me = await call(cookie, 'GET', '/api/auth/user');
    expect(me.body).toMatchObject({ email: created.email, mustChangePassword: true });
    const blocked = await call(cookie, 'GET', '/api/projects');
    expect(blocked).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });

    const changed = await t.request('POST', '/api/auth/change-password', {
      cookie,
      body: { currentPassword: created.one_time_password, newPassword: 'my-own-password-123' },
    });
    expect(changed.status).toBe(200);
    const rotated = rotatedCookie(changed);
    expect((await call(rotated, 'GET', '/api/auth/user')).body.mustChangePassword).toBe(false);
    expect((await call(rotated, 'GET', '/api/projects')).status).toBe(200);
  });

  it('generates a different one-time password for every user', async () => {
    const a = await createUser(admin());
    const b = await createUser(admin());
    expect(a.one_time_password).not.toBe(b.one_time_password);
  });

  it('uses a password the admin chose, still asking the user to change it at first sign-in', async () => {
    const created = await createUser(admin(), { password: 'chosen-by-admin-42' });
    expect(created.one_time_password).toBeUndefined();
    const cookie = await t.login(created.email, 'chosen-by-admin-42');
    expect((await call(cookie, 'GET', '/api/auth/user')).body.mustChangePassword).toBe(true);
  });

  it('refuses a password shorter than 12 characters with 400', async () => {
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      company_id: summit,
      role_id: CREW,
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/at least 12/);
    const email = uniqueEmail();
    const blank = await call(admin(), 'POST', '/api/rbac/users', {
      email,
      first_name: 'A',
      last_name: 'B',
      company_id: summit,
      role_id: CREW,
      password: ' '.repeat(12),
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Password must not be only spaces');
    expect(await t.query('SELECT id FROM users WHERE email = ?', [email])).toEqual([]);
  });

  it('names every missing required field in one "Please fill in" message', async () => {
    const res = await call(admin(), 'POST', '/api/rbac/users', { email: '', first_name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please fill in: Email, First Name, Last Name, Company, Role');
    const one = await call(admin(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      company_id: summit,
    });
    expect(one.body.message).toBe('Please fill in: Role');
  });

  it('refuses an email that is already used, whatever its case, with 409', async () => {
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email: 'CREW@summit.test',
      first_name: 'Dup',
      last_name: 'Licate',
      company_id: summit,
      role_id: CREW,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A user with this email already exists');
  });

  it('refuses a company admin adding a user to another company (403)', async () => {
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      company_id: harbor,
      role_id: CREW,
    });
    expect(res.status).toBe(403);
    expect(
      (
        await t.query('SELECT count(*) AS n FROM users WHERE first_name = ? AND company_id = ?', [
          'A',
          harbor,
        ])
      )[0],
    ).toEqual({ n: 0 });
  });

  it('refuses a company admin granting the Platform Administrator role (403)', async () => {
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'Would',
      last_name: 'BeRoot',
      company_id: summit,
      role_id: ROOT_ROLE,
    });
    expect(res.status).toBe(403);
  });

  it('answers 404 when a company admin grants another company’s role', async () => {
    const harborRole = (
      await call(root(), 'POST', '/api/rbac/roles', { name: 'Harbor Only', company_id: harbor })
    ).body;
    const res = await call(admin(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      company_id: summit,
      role_id: harborRole.id,
    });
    expect(res.status).toBe(404);
  });

  it('lets root add a user to any company, but the root role only to platform users', async () => {
    const harborUser = await createUser(root(), {
      company_id: harbor,
      email: `dock.${Date.now()}@harbor.test`,
    });
    expect(harborUser).toMatchObject({ company_id: harbor, role: 'crew' });
    const refused = await call(root(), 'POST', '/api/rbac/users', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      company_id: summit,
      role_id: ROOT_ROLE,
    });
    expect(refused.status).toBe(400);
  });
});

describe('PATCH /api/rbac/users/{id}', () => {
  it('edits names (name follows first + last) and email (username follows)', async () => {
    const user = await createUser(admin());
    const email = uniqueEmail('renamed');
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, {
      email,
      first_name: 'Kwame',
      last_name: 'Mensah',
      password: '',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, username: email, name: 'Kwame Mensah', first_name: 'Kwame' });
  });

  it('keeps the current password when the password is blank', async () => {
    const user = await createUser(admin());
    await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { last_name: 'Other', password: '' });
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.one_time_password },
    });
    expect(res.status).toBe(200);
  });

  it('a new password signs the user out and must be changed at the next sign-in', async () => {
    const user = await createUser(admin());
    const cookie = await activate(user.email, user.one_time_password);
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, {
      password: 'reset-by-admin-2024',
    });
    expect(res.status).toBe(200);
    expect((await call(cookie, 'GET', '/api/auth/user')).status).toBe(401);
    const again = await t.login(user.email, 'reset-by-admin-2024');
    expect((await call(again, 'GET', '/api/auth/user')).body.mustChangePassword).toBe(true);
  });

  it('refuses to move a user to another company (400 Users cannot change companies)', async () => {
    const user = await createUser(admin());
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { company_id: harbor });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Users cannot change companies');
  });

  it('refuses a duplicate email with 409', async () => {
    const user = await createUser(admin());
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { email: 'manager@summit.test' });
    expect(res.status).toBe(409);
  });

  it('refuses blanking the email with a "Please fill in" 400', async () => {
    const user = await createUser(admin());
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { email: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please fill in: Email');
  });

  it('answers 404 to a company admin editing another company’s user', async () => {
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${await userIdOf('crew@harbor.test')}`, {
      is_active: false,
    });
    expect(res.status).toBe(404);
    const [row] = await t.query<{ is_active: number }>('SELECT is_active FROM users WHERE email = ?', [
      'crew@harbor.test',
    ]);
    expect(row?.is_active).toBe(1);
  });

  it('refuses a company admin granting the Platform Administrator role to an existing user (403)', async () => {
    const user = await createUser(admin());
    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { role_id: ROOT_ROLE });
    expect(res.status).toBe(403);
  });

  it('refuses an admin deactivating or demoting itself (400)', async () => {
    const me = await userIdOf('admin@summit.test');
    expect((await call(admin(), 'PATCH', `/api/rbac/users/${me}`, { is_active: false })).status).toBe(400);
    expect((await call(admin(), 'PATCH', `/api/rbac/users/${me}`, { role_id: CREW })).status).toBe(400);
    expect((await call(admin(), 'GET', '/api/rbac/users')).status).toBe(200);
  });

  it('deactivating signs the user out at their next request, and they cannot sign in again until reactivated', async () => {
    const user = await createUser(admin());
    const cookie = await activate(user.email, user.one_time_password);
    expect((await call(cookie, 'GET', '/api/projects')).status).toBe(200);

    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { is_active: false });
    expect(res.status).toBe(200);
    expect(res.body.is_active).toBe(false);
    // Their sessions are gone at once, not merely refused when next presented.
    const [count] = await t.query<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?', [
      user.id,
    ]);
    expect(count?.n).toBe(0);
    expect((await call(cookie, 'GET', '/api/projects')).status).toBe(401);
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: user.email, password: 'a-new-secret-password' },
    });
    expect(login.status).toBe(403);
    expect((await login.json()).code).toBe('ACCOUNT_DISABLED');

    expect((await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { is_active: true })).status).toBe(
      200,
    );
    await t.login(user.email, 'a-new-secret-password');
  });

  it('demoting a manager to crew changes what their open session may do on the next request', async () => {
    const user = await createUser(admin(), { role_id: MANAGER });
    const cookie = await activate(user.email, user.one_time_password);
    const project = { name: 'Demotion check', location: 'Yard 3' };
    expect((await call(cookie, 'POST', '/api/projects', project)).status).toBe(201);

    const res = await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { role_id: CREW });
    expect(res.body).toMatchObject({ role_id: CREW, role: 'crew' });
    const after = await call(cookie, 'POST', '/api/projects', project);
    expect(after.status).toBe(403);
    expect((await call(cookie, 'GET', '/api/auth/user')).body.role).toBe('crew');
  });

  it('refuses unknown fields with 400', async () => {
    const user = await createUser(admin());
    expect((await call(admin(), 'PATCH', `/api/rbac/users/${user.id}`, { is_admin: true })).status).toBe(400);
  });
});

describe('DELETE /api/rbac/users/{id}', () => {
  it('deletes a user of the admin’s company and ends their sessions', async () => {
    const user = await createUser(admin());
    const cookie = await activate(user.email, user.one_time_password);
    const res = await call(admin(), 'DELETE', `/api/rbac/users/${user.id}`);
    expect(res).toEqual({ status: 200, body: { id: user.id } });
    expect((await call(cookie, 'GET', '/api/auth/user')).status).toBe(401);
    const ids = (await call(admin(), 'GET', '/api/rbac/users')).body.map((u: { id: string }) => u.id);
    expect(ids).not.toContain(user.id);
  });

  it('refuses to delete yourself (400)', async () => {
    const res = await call(admin(), 'DELETE', `/api/rbac/users/${await userIdOf('admin@summit.test')}`);
    expect(res.status).toBe(400);
  });

  it('answers 404 to a company admin deleting another company’s user, who stays', async () => {
    const res = await call(admin(), 'DELETE', `/api/rbac/users/${await userIdOf('admin@harbor.test')}`);
    expect(res.status).toBe(404);
    expect((await call(cookies['admin@harbor.test']!, 'GET', '/api/auth/user')).status).toBe(200);
  });
});

describe('the answers the admin screen reads', () => {
  it('every admin list, for root and for a company admin, has exactly the shape of the shared answer schemas', async () => {
    const lists = [
      ['/api/rbac/users', AdminUserSchema],
      ['/api/rbac/roles', AdminRoleSchema],
      ['/api/rbac/permissions', AdminPermissionSchema],
      ['/api/companies', AdminCompanySchema],
      [`/api/rbac/companies/${summit}/users`, AdminUserSchema],
    ] as const;
    for (const cookie of [root(), admin()]) {
      for (const [url, schema] of lists) {
        const res = await call(cookie, 'GET', url);
        expect(res.status, url).toBe(200);
        expect((res.body as unknown[]).length, url).toBeGreaterThan(0);
        const parsed = z.array(schema.strict()).safeParse(res.body);
        expect(parsed.error?.issues ?? [], url).toEqual([]);
      }
    }
  });
});
