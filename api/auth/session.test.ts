import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { purgeExpiredSessions } from './session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 3600_000;
const sessionsOf = async (email: string) =>
  (
    await t.query<{ n: number }>(
      'SELECT count(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)',
      [email],
    )
  )[0]!.n;
const signedIn = async (cookie: string) =>
  (await t.request('GET', '/api/auth/user', { cookie })).status === 200;

describe('sessions are bounded', () => {
  it('keeps at most 20 per user: a sign-in beyond ends the oldest, the others stay signed in', async () => {
    const email = 'crew@summit.test';
    const cookies: string[] = [];
    for (let i = 0; i < 25; i++) {
      cookies.push(await t.login(email));
      // Each later than the one before, so "oldest" is well defined.
      t.clock.offsetMs += 1_000;
    }
    expect(Number(await sessionsOf(email))).toBe(20);
    expect(await Promise.all(cookies.map(signedIn))).toEqual([
      ...Array<boolean>(5).fill(false),
      ...Array<boolean>(20).fill(true),
    ]);
  });

  it('the retention pass deletes sessions past their absolute expiry and keeps live ones', async () => {
    const field = await t.login('manager@summit.test');
    const admin = await t.login('admin@summit.test');
    // An administrator's session lives 12 hours at most, a field role's 30 days (api/env.ts).
    const purged = await purgeExpiredSessions(
      t.database,
      new Date(Date.now() + t.clock.offsetMs + 13 * 3600_000),
    );
    expect(purged).toBeGreaterThan(0);
    expect(Number(await sessionsOf('admin@summit.test'))).toBe(0);
    expect(Number(await sessionsOf('manager@summit.test'))).toBeGreaterThan(0);
    expect(await signedIn(field)).toBe(true);
    expect(await signedIn(admin)).toBe(false);
    await purgeExpiredSessions(t.database, new Date(Date.now() + t.clock.offsetMs + 31 * DAY));
    expect(Number(await sessionsOf('manager@summit.test'))).toBe(0);
  });
});
