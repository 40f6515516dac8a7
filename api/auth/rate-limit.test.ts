import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './rate-limit.ts';

const MINUTE = 60_000;

function limiter(options?: { maxKeys?: number }) {
  const clock = { t: Date.parse('2026-03-02T08:00:00Z') };
  return { clock, limiter: new LoginLimiter(() => clock.t, options) };
}

/** A try that turns out to be a wrong password: its reservation stays as the failure. */
const fail = async (l: LoginLimiter, account: string, address: string) => {
  const a = await l.attempt(account, address);
  if (!a.allowed) throw new Error(`refused: retry after ${a.retryAfter}s`);
};

describe('LoginLimiter', () => {
  it('forgets 10,000 random emails once their 15-minute window has passed', async () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 10_000; i++) {
      await fail(
        l,
        `${crypto.randomUUID()}@random.test`,
        `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      );
      if (i % 25 === 0) clock.t += 50;
    }
    expect(l.size()).toBeGreaterThanOrEqual(10_000);
    clock.t += 16 * MINUTE;
    await fail(l, 'someone@summit.test', '10.99.0.1');
    // Only the last try's account, pair and address remain.
    expect(l.size()).toBe(3);
  });

  it('keeps at most the given number of keys per map however many arrive within the window', async () => {
    const { limiter: l } = limiter({ maxKeys: 100 });
    for (let i = 0; i < 1000; i++) await fail(l, `u${i}@random.test`, `10.0.${i >> 8}.${i & 255}`);
    expect(l.size()).toBeLessThanOrEqual(300);
  });

  it('delays an account after 10 failures from many addresses by a wait that grows, without locking it', async () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 10; i++) await fail(l, 'boss@summit.test', `10.1.0.${i}`);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = await l.attempt('boss@summit.test', `10.2.0.${i}`);
      expect(refused.allowed).toBe(false);
      const wait = refused.allowed ? 0 : refused.retryAfter;
      waits.push(wait);
      clock.t += wait * 1000;
      await fail(l, 'boss@summit.test', `10.2.0.${i}`);
    }
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[0]).toBeLessThan(waits[waits.length - 1]!);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60);
  });

  it('gives a right password’s reservation back: successes from one address never block it', async () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 40; i++) {
      const a = await l.attempt(`person${i}@summit.test`, '10.3.0.1');
      expect(a.allowed).toBe(true);
      if (a.allowed) await a.succeed();
    }
    expect((await l.attempt('another@summit.test', '10.3.0.1')).allowed).toBe(true);
  });
});
