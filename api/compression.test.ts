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

const firstPage = () =>
  `/api/sync/pull?clientId=${newId()}&cursor=0&limit=1000&schemaVersion=${SCHEMA_VERSION}`;

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
