import { describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

const argon = vi.hoisted(() => ({
  inFlight: 0,
  most: 0,
  started: 0,
  /** Called in the instant a hash completes, before the limiter's own bookkeeping has settled. */
  onDone: undefined as (() => void) | undefined,
}));

// Observes how many hashes run at once; each one takes a few milliseconds, like the real argon2id.
vi.mock('@node-rs/argon2', () => {
  const work = <T>(value: T): Promise<T> => {
    argon.started++;
    argon.inFlight++;
    argon.most = Math.max(argon.most, argon.inFlight);
    const done = new Promise<T>((resolve) =>
      setTimeout(
        () => {
          argon.inFlight--;
          resolve(value);
        },
        1 + (argon.started % 3),
      ),
    );
    void done.then(() => Promise.resolve().then(() => argon.onDone?.()));
    return done;
  };
  return {
    hash: (password: string) => work(`hash:${password}`),
    verify: (stored: string, password: string) => work(stored === `hash:${password}`),
  };
});

describe('password hashing', () => {
  it('runs at most 4 hashes at once under a burst, even when requests arrive as a hash finishes', async () => {
    argon.most = 0;
    const calls: Promise<unknown>[] = [];
    let left = 60;
    const fire = (): void => {
      if (left-- <= 0) return;
      const p = left % 2 ? hashPassword(`pw-${left}`) : verifyPassword('hash:x', 'x');
      calls.push(p);
    };
    // A new request arrives in the instant a hash completes, as a busy server sees them.
    argon.onDone = fire;
    for (let i = 0; i < 12; i++) fire();
    while (calls.length < 60 || argon.inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    await Promise.all(calls);
    argon.onDone = undefined;
    expect(argon.started).toBe(60);
    expect(argon.most).toBe(4);
  });

  it('still answers each call with its own result', async () => {
    await expect(hashPassword('a')).resolves.toBe('hash:a');
    await expect(verifyPassword('hash:a', 'a')).resolves.toBe(true);
    await expect(verifyPassword('hash:a', 'b')).resolves.toBe(false);
  });
});
