import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import { ORIGIN, createTestApp, type TestApp } from './test-utils.ts';

const KIB = 1024;
const MIB = 1024 * KIB;

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login('admin@summit.test');
});
afterAll(() => t.close());

const count = async (table: string) =>
  (await t.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n;

/** A JSON body that never ends: 64 KiB chunks of a string's inside, no Content-Length. */
function endlessJson(prefix: string) {
  const state = { pulled: 0 };
  const filler = new TextEncoder().encode('x'.repeat(64 * KIB));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(state.pulled++ === 0 ? new TextEncoder().encode(prefix) : filler);
    },
  });
  return { state, body };
}

function send(
  method: string,
  url: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
) {
  const init = {
    method,
    headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit;
  return t.app.request(url, init, {
    incoming: { socket: { remoteAddress: '10.50.0.1', remotePort: 50000 } },
  });
}

describe('JSON body limits', () => {
  it('answers a sign-in body over a few KB with 413 {message, code}', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: 'admin@summit.test', password: 'p'.repeat(8 * KIB) },
      ip: '10.50.0.2',
    });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(typeof body.message).toBe('string');
  });

  it('answers a write over 1 MiB with 413 and creates nothing', async () => {
    const before = await count('tasks');
    const res = await t.request('POST', '/api/tasks', {
      cookie,
      body: { title: 'Huge', category: 'general', description: 'd'.repeat(MIB + KIB) },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await count('tasks')).toBe(before);
  });

  it('refuses a body that announces too many bytes before reading any of it', async () => {
    const { state, body } = endlessJson('{"email":"a@b.test","password":"');
    const res = await send('POST', '/api/auth/login', body, { 'content-length': String(200 * MIB) });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('PAYLOAD_TOO_LARGE');
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a chunked sign-in without Content-Length soon after it passes the limit', async () => {
    const { state, body } = endlessJson('{"email":"a@b.test","password":"');
    const res = await send('POST', '/api/auth/login', body, {});
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(state.pulled).toBeLessThanOrEqual(3);
  });

  it('stops reading a chunked write without Content-Length soon after 1 MiB', async () => {
    const before = await count('tasks');
    const { state, body } = endlessJson('{"title":"Endless","category":"general","description":"');
    const res = await send('POST', '/api/tasks', body, { cookie });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // 1 MiB is 16 chunks of 64 KiB; a few more may be in flight when the reader stops.
    expect(state.pulled).toBeLessThanOrEqual(20);
    expect(await count('tasks')).toBe(before);
  });

  it('[P1] reads a push past the 1 MiB write limit, and answers 413 past 16 MiB', async () => {
    const mutations = Array.from({ length: 3 }, (_, i) => ({
      id: i + 1,
      op: 'create',
      table: 'tasks',
      rowId: crypto.randomUUID(),
      data: { title: `Big ${i}`, category: 'general', description: 'd'.repeat(MIB) },
      baseVersion: 0,
      clientTime: Date.now(),
    }));
    const push = (padding?: string) =>
      t.request('POST', '/api/sync/push', {
        cookie,
        body: { clientId: crypto.randomUUID(), schemaVersion: SCHEMA_VERSION, mutations, padding },
      });
    const big = await push();
    // Read and answered per mutation (each description is over its field's own cap: P8), not refused whole.
    expect(big.status).toBe(200);
    expect((await big.json()).results).toHaveLength(3);
    const tooBig = await push('e'.repeat(16 * MIB));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
