import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';
import * as password from '../auth/password.ts';

// Counts real hash verifications, to prove throttled attempts are refused before any hash is computed.
vi.mock('../auth/password.ts', async (importOriginal) => {
  const original = await importOriginal<typeof password>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, pw: string, ip = '10.0.0.1') =>
  t.request('POST', '/api/auth/login', { body: { email, password: pw }, ip });

describe('POST /api/auth/login', () => {
  it('signs in with the demo password and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await login('admin@summit.test', 'sitecommand-demo');
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sc_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const body = await res.json();
    expect(body).toMatchObject({ email: 'admin@summit.test', role: 'admin', companyName: 'Summit Builders' });
  });

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const res = await login('crew@summit.test', 'sitecommand-demo');
    const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const sids = await t.query<{ sid: string; sess: string }>('SELECT sid, sess FROM sessions');
    expect(sids.some((s) => s.sid === token || s.sess.includes(token))).toBe(false);
    expect(sids.map((s) => s.sid)).toContain(crypto.createHash('sha256').update(token).digest('hex'));
  });

  it('issues a new token at every sign-in and drops the session the browser presented', async () => {
    const first = await t.login('manager@summit.test');
    const res = await t.request('POST', '/api/auth/login', {
      cookie: first,
      body: { email: 'manager@summit.test', password: 'sitecommand-demo' },
    });
    const second = `sc_session=${/sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`;
    expect(second).not.toBe(first);
    expect((await t.request('GET', '/api/auth/user', { cookie: first })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/user', { cookie: second })).status).toBe(200);
  });

  it('ends the session of a device that signed out offline at its next request, and a sign-in after it stays', async () => {
    // The app sets sc_signed_out as it signs out; with no signal the logout never arrived, so the browser
    // still holds a valid session cookie.
    const session = await t.login('crew@summit.test');
    const pending = `${session}; sc_signed_out=1`;
    const first = await t.request('GET', '/api/projects', { cookie: pending });
    expect(first.status).toBe(401);
    const cleared = first.headers.get('set-cookie') ?? '';
    expect(cleared).toMatch(/sc_session=;/);
    expect(cleared).toMatch(/sc_signed_out=;/);
    // The session is gone for every later request, whoever makes it (the service worker too).
    expect((await t.request('GET', '/api/auth/user', { cookie: session })).status).toBe(401);
    // Signing in again with the marker still sent: the new session is the one left.
    const res = await t.request('POST', '/api/auth/login', {
      cookie: pending,
      body: { email: 'crew@summit.test', password: 'sitecommand-demo' },
    });
    expect(res.status).toBe(200);
    const setCookies = res.headers.getSetCookie();
    const last = setCookies.filter((h) => h.startsWith('sc_session=')).at(-1)!;
    expect(last).toMatch(/^sc_session=[^;]+;/);
    expect(setCookies.some((h) => /^sc_signed_out=;/.test(h))).toBe(true);
    const fresh = last.split(';')[0]!;
    expect((await t.request('GET', '/api/auth/user', { cookie: fresh })).status).toBe(200);
  });

  it('answers a wrong password and an unknown email identically: 401 Invalid credentials', async () => {
    const wrong = await login('admin@harbor.test', 'not-the-password', '10.9.0.1');
    const unknown = await login('nobody@harbor.test', 'not-the-password', '10.9.0.2');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.json(), await unknown.json()];
    expect(a).toEqual(b);
    expect(a.message).toContain('Invalid credentials');
  });

  it('says a missing field is required with a 400', async () => {
    for (const body of [{ email: 'admin@summit.test' }, { password: 'x' }, { email: '', password: '' }]) {
      const res = await t.request('POST', '/api/auth/login', { body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/required/);
    }
  });

  it('hashes passwords with argon2id, m=19456 KiB, t=2, p=1', async () => {
    const row = (
      await t.query<{ password: string }>("SELECT password FROM users WHERE email = 'crew@summit.test'")
    )[0];
    expect(row?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(password.ARGON2_OPTIONS).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('slows an account down after 10 failures from anywhere, refusing even the right password before hashing', async () => {
    // The clock stands still (only Date is faked), so a slow machine cannot outwait the delay by itself.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const email = 'crew@harbor.test';
      for (let i = 0; i < 10; i++) expect((await login(email, `wrong-${i}`, `10.1.0.${i}`)).status).toBe(401);
      const verify = vi.mocked(password.verifyPassword);
      verify.mockClear();
      const slowed = await login(email, 'sitecommand-demo', '10.1.1.1');
      expect(slowed.status).toBe(429);
      const wait = Number(slowed.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect((await slowed.json()).code).toBe('RATE_LIMITED');
      expect(verify).not.toHaveBeenCalled();
      t.clock.offsetMs += wait * 1000;
      expect((await login(email, 'sitecommand-demo', '10.1.1.1')).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throttles one address after 30 failures across accounts', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 30; i++) expect((await login(`user${i}@nowhere.test`, 'x', ip)).status).toBe(401);
    expect((await login('admin@summit.test', 'sitecommand-demo', ip)).status).toBe(429);
    expect((await login('admin@summit.test', 'sitecommand-demo', '10.2.0.2')).status).toBe(200);
  });

  it('behind a load balancer (TRUST_PROXY_HOPS=1), counts each client by the address the balancer saw', async () => {
    const balancer = '10.9.7.1';
    const via = (email: string, pw: string, forwardedFor: string) =>
      t.request('POST', '/api/auth/login', {
        body: { email, password: pw },
        ip: balancer,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    t.env.TRUST_PROXY_HOPS = 1;
    try {
      // 30 failures of one client (who also writes a made-up address of its own, further left)...
      for (let i = 0; i < 30; i++)
        expect((await via(`lb${i}@nowhere.test`, 'x', `1.2.3.${i}, 203.0.113.7`)).status).toBe(401);
      expect((await via('admin@summit.test', 'sitecommand-demo', '203.0.113.7')).status).toBe(429);
      // ...do not lock out another client behind the same balancer.
      expect((await via('admin@summit.test', 'sitecommand-demo', '198.51.100.4')).status).toBe(200);
    } finally {
      t.env.TRUST_PROXY_HOPS = 0;
    }
    // Not trusted (the default), the header is ignored: the balancer's own address is the one counted.
    for (let i = 0; i < 30; i++)
      expect((await via(`lb-b${i}@nowhere.test`, 'x', `198.51.100.${i}`)).status).toBe(401);
    expect((await via('admin@summit.test', 'sitecommand-demo', '198.51.100.200')).status).toBe(429);
  });

  it('refuses a deactivated user even with the right password', async () => {
    await t.exec("UPDATE users SET is_active = 0 WHERE email = 'sub@summit.test'");
    const res = await login('sub@summit.test', 'sitecommand-demo', '10.3.0.1');
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
    await t.exec("UPDATE users SET is_active = 1 WHERE email = 'sub@summit.test'");
  });
});

describe('sign-in throttling under attack', () => {
  const sessionsOf = async (email: string) =>
    (
      (
        await t.query<{ n: number }>(
          'SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
          [email],
        )
      )[0] ?? { n: 0 }
    ).n;

  it('hashes at most 10 of 100 concurrent wrong passwords and answers the rest 429', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const verify = vi.mocked(password.verifyPassword);
    verify.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login('manager@summit.test', `guess-${i}`, '10.20.0.1')),
    );
    const statuses = answers.map((r) => r.status);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(90);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('does not sign in with the right password sent last in one burst after 99 wrong ones', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const email = 'admin@harbor.test';
    const before = await sessionsOf(email);
    const answers = await Promise.all([
      ...Array.from({ length: 99 }, (_, i) => login(email, `guess-${i}`, '10.21.0.1')),
      login(email, 'sitecommand-demo', '10.21.0.1'),
    ]);
    const right = answers[99]!;
    expect(right.status).toBe(429);
    expect(right.headers.get('set-cookie')).toBeNull();
    expect(answers.some((r) => r.status === 200)).toBe(false);
    expect(await sessionsOf(email)).toBe(before);
  });

  it('locks the attacking address but lets the owner in from another after the stated delay', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const email = 'sub@summit.test';
    for (let i = 0; i < 10; i++) expect((await login(email, `wrong-${i}`, '10.22.0.1')).status).toBe(401);
    let owner = await login(email, 'sitecommand-demo', '10.22.0.2');
    if (owner.status === 429) {
      const wait = Number(owner.headers.get('retry-after'));
      expect(wait).toBeLessThanOrEqual(60);
      t.clock.offsetMs += wait * 1000;
      owner = await login(email, 'sitecommand-demo', '10.22.0.2');
    }
    expect(owner.status).toBe(200);
    // The attacker's address stays locked for the account, right password or not, until its window ends.
    const attacker = await login(email, 'sitecommand-demo', '10.22.0.1');
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(60);
    t.clock.offsetMs += 15 * 60_000;
    expect((await login(email, 'sitecommand-demo', '10.22.0.1')).status).toBe(200);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (
    cookie: string,
    currentPassword: string,
    ip = '10.30.0.1',
    newPassword = 'a-brand-new-secret-1',
  ) => t.request('POST', '/api/auth/change-password', { cookie, body: { currentPassword, newPassword }, ip });

  it('throttles guesses of the current password like sign-in, before hashing', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const cookie = await t.login('crew@summit.test');
    for (let i = 0; i < 10; i++) expect((await change(cookie, `wrong-${i}`)).status).toBe(400);
    const verify = vi.mocked(password.verifyPassword);
    verify.mockClear();
    const res = await change(cookie, 'sitecommand-demo');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await res.json()).code).toBe('RATE_LIMITED');
    expect(verify).not.toHaveBeenCalled();
    const stored = (
      await t.query<{ password: string }>("SELECT password FROM users WHERE email = 'crew@summit.test'")
    )[0];
    expect(await password.verifyPassword(stored!.password, 'sitecommand-demo')).toBe(true);
  });

  it('refuses a new password equal to the current one, or made of spaces, and changes nothing', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const cookie = await t.login('crew@summit.test');
    const same = await change(cookie, 'sitecommand-demo', '10.32.0.1', 'sitecommand-demo');
    expect(same.status).toBe(400);
    expect(await same.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Choose a password different from the current one',
    });
    const blank = await change(cookie, 'sitecommand-demo', '10.32.0.1', ' '.repeat(12));
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toBe('New password must not be only spaces');
    // The session was not rotated and the password still signs in.
    expect((await t.request('GET', '/api/auth/user', { cookie })).status).toBe(200);
    const stored = (
      await t.query<{ password: string }>("SELECT password FROM users WHERE email = 'crew@summit.test'")
    )[0];
    expect(await password.verifyPassword(stored!.password, 'sitecommand-demo')).toBe(true);
  });

  it('rotates the session on a change: a new cookie works, the old token no longer does', async () => {
    t.clock.offsetMs += 16 * 60_000;
    const email = 'manager@summit.test';
    const old = await t.login(email);
    const other = await t.login(email);
    const res = await change(old, 'sitecommand-demo', '10.31.0.1', 'manager-new-secret-9');
    expect(res.status).toBe(200);
    const token = /sc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(token).toBeTruthy();
    const rotated = `sc_session=${token}`;
    expect(rotated).not.toBe(old);
    expect((await t.request('GET', '/api/auth/user', { cookie: rotated })).status).toBe(200);
    expect((await t.request('GET', '/api/auth/user', { cookie: old })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/user', { cookie: other })).status).toBe(401);
    // Put the demo password back for the tests after this one.
    expect((await change(rotated, 'manager-new-secret-9', '10.31.0.1', 'sitecommand-demo')).status).toBe(200);
  });
});

describe('GET /api/auth/user', () => {
  it('returns the user with the ten permission flags of spec 02 section 2', async () => {
    const cookie = await t.login('crew@summit.test');
    const res = await t.request('GET', '/api/auth/user', { cookie });
    expect(res.status).toBe(200);
    const user = await res.json();
    expect(user).toMatchObject({
      email: 'crew@summit.test',
      role: 'crew',
      companyName: 'Summit Builders',
      companyId: t.companyId('summit.test'),
    });
    expect(typeof user.id).toBe('string');
    expect(typeof user.firstName).toBe('string');
    expect(typeof user.lastName).toBe('string');
    expect(typeof user.name).toBe('string');
    expect(user.permissions).toEqual({
      dashboard: true,
      projects: true,
      tasks: true,
      projectHealth: false,
      schedule: true,
      photos: true,
      logs: true,
      crew: true,
      subs: false,
      rbacAdmin: false,
    });
    expect(JSON.stringify(user)).not.toMatch(/argon2|password"/);
  });

  it('gives admins every flag and subcontractors no projects screen', async () => {
    const admin = await (
      await t.request('GET', '/api/auth/user', { cookie: await t.login('admin@summit.test') })
    ).json();
    expect(Object.values(admin.permissions).every(Boolean)).toBe(true);
    const sub = await (
      await t.request('GET', '/api/auth/user', { cookie: await t.login('sub@summit.test') })
    ).json();
    expect(sub.permissions).toMatchObject({ subs: true, tasks: true, projects: false, rbacAdmin: false });
  });

  it('answers 401 when signed out or with a made-up cookie', async () => {
    expect((await t.request('GET', '/api/auth/user')).status).toBe(401);
    const res = await t.request('GET', '/api/auth/user', { cookie: 'sc_session=forged' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Not signed in', code: 'UNAUTHORIZED' });
  });
});

describe('sessions', () => {
  it('logout deletes the session row and clears the cookie', async () => {
    const cookie = await t.login('manager@summit.test');
    const before = (await t.query<{ n: number }>('SELECT count(*) AS n FROM sessions'))[0]!;
    const res = await t.request('POST', '/api/auth/logout', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/sc_session=;.*Max-Age=0/);
    expect((await t.query<{ n: number }>('SELECT count(*) AS n FROM sessions'))[0]!.n).toBe(before.n - 1);
    expect((await t.request('GET', '/api/auth/user', { cookie })).status).toBe(401);
  });

  it('expires an idle admin session after 2 hours but keeps a crew session for days', async () => {
    const admin = await t.login('admin@summit.test');
    const crew = await t.login('crew@summit.test');
    t.clock.offsetMs += 2 * 3600_000 + 60_000;
    expect((await t.request('GET', '/api/auth/user', { cookie: admin })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/user', { cookie: crew })).status).toBe(200);
    t.clock.offsetMs += 5 * 24 * 3600_000;
    expect((await t.request('GET', '/api/auth/user', { cookie: crew })).status).toBe(200);
  });

  it('ends any session at its absolute expiry even when it is used every day', async () => {
    const crew = await t.login('crew@summit.test');
    for (let day = 0; day < 29; day++) {
      t.clock.offsetMs += 24 * 3600_000;
      expect((await t.request('GET', '/api/auth/user', { cookie: crew })).status).toBe(200);
    }
    t.clock.offsetMs += 24 * 3600_000;
    expect((await t.request('GET', '/api/auth/user', { cookie: crew })).status).toBe(401);
  });

  it('reads the role on every request: a demoted user loses access on the next call', async () => {
    const cookie = await t.login('manager@summit.test');
    expect((await t.request('GET', '/api/invoices', { cookie })).status).not.toBe(403);
    await t.exec("UPDATE users SET role_id = 3, role = 'crew' WHERE email = 'manager@summit.test'");
    expect((await t.request('GET', '/api/invoices', { cookie })).status).toBe(403);
    await t.exec("UPDATE users SET role_id = 2, role = 'manager' WHERE email = 'manager@summit.test'");
  });

  it('signs out a deactivated user at their next request', async () => {
    const cookie = await t.login('crew@summit.test');
    await t.exec("UPDATE users SET is_active = 0 WHERE email = 'crew@summit.test'");
    expect((await t.request('GET', '/api/projects', { cookie })).status).toBe(401);
    await t.exec("UPDATE users SET is_active = 1 WHERE email = 'crew@summit.test'");
  });
});
