import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { cell, device, firstId, sha256, uniquePng } from './testing.ts';

let t: TestApp;
let crew: string;
let harborCrew: string;
let project: string;
let harborProject: string;

beforeAll(async () => {
  t = await createTestApp();
  crew = await t.login('crew@summit.test');
  harborCrew = await t.login('crew@harbor.test');
  harborProject = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('harbor.test'),
  );
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('summit.test'),
  );
});
afterAll(() => t.close());

/** A photo row pushed by a device, waiting for its bytes (SPEC C9: the create goes first). */
async function pendingPhoto(bytes: Uint8Array = uniquePng(), who = { cookie: crew, project: () => project }) {
  const d = device(t, who.cookie);
  const id = newId();
  const hash = sha256(bytes);
  const { body } = await d.push([
    d.mutation('create', 'photos', id, { projectId: who.project(), sha256: hash, originalName: 'IMG_1.png' }),
  ]);
  expect(body.results[0]).toMatchObject({ status: 'applied' });
  return { id, hash, bytes, version: body.results[0]!.version! };
}

const put = (
  hash: string,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
  cookie: string = crew,
) =>
  t.request('PUT', `/api/sync/blobs/${hash}`, {
    cookie,
    body,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });

describe('blob lane', () => {
  it('[B1] refuses an address that is not a lowercase SHA-256', async () => {
    const { hash, bytes } = await pendingPhoto();
    expect((await put(hash.toUpperCase(), bytes)).status).toBe(400);
    expect((await put('abc', bytes)).status).toBe(400);
  });

  it('[B2] answers 404 when no photo of the caller’s company waits for the hash', async () => {
    const bytes = uniquePng();
    expect((await put(sha256(bytes), bytes)).status).toBe(404);
    const harborHash = await firstId(
      t,
      `SELECT sha256 AS id FROM photos WHERE company_id = ? AND sha256 NOT IN
         (SELECT sha256 FROM photos WHERE company_id = ? AND sha256 IS NOT NULL) LIMIT 1`,
      t.companyId('harbor.test'),
      t.companyId('summit.test'),
    );
    const res = await put(harborHash, new Uint8Array(0));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(harborHash);
  });

  it('[B3] refuses more than 10 MiB with 413, declared or streamed', async () => {
    const { hash, id } = await pendingPhoto();
    const declared = await put(hash, 'x', { 'content-length': String(MAX_PHOTO_BYTES + 1) });
    expect(declared.status).toBe(413);
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1024);
    const streamed = await put(hash, big);
    expect(streamed.status).toBe(413);
    expect(await cell(t, 'photos', id, 'blob_status')).toBe('pending');
  });

  it('[B4] refuses bytes that do not match their hash with 400 HASH_MISMATCH', async () => {
    const { hash, id } = await pendingPhoto();
    const res = await put(hash, uniquePng());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('HASH_MISMATCH');
    expect(await cell(t, 'photos', id, 'blob_status')).toBe('pending');
  });

  it('[B5] decides the type by magic bytes, refusing anything but JPEG, PNG or WebP with 415', async () => {
    const text = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const { hash } = await pendingPhoto(text);
    const res = await put(hash, text, { 'content-type': 'image/png' });
    expect(res.status).toBe(415);
  });

  it('[B6] stores the bytes once: 201 the first time, 200 and no write on a repeat', async () => {
    const { hash, bytes } = await pendingPhoto();
    const first = await put(hash, bytes);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ sha256: hash, stored: true, photos: 1 });
    expect(await t.store.has(hash)).toBe(true);
    const [version] = await t.query('SELECT last_version AS v FROM companies WHERE id = ?', [
      t.companyId('summit.test'),
    ]);
    const repeat = await put(hash, bytes);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ sha256: hash, stored: false, photos: 0 });
    expect(
      (
        await t.query('SELECT last_version AS v FROM companies WHERE id = ?', [t.companyId('summit.test')])
      )[0],
    ).toEqual(version);
  });

  it('[B7] marks the waiting photo present in a new version that pulls carry, and serves it', async () => {
    const { id, hash, bytes, version } = await pendingPhoto();
    const d = device(t, crew);
    await d.pull(0, 1); // a device the server knows: an unknown one pulling from a cursor downloads again (R5)
    expect((await put(hash, bytes, { 'content-type': 'image/png' })).status).toBe(201);
    expect(await cell(t, 'photos', id, 'blob_status')).toBe('present');
    expect(await cell(t, 'photos', id, 'filename')).toBe(hash);
    expect(await cell(t, 'photos', id, 'mime_type')).toBe('image/png');
    expect(await cell(t, 'photos', id, 'size_bytes')).toBe(bytes.byteLength);
    const { body } = await d.pull(version);
    if ('reset' in body) throw new Error('reset');
    expect(body.changes).toEqual([
      expect.objectContaining({
        id,
        deleted: false,
        data: expect.objectContaining({ blobStatus: 'present' }) as unknown,
      }),
    ]);
    const served = await t.request('GET', `/api/photos/${id}/file`, { cookie: crew });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });

  /** Issue 8, item 9: Harbor uploads some bytes first, then Summit has a photo waiting for the same bytes. */
  async function uploadedByHarborFirst() {
    const bytes = uniquePng();
    const harbor = await pendingPhoto(bytes, { cookie: harborCrew, project: () => harborProject });
    expect((await put(harbor.hash, bytes, {}, harborCrew)).status).toBe(201);
    return { bytes, summit: await pendingPhoto(bytes) };
  }

  it('[B6] deduplicates per company: bytes another company sent first are stored for this one as if alone', async () => {
    const { bytes, summit } = await uploadedByHarborFirst();
    const res = await put(summit.hash, bytes);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ sha256: summit.hash, stored: true, photos: 1 });
    expect(await cell(t, 'photos', summit.id, 'blob_status')).toBe('present');
    const repeat = await put(summit.hash, bytes);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ sha256: summit.hash, stored: false, photos: 0 });
  });

  it('[B6] bytes another company sent first are served to this company at their address', async () => {
    const { bytes, summit } = await uploadedByHarborFirst();
    await put(summit.hash, bytes);
    // A sidecar naming Harbor, as the first upload wrote before B6 became per company, changes nothing.
    const legacy = {
      companyId: t.companyId('harbor.test'),
      userId: 'x',
      mime: 'image/png',
      size: 1,
      sha256: summit.hash,
    };
    await t.store.put(`${summit.hash}.meta`, Buffer.from(JSON.stringify(legacy)));
    for (const cookie of [crew, harborCrew]) {
      const image = await t.request('GET', `/api/objects/image/${summit.hash}`, { cookie });
      expect(image.status).toBe(200);
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(bytes);
    }
  });
});

describe('photo create', () => {
  it('[C15] keeps the capture time a device read from the EXIF, and pulls it', async () => {
    const d = device(t, crew);
    const id = newId();
    const { body } = await d.push([
      d.mutation('create', 'photos', id, {
        projectId: project,
        sha256: sha256(uniquePng()),
        originalName: 'IMG_2041.jpg',
        capturedAt: '2026-05-04T07:12:09.000Z',
      }),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await cell(t, 'photos', id, 'captured_at')).toBe('2026-05-04T07:12:09.000Z');
    const listed = await t.request('GET', `/api/photos?projectId=${project}`, { cookie: crew });
    const row = ((await listed.json()) as { id: string; capturedAt: string | null }[]).find(
      (p) => p.id === id,
    );
    expect(row?.capturedAt).toBe('2026-05-04T07:12:09.000Z');
  });

  it('[C15] rejects a create whose capture time is not a date and time, storing nothing', async () => {
    const d = device(t, crew);
    const id = newId();
    const { body } = await d.push([
      d.mutation('create', 'photos', id, {
        projectId: project,
        sha256: sha256(uniquePng()),
        capturedAt: 'yesterday',
      }),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'VALIDATION_FAILED' });
    expect((await t.query('SELECT count(*) AS n FROM photos WHERE id = ?', [id]))[0]).toEqual({ n: 0 });
  });
});
