import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  apiJson,
  apiRequest,
  createQueryClient,
  errorStatus,
  getQueryFn,
  QUERY_STALE_TIME_MS,
} from './api.ts';

function stubFetch(res: Response | (() => Promise<Response>)) {
  const answer = typeof res === 'function' ? res : () => Promise.resolve(res);
  const fn = vi.fn((_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends JSON with credentials and returns the response of a 2xx answer', async () => {
    const fetch = stubFetch(new Response('{"ok":true}', { status: 200 }));
    const res = await apiRequest('POST', '/api/x', { a: 1 });
    expect(await res.json()).toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledWith('/api/x', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      credentials: 'include',
    });
  });

  it('sends no body and no content type without data', async () => {
    const fetch = stubFetch(new Response(null, { status: 204 }));
    await apiRequest('DELETE', '/api/x/1');
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: 'DELETE', body: undefined, headers: {} });
  });

  it('throws "{status}: {body text}" on a non-2xx answer', async () => {
    stubFetch(
      new Response('{"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}', { status: 401 }),
    );
    await expect(apiRequest('POST', '/api/auth/login', {})).rejects.toThrow(
      '401: {"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}',
    );
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('apiJson parses the body, and an empty body is null', async () => {
    stubFetch(new Response('[1,2]', { status: 200 }));
    expect(await apiJson('GET', '/api/x')).toEqual([1, 2]);
    stubFetch(new Response('', { status: 200 }));
    expect(await apiJson('GET', '/api/x')).toBeNull();
  });

  it('errorStatus reads the status back from the message', () => {
    expect(errorStatus(new Error('404: nope'))).toBe(404);
    expect(errorStatus(new TypeError('Failed to fetch'))).toBeNull();
  });
});

describe('the default query function', () => {
  const ctx = (key: string) =>
    ({ queryKey: [key], signal: new AbortController().signal, meta: undefined }) as unknown as Parameters<
      ReturnType<typeof getQueryFn>
    >[0];

  it('GETs the first query-key element with credentials and returns the JSON', async () => {
    const fetch = stubFetch(new Response('{"n":1}', { status: 200 }));
    expect(await getQueryFn({ on401: 'returnNull' })(ctx('/api/projects'))).toEqual({ n: 1 });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/projects');
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' });
  });

  it('returns null on 401 for reads', async () => {
    stubFetch(new Response('{"message":"Not signed in"}', { status: 401 }));
    expect(await getQueryFn({ on401: 'returnNull' })(ctx('/api/projects'))).toBeNull();
  });

  it('throws on 401 when asked to, and on any other error status', async () => {
    stubFetch(new Response('nope', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(ctx('/api/x'))).rejects.toThrow('401: nope');
    stubFetch(new Response('boom', { status: 500 }));
    await expect(getQueryFn({ on401: 'returnNull' })(ctx('/api/x'))).rejects.toThrow('500: boom');
  });
});

describe('the query client', () => {
  it('has the spec defaults: fresh 5 s, no retry, no refetch on focus (the interval: query-no-answer.test.ts)', () => {
    const q = createQueryClient().getDefaultOptions().queries;
    expect(QUERY_STALE_TIME_MS).toBe(5000);
    expect(q).toMatchObject({ staleTime: 5000, retry: false, refetchOnWindowFocus: false });
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });
});
