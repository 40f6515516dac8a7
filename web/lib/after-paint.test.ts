// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubPaintTimeline } from '#web/app/test-utils.tsx';
import { afterFirstContentfulPaint } from './after-paint.ts';

async function frames(n: number) {
  for (let i = 0; i < n; i++) {
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('afterFirstContentfulPaint', () => {
  it('waits for the first contentful paint, not just for a frame, then runs once', async () => {
    const paint = stubPaintTimeline();
    const fn = vi.fn();
    afterFirstContentfulPaint(fn, 5_000);
    await frames(3);
    paint('first-paint'); // a blank first paint is not the page's content
    await frames(3);
    expect(fn).not.toHaveBeenCalled();
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(fn).toHaveBeenCalledOnce());
    paint('first-contentful-paint');
    await frames(2);
    expect(fn).toHaveBeenCalledOnce();
  });

  it('runs after the next frame when the page has painted already', async () => {
    const paint = stubPaintTimeline();
    paint('first-contentful-paint');
    const fn = vi.fn();
    afterFirstContentfulPaint(fn, 5_000);
    await vi.waitFor(() => expect(fn).toHaveBeenCalledOnce());
  });

  it('runs after the limit when no paint is reported (a tab opened in the background)', async () => {
    stubPaintTimeline();
    const fn = vi.fn();
    afterFirstContentfulPaint(fn, 100);
    await frames(2);
    expect(fn).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(fn).toHaveBeenCalledOnce(), { timeout: 1_000 });
  });

  it('a cancel before the paint means it never runs', async () => {
    const paint = stubPaintTimeline();
    const fn = vi.fn();
    const cancel = afterFirstContentfulPaint(fn, 200);
    cancel();
    paint('first-contentful-paint');
    await new Promise((r) => setTimeout(r, 400));
    expect(fn).not.toHaveBeenCalled();
  });
});
