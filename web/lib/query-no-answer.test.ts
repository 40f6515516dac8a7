// @vitest-environment jsdom
// A browser: TanStack Query runs no interval timers where there is no window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { createQueryClient, NO_ANSWER_REFETCH_MS } from './api.ts';

function stubFetch(answer: () => Promise<Response>) {
  const fn = vi.fn((_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a read on a bad signal', () => {
  /** A screen's list on `client`: an observer, as a mounted screen holds one. */
  const shown = (client: QueryClient, key: string) => {
    const observer = new QueryObserver(client, { queryKey: [key] });
    const stop = observer.subscribe(() => {});
    return { result: () => observer.getCurrentResult(), stop };
  };

  it('a read whose request got no answer asks again while shown, and loads once the server answers', async () => {
    vi.useFakeTimers();
    let answers = 0;
    const fetch = stubFetch(() => {
      answers += 1;
      // A bad signal: the first request is dropped; the browser stays online all along.
      return answers === 1
        ? Promise.reject(new TypeError('Failed to fetch'))
        : Promise.resolve(new Response('[{"id":"p1"}]', { status: 200 }));
    });
    const client = createQueryClient();
    const list = shown(client, '/api/project-health-metrics');
    await vi.waitFor(() => expect(list.result().isError).toBe(true));
    await vi.advanceTimersByTimeAsync(NO_ANSWER_REFETCH_MS);
    await vi.waitFor(() => expect(list.result().data).toEqual([{ id: 'p1' }]));
    // Answered: no more requests, however long the screen stays.
    await vi.advanceTimersByTimeAsync(NO_ANSWER_REFETCH_MS * 3);
    expect(fetch).toHaveBeenCalledTimes(2);
    list.stop();
  });

  it('a read the server answered with an error is not asked again on its own', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch(() => Promise.resolve(new Response('boom', { status: 500 })));
    const list = shown(createQueryClient(), '/api/risk-assessments');
    await vi.waitFor(() => expect(list.result().isError).toBe(true));
    await vi.advanceTimersByTimeAsync(NO_ANSWER_REFETCH_MS * 3);
    expect(fetch).toHaveBeenCalledTimes(1);
    list.stop();
  });
});
