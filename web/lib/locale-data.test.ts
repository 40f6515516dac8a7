// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLocaleDataWhenIdle } from './locale-data.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('loadLocaleDataWhenIdle', () => {
  it('makes the first date format in an idle callback of its own, never in the calling task', () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (cb: IdleRequestCallback) => idle.push(cb));
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    loadLocaleDataWhenIdle();
    expect(made).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]!({ didTimeout: false, timeRemaining: () => 50 });
    expect(made).toHaveBeenCalledOnce();
    // A zone, as the screens' formats have: the time zone data is part of what is loaded.
    expect(made.mock.calls[0]![1]).toMatchObject({ timeZone: 'UTC' });
  });

  it('falls back to a task of its own where the browser has no idle callbacks', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    loadLocaleDataWhenIdle();
    expect(made).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(made).toHaveBeenCalledOnce());
  });
});
