import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWhenFirstScreenReady } from './first-render.ts';

afterEach(() => vi.useRealTimers());

/** A chunk on its way: `arrive()` is its download finishing. */
function chunkOnItsWay() {
  let arrive = () => {};
  const chunk = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { chunk, arrive };
}

describe('the first render', () => {
  it('waits for the first screen chunk on its way, and renders once it is in', async () => {
    vi.useFakeTimers();
    const { chunk, arrive } = chunkOnItsWay();
    const render = vi.fn();
    renderWhenFirstScreenReady(chunk, render, 400);
    await vi.advanceTimersByTimeAsync(100);
    expect(render).not.toHaveBeenCalled();
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(render).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(render).toHaveBeenCalledOnce();
  });

  it('renders after the wait when the chunk is slow, and only once when it comes later', async () => {
    vi.useFakeTimers();
    const { chunk, arrive } = chunkOnItsWay();
    const render = vi.fn();
    renderWhenFirstScreenReady(chunk, render, 400);
    await vi.advanceTimersByTimeAsync(399);
    expect(render).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(render).toHaveBeenCalledOnce();
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(render).toHaveBeenCalledOnce();
  });

  it('renders at once when the chunk failed (offline with no cache) or nothing was asked for', async () => {
    const render = vi.fn();
    renderWhenFirstScreenReady(Promise.reject(new TypeError('Failed to fetch')), render, 10_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(render).toHaveBeenCalledOnce();
    renderWhenFirstScreenReady(null, render);
    expect(render).toHaveBeenCalledTimes(2);
  });
});
