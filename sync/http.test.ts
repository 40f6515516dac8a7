import { describe, expect, it } from 'vitest';
import { requestJson, SyncHttpError } from './http.ts';

const answering = (res: Response) => () => Promise.resolve(res);

describe('requestJson', () => {
  it('words a failed answer without a message (a proxy page while the server restarts), not "HTTP 502"', async () => {
    const html = new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
      status: 502,
      headers: { 'content-type': 'text/html' },
    });
    const err = (await requestJson(answering(html), 'http://x/api/sync/pull', { method: 'GET' }).catch(
      (e: unknown) => e,
    )) as SyncHttpError;
    expect(err).toBeInstanceOf(SyncHttpError);
    expect(err.kind).toBe('server');
    expect(err.message).toBe('The server is not available right now, error 502');
  });

  it("keeps the server's own words when it sent them", async () => {
    const busy = new Response(JSON.stringify({ code: 'SYNC_UNAVAILABLE', message: 'The server is busy' }), {
      status: 503,
      headers: { 'retry-after': '2' },
    });
    await expect(
      requestJson(answering(busy), 'http://x/api/sync/push', { method: 'POST' }),
    ).rejects.toMatchObject({
      kind: 'server',
      code: 'SYNC_UNAVAILABLE',
      message: 'The server is busy',
      retryAfterMs: 2000,
    });
  });
});
