// @vitest-environment jsdom
import { act, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { preloadable } from './preloadable.ts';

afterEach(cleanup);

const Page = () => <h1>The page</h1>;

function renderInSuspense(Component: React.ComponentType) {
  const fallbacks: string[] = [];
  function Fallback() {
    fallbacks.push('shown');
    return <p>Loading...</p>;
  }
  render(
    <Suspense fallback={<Fallback />}>
      <Component />
    </Suspense>,
  );
  return fallbacks;
}

describe('preloadable', () => {
  it('renders a chunk that arrived before its first render in that render, with no fallback', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const chunk = preloadable(load);
    const Lazy = chunk.lazy();
    await chunk.preload();
    let fallbacks: string[] = [];
    act(() => {
      fallbacks = renderInSuspense(Lazy);
    });
    expect(screen.getByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(fallbacks).toEqual([]);
    expect(load).toHaveBeenCalledOnce();
  });

  it('shows the fallback while a chunk nobody asked for loads, and asks once', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const chunk = preloadable(load);
    const fallbacks = renderInSuspense(chunk.lazy());
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(fallbacks.length).toBeGreaterThan(0);
    await chunk.preload();
    expect(load).toHaveBeenCalledOnce();
  });

  it('asks again after a failed download (a phone back online)', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({ default: Page });
    const chunk = preloadable(load);
    await expect(chunk.preload()).rejects.toThrow('Failed to fetch');
    expect(chunk.requested).toBe(false);
    await chunk.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('with a gate, a render before any preload waits for the gate before it downloads', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const chunk = preloadable(load);
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    renderInSuspense(chunk.lazy(() => gate));
    await new Promise((r) => setTimeout(r, 20));
    expect(load).not.toHaveBeenCalled();
    open();
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(load).toHaveBeenCalledOnce();
  });
});
