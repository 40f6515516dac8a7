import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncStatus } from '#sync/engine.ts';
import { createPrecacheGate, firstCycleOver, nextRegisterTry } from './precache-gate.ts';
import { fakeSyncEngine } from './test-utils.tsx';

afterEach(() => vi.useRealTimers());

/** A sync status: the fake engine's defaults (online, idle, nothing synced yet) with `patch` on top. */
const status = (patch: Partial<SyncStatus> = {}): SyncStatus => fakeSyncEngine(patch).engine.status.get();

/** Whether `p` has resolved once every microtask queued so far has run. */
async function settledNow(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('when the service worker may install (ADR 025)', () => {
  it('a signed-out page (the sign-in screen) registers it at once: there is nothing to download', async () => {
    const gate = createPrecacheGate();
    expect(await settledNow(gate.whenMayStart(Promise.resolve(false)))).toBe(true);
  });

  it('a signed-in page waits for its first sync cycle to end', async () => {
    vi.useFakeTimers();
    const gate = createPrecacheGate();
    const mayStart = gate.whenMayStart(Promise.resolve(true));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settledNow(mayStart)).toBe(false);
    gate.firstDownloadSettled();
    expect(await settledNow(mayStart)).toBe(true);
  });

  it('a first cycle that never ends holds the install back for 15 seconds at most', async () => {
    vi.useFakeTimers();
    const gate = createPrecacheGate();
    const mayStart = gate.whenMayStart(Promise.resolve(true));
    await vi.advanceTimersByTimeAsync(14_900);
    expect(await settledNow(mayStart)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await settledNow(mayStart)).toBe(true);
  });

  it('a page whose session request failed does not wait', async () => {
    const gate = createPrecacheGate();
    expect(await settledNow(gate.whenMayStart(Promise.reject(new Error('Failed to fetch'))))).toBe(true);
  });

  it('a cycle that ended before anyone asked still counts', async () => {
    const gate = createPrecacheGate();
    gate.firstDownloadSettled();
    expect(await settledNow(gate.whenMayStart(Promise.resolve(true)))).toBe(true);
  });
});

describe('firstCycleOver', () => {
  it('is not over before the first pull has started, nor while any pull runs', () => {
    expect(firstCycleOver(status())).toBe(false);
    expect(firstCycleOver(status({ pulling: true, rowsDownloaded: 1000 }))).toBe(false);
    expect(firstCycleOver(status({ pulling: true, lastSyncedAt: 1 }))).toBe(false);
  });

  it('is over once a pull reached the end (now or on an earlier visit), or when the cycle cannot go on', () => {
    expect(firstCycleOver(status({ lastSyncedAt: 1_700_000_000_000 }))).toBe(true);
    expect(firstCycleOver(status({ online: false }))).toBe(true);
    expect(firstCycleOver(status({ paused: 'unauthorized' }))).toBe(true);
    expect(
      firstCycleOver(
        status({
          error: { kind: 'server', code: 'INTERNAL', message: 'Server error', at: 1, retryAt: 2 },
        }),
      ),
    ).toBe(true);
  });
});

describe('and the network', () => {
  it('a cycle that ended because the device is offline registers nothing until the network is back', async () => {
    let online = false;
    let back: () => void = () => {};
    const gate = createPrecacheGate({
      isOnline: () => online,
      whenOnline: () => new Promise<void>((resolve) => (back = resolve)),
    });
    const mayStart = gate.whenMayStart(Promise.resolve(true));
    gate.firstDownloadSettled();
    expect(await settledNow(mayStart)).toBe(false);
    online = true;
    back();
    expect(await settledNow(mayStart)).toBe(true);
  });

  it('an online page does not wait for the network', async () => {
    const gate = createPrecacheGate({
      isOnline: () => true,
      whenOnline: () => new Promise<void>(() => {}),
    });
    expect(await settledNow(gate.whenMayStart(Promise.resolve(false)))).toBe(true);
  });
});

describe('a registration whose worker script could not be fetched', () => {
  it('is tried again when the network is back, if it failed offline', async () => {
    let back: () => void = () => {};
    const waits: number[] = [];
    const retry = nextRegisterTry(
      1,
      { isOnline: () => false, whenOnline: () => new Promise<void>((resolve) => (back = resolve)) },
      async (ms) => void waits.push(ms),
    )!;
    expect(await settledNow(retry)).toBe(false);
    back();
    expect(await settledNow(retry)).toBe(true);
    expect(waits).toEqual([]);
  });

  it('is tried again after 30 seconds if it failed online, and three times at most', async () => {
    const waits: number[] = [];
    const network = { isOnline: () => true, whenOnline: () => new Promise<void>(() => {}) };
    const wait = async (ms: number) => void waits.push(ms);
    for (const failures of [1, 2, 3])
      expect(await settledNow(nextRegisterTry(failures, network, wait)!)).toBe(true);
    expect(waits).toEqual([30_000, 30_000, 30_000]);
    expect(nextRegisterTry(4, network, wait)).toBeNull();
  });
});
