// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { appNow, setServerClockOffset, useAppNow } from './app-clock.ts';

afterEach(() => {
  cleanup();
  setServerClockOffset(0);
  vi.useRealTimers();
});

const DAY = 86_400_000;

function Today() {
  return <p data-testid="now">{useAppNow().toISOString().slice(0, 10)}</p>;
}

describe("the app's now", () => {
  it("is the phone's clock corrected by the server's offset, ignoring estimates under a minute", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-07T12:00:00.000Z'));
    expect(appNow().toISOString()).toBe('2026-03-07T12:00:00.000Z');
    setServerClockOffset(40_000); // a round trip's noise
    expect(appNow().toISOString()).toBe('2026-03-07T12:00:00.000Z');
    setServerClockOffset(3 * DAY);
    expect(appNow().toISOString()).toBe('2026-03-10T12:00:00.000Z');
    setServerClockOffset(-2 * 3_600_000);
    expect(appNow().toISOString()).toBe('2026-03-07T10:00:00.000Z');
  });

  it('moves a rendered screen to the corrected day as soon as the offset is known', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-07T12:00:00.000Z'));
    render(<Today />);
    expect(screen.getByTestId('now').textContent).toBe('2026-03-07');
    act(() => setServerClockOffset(3 * DAY));
    expect(screen.getByTestId('now').textContent).toBe('2026-03-10');
  });
});
