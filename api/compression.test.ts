import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import { createTestApp, type TestApp } from './test-utils.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login('admin@summit.test');
});
afterAll(() => t.close());

const pullUrl = (clientId: string, cursor: number) =>
  `/api/sync/pull?clientId=${clientId}&cursor=${cursor}&limit=1000&schemaVersion=${SCHEMA_VERSION}`;
const firstPage = () => pullUrl(newId(), 0);

describe('compressed reads (a first download on a phone)', () => {
  it('gzips a pull page for a client that accepts gzip, and it reads back as the same JSON', async () => {
    const plain = await t.request('GET', firstPage(), { cookie });
    const plainBody = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();

    const zipped = await t.request('GET', firstPage(), {
      cookie,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
    const zippedBytes = Buffer.from(await zipped.arrayBuffer());
    const unzipped = JSON.parse(gunzipSync(zippedBytes).toString('utf8'));
    const expected = JSON.parse(plainBody.toString('utf8'));
    // Two first downloads under different client ids: the same rows at the same versions.
    expect(unzipped.changes).toEqual(expected.changes);
    expect(unzipped.cursor).toBe(expected.cursor);
    // The demo company's first page is tens of KiB of JSON; gzipped it is a small fraction of that.
    expect(plainBody.length).toBeGreaterThan(50_000);
    expect(zippedBytes.length).toBeLessThan(plainBody.length / 4);
  });

  it('sends a pull answer of under 1 KiB (the pull after a poke) as it is, with its length', async () => {
    // The same client, from where its first page left off: the answer holds no change.
    const clientId = newId();
    const first = await t.request('GET', pullUrl(clientId, 0), { cookie });
    const { cursor, hasMore } = (await first.json()) as { cursor: number; hasMore: boolean };
    expect(hasMore).toBe(false);
    const url = pullUrl(clientId, cursor);
    const small = await t.request('GET', url, { cookie, headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    const bytes = Buffer.from(await small.arrayBuffer());
    expect(bytes.length).toBeLessThan(1024);
    expect(small.headers.get('content-length')).toBe(String(bytes.length));
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ changes: [], cursor, hasMore: false });
  });

  it('leaves writes and the event stream as they are', async () => {
    const write = await t.request('POST', '/api/projects', {
      cookie,
      headers: { 'accept-encoding': 'gzip' },
      body: { name: 'Compression check', location: 'Site' },
    });
    expect(write.status).toBeLessThan(300);
    expect(write.headers.get('content-encoding')).toBeNull();
    expect((await write.json()).name).toBe('Compression check');

    const stream = await t.request('GET', '/api/sync/events', {
      cookie,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-encoding')).toBeNull();
    await stream.body?.cancel();
  });
});
