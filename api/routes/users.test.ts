import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password.ts';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = { crew: 'crew@summit.test', sub: 'sub@summit.test', harbor: 'admin@harbor.test' } as const;
const PASSWORD = 'no-role-password-1';
type Who = keyof typeof EMAILS | 'nobody';

async function call(method: string, url: string, who: Who | null) {
  const res = await t.request(method, url, { cookie: who ? cookie[who] : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  const companyId = t.companyId('summit.test');
  const password = await hashPassword(PASSWORD);
  await t.orm((db) =>
    db
      .insert(schema.users)
      .values([
        // A user without a role (no permissions at all) and a deactivated one.
        {
          id: crypto.randomUUID(),
          email: 'nobody@summit.test',
          firstName: 'No',
          lastName: 'Role',
          companyId,
          password,
        },
        {
          id: crypto.randomUUID(),
          email: 'gone@summit.test',
          name: 'Gone Person',
          companyId,
          isActive: false,
        },
        { id: crypto.randomUUID(), email: 'plain@summit.test', companyId, roleId: 3 },
      ])
      .run(),
  );
  cookie.nobody = await t.login('nobody@summit.test', PASSWORD);
});
afterAll(() => t?.close());

const summitActive = async () =>
  (
    await t.query<{ id: string }>('SELECT id FROM users WHERE company_id = ? AND is_active = 1', [
      t.companyId('summit.test'),
    ])
  )
    .map((r) => r.id)
    .sort();

describe('GET /api/users/managers', () => {
  it("lists every active user of the company as {id, name}, nobody else's", async () => {
    const res = await call('GET', '/api/users/managers', 'crew');
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id).sort()).toEqual(await summitActive());
    for (const u of res.body) expect(Object.keys(u).sort()).toEqual(['id', 'name']);
    const names = res.body.map((u: any) => u.name);
    expect(names).toContain('No Role');
    // A colleague with no name is not shown to crew by email address (names only, SPEC L12).
    expect(names).toContain('Team member');
    expect(names).not.toContain('plain@summit.test');
    expect(names).not.toContain('Gone Person');
    expect(names.every((n: unknown) => typeof n === 'string' && n.length > 0)).toBe(true);
  });

  it('refuses a user whose role does not grant users:read (403)', async () => {
    expect((await call('GET', '/api/users/managers', 'nobody')).status).toBe(403);
  });
});

describe('GET /api/users', () => {
  it("lists the company's active users with their name, email and role, never a password", async () => {
    const res = await call('GET', '/api/users', 'sub');
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id).sort()).toEqual(await summitActive());
    for (const u of res.body) {
      expect(Object.keys(u).sort()).toEqual(['email', 'firstName', 'id', 'lastName', 'name', 'role']);
    }
    // A subcontractor reads its colleagues' names, and only its own address (as on its device, SPEC L12).
    expect(res.body.filter((u: any) => u.email !== null).map((u: any) => u.email)).toEqual([
      'sub@summit.test',
    ]);
    expect(res.body.every((u: any) => typeof u.name === 'string' && !u.name.includes('@'))).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('$argon2');
    const harbor = (await call('GET', '/api/users', 'harbor')).body;
    expect(harbor.some((u: any) => u.email.endsWith('@summit.test'))).toBe(false);
  });

  it('refuses a user without users:read (403) and a visitor who is not signed in (401)', async () => {
    expect((await call('GET', '/api/users', 'nobody')).status).toBe(403);
    expect((await call('GET', '/api/users', null)).status).toBe(401);
  });
});
