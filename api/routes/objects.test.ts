import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { device } from '../sync/testing.ts';
import { ORIGIN, STORAGE_BACKENDS, createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  sub: 'sub@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

const JPEG = new Uint8Array(
  jpeg.encode({ data: Buffer.alloc(16 * 16 * 4, 90), width: 16, height: 16 }, 85).data,
);
const GIF = Uint8Array.from(
  Buffer.from(
    '47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b',
    'hex',
  ),
);

async function call(method: string, url: string, who: Who, body?: unknown, headers?: Record<string, string>) {
  const res = await t.request(method, url, { cookie: cookie[who], body, headers });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: (type.includes('json') ? await res.json() : null) as any, res };
}

async function newUploadUrl(who: Who): Promise<string> {
  const res = await call('POST', '/api/objects/upload', who, {});
  expect(res.status).toBe(200);
  return res.body.uploadURL;
}

/** PUTs to an upload address: the app's own on disk, the store's presigned one with S3. */
async function put(url: string, who: Who, bytes: Uint8Array, type = 'image/jpeg') {
  const res = await t.putUpload(url, bytes, {
    cookie: cookie[who],
    headers: { 'content-type': type, 'content-length': String(bytes.byteLength) },
  });
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: (json ? await res.json() : null) as any, res };
}

const keyOf = (url: string) => new URL(url, ORIGIN).pathname.split('/').pop()!;
const storedFiles = () => t.storedObjects();
/** Distinct JPEG bytes each call, so no test's upload is deduplicated against another's. */
let shade = 0;
const freshJpeg = () =>
  new Uint8Array(
    jpeg.encode({ data: Buffer.alloc(8 * 8 * 4, ++shade), width: 8, height: 8 }, 70 + (shade % 20)).data,
  );

let projectId: string;

describe.each(STORAGE_BACKENDS)('presigned objects, photos on %s', (backend) => {
  beforeAll(async () => {
    t = await createTestApp({ storage: backend });
    for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
    projectId = (await call('POST', '/api/projects', 'manager', { name: 'Object yard', location: 'Quay 2' }))
      .body.id;
  });
  afterAll(() => t?.close());

  describe('POST /api/objects/upload', () => {
    it('hands out a signed upload address for an empty JSON body or no body at all', async () => {
      const withJson = await call('POST', '/api/objects/upload', 'crew', {});
      expect(withJson.status).toBe(200);
      if (backend === 'disk') {
        expect(withJson.body.uploadURL).toMatch(
          /^\/api\/objects\/upload\/[0-9a-f-]{36}\?expires=\d+&sig=[0-9a-f]{64}$/,
        );
      } else {
        // A presigned PUT into the bucket's incoming/ area, valid for 15 minutes.
        const url = new URL(withJson.body.uploadURL);
        expect(url.origin).toBe(t.s3!.endpoint);
        expect(url.pathname).toMatch(/^\/sitecommand-photos\/photos\/incoming\/[0-9a-f-]{36}$/);
        expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
        expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      }
      const bare = await call('POST', '/api/objects/upload', 'crew');
      expect(bare.status).toBe(200);
      expect(keyOf(bare.body.uploadURL)).not.toBe(keyOf(withJson.body.uploadURL));
    });

    it('refuses unknown fields in the body with 400', async () => {
      const res = await call('POST', '/api/objects/upload', 'crew', { contentType: 'text/html' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('the presigned upload flow', () => {
    it('uploads bytes, creates a photo from the key and serves the image to the company', async () => {
      const url = await newUploadUrl('crew');
      const stored = await put(url, 'crew', JPEG);
      expect(stored.status).toBe(200);
      const key = keyOf(url);
      if (backend === 'disk') expect(stored.body).toEqual({ key });

      const created = await call('POST', '/api/photos', 'crew', {
        projectId,
        userId: 'placeholder-user',
        filename: key,
        originalName: 'slab.jpg',
        description: 'Slab pour',
        tags: ['concrete', ' level 2 ', ''],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        projectId,
        filename: key,
        originalName: 'slab.jpg',
        tags: ['concrete', 'level 2'],
        mimeType: 'image/jpeg',
        sizeBytes: JPEG.byteLength,
        blobStatus: 'present',
        url: `/api/photos/${created.body.id}/file`,
      });

      for (const path of [`/api/objects/image/${key}`, created.body.url]) {
        const res = await t.getImage(path, { cookie: cookie.manager });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        if (backend === 'disk') expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(JPEG))).toBe(true);
      }
    });

    if (backend === 'disk') {
      it('serves stored images with a sandbox CSP and a private immutable cache', async () => {
        const url = await newUploadUrl('crew');
        await put(url, 'crew', JPEG);
        const res = await t.request('GET', `/api/objects/image/${keyOf(url)}`, { cookie: cookie.crew });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
        expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      });
    } else {
      it('answers an uncached 302 to a short-lived presigned GET that serves the detected type', async () => {
        const url = await newUploadUrl('crew');
        // Sent as PNG: the type served is the one sniffed at the claim, never the one the client declared.
        await put(url, 'crew', JPEG, 'image/png');
        const res = await t.request('GET', `/api/objects/image/${keyOf(url)}`, { cookie: cookie.crew });
        expect(res.status).toBe(302);
        expect(res.headers.get('cache-control')).toBe('no-store');
        const location = new URL(res.headers.get('location')!);
        expect(location.origin).toBe(t.s3!.endpoint);
        expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(600);
        // The same address for a repeat view within its window, so the browser's cache can answer it.
        const again = await t.request('GET', `/api/objects/image/${keyOf(url)}`, { cookie: cookie.crew });
        expect(again.headers.get('location')).toBe(location.href);
        const served = await fetch(location);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe('image/jpeg');
        expect(served.headers.get('cache-control')).toBe('private, max-age=300');
        expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(JPEG))).toBe(true);
      });

      it('names the store in the CSP for images and connections', async () => {
        const res = await t.request('GET', '/api/auth/user', { cookie: cookie.crew });
        const csp = res.headers.get('content-security-policy')!;
        expect(csp).toContain(`img-src 'self' blob: data: ${t.s3!.endpoint}`);
        expect(csp).toContain(`connect-src 'self' ${t.s3!.endpoint}`);
      });
    }

    it('hides an uploaded image from another company (404)', async () => {
      const url = await newUploadUrl('crew');
      await put(url, 'crew', JPEG);
      const res = await call('GET', `/api/objects/image/${keyOf(url)}`, 'harbor');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    });

    it("refuses to make a photo from another company's upload (404)", async () => {
      const url = await newUploadUrl('crew');
      await put(url, 'crew', JPEG);
      const harborProject = (await call('POST', '/api/projects', 'harbor', { name: 'Dock', location: 'Bay' }))
        .body.id;
      const res = await call('POST', '/api/photos', 'harbor', {
        projectId: harborProject,
        filename: keyOf(url),
      });
      expect(res.status).toBe(404);
    });

    it('answers 404 for unknown keys and for the metadata sidecar', async () => {
      const url = await newUploadUrl('crew');
      await put(url, 'crew', JPEG);
      expect((await call('GET', `/api/objects/image/${keyOf(url)}.meta`, 'crew')).status).toBe(404);
      expect(
        (await call('GET', '/api/objects/image/01900000-0000-7000-8000-000000000000', 'crew')).status,
      ).toBe(404);
      expect((await call('GET', '/api/objects/image/..%2F..%2Fetc', 'crew')).status).toBe(404);
    });
  });

  describe('GET /api/objects/image/{key}: bytes are as visible as the rows naming them', () => {
    const subId = async () =>
      (await t.query<{ id: string }>(`SELECT id FROM users WHERE email = 'sub@summit.test'`))[0]!.id;
    /** A seeded photo with its bytes, on a project the subcontractor is (or is not) assigned to. */
    const seededPhoto = async (assigned: boolean) =>
      (
        await t.query<{ key: string; project: string }>(
          `SELECT p.filename AS key, p.project_id AS project FROM photos p
         WHERE p.company_id = (SELECT company_id FROM users WHERE email = 'sub@summit.test')
           AND p.deleted_at IS NULL AND p.blob_status = 'present'
           AND p.project_id ${assigned ? '' : 'NOT'} IN (SELECT project_id FROM subcontractor_assignments
             WHERE subcontractor_id = ? AND status = 'active')
         ORDER BY p.id LIMIT 1`,
          [await subId()],
        )
      )[0]!;
    const fetchAs = async (who: Who, key: string) =>
      (await t.getImage(`/api/objects/image/${key}`, { cookie: cookie[who] })).status;

    it('refuses a subcontractor the photo of a project it is not assigned to, by key (404)', async () => {
      const { key, project } = await seededPhoto(false);
      const photoId = (await t.query<{ id: string }>('SELECT id FROM photos WHERE filename = ?', [key]))[0]!
        .id;
      expect(await fetchAs('crew', key)).toBe(200);
      expect((await call('GET', `/api/photos/${photoId}/file`, 'sub')).status).toBe(404);
      const res = await call('GET', `/api/objects/image/${key}`, 'sub');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(project).toBeTruthy();
    });

    it('takes the photos away from a subcontractor removed from the project at once', async () => {
      const { key, project } = await seededPhoto(true);
      expect(await fetchAs('sub', key)).toBe(200);
      const sub = await subId();
      const unassign = (status: string) =>
        t.exec(
          'UPDATE subcontractor_assignments SET status = ? WHERE subcontractor_id = ? AND project_id = ?',
          [status, sub, project],
        );
      await unassign('completed');
      try {
        expect(await fetchAs('sub', key)).toBe(404);
      } finally {
        await unassign('active');
      }
    });

    it('lets only the uploader read an upload no row names yet; then the photo row decides', async () => {
      const url = await newUploadUrl('crew');
      await put(url, 'crew', JPEG);
      const key = keyOf(url);
      expect(await fetchAs('crew', key)).toBe(200);
      expect(await fetchAs('manager', key)).toBe(404);
      expect(await fetchAs('sub', key)).toBe(404);
      const created = await call('POST', '/api/photos', 'crew', { projectId, filename: key });
      expect(created.status).toBe(201);
      expect(await fetchAs('manager', key)).toBe(200);
      // The subcontractor is not assigned to this project: the photo row says no, whoever knows the key.
      expect(await fetchAs('sub', key)).toBe(404);
      expect((await call('DELETE', `/api/photos/${created.body.id}`, 'manager')).status).toBe(200);
      expect(await fetchAs('crew', key)).toBe(404);
    });

    it("shows a log's uploaded image to those who can read the log, and no one else", async () => {
      const url = await newUploadUrl('crew');
      await put(url, 'crew', JPEG);
      const key = keyOf(url);
      const log = await call('POST', '/api/logs', 'crew', {
        projectId,
        title: 'Rebar delivered',
        images: [`/api/objects/image/${key}`],
      });
      expect(log.status).toBe(201);
      expect(await fetchAs('manager', key)).toBe(200);
      expect(await fetchAs('sub', key)).toBe(404);
      expect(await fetchAs('harbor', key)).toBe(404);
    });

    const assignedProject = async () =>
      (
        await t.query<{ id: string }>(
          `SELECT project_id AS id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'
           ORDER BY project_id LIMIT 1`,
          [await subId()],
        )
      )[0]!.id;

    it('refuses a subcontractor bytes it names by the sha256 of a photo it cannot see, in a photo row of its own', async () => {
      // Attack: remember a photo's hash (pulled while assigned, or of a deleted photo), then create a photo on a
      // project still assigned that names the hash, and read the bytes through the new row.
      const { key } = await seededPhoto(false);
      const sha = (
        await t.query<{ sha256: string }>('SELECT sha256 FROM photos WHERE filename = ?', [key])
      )[0]!.sha256;
      const d = device(t, cookie.sub!);
      const rowId = newId();
      const { body } = await d.push([
        d.mutation('create', 'photos', rowId, { projectId: await assignedProject(), sha256: sha }),
      ]);
      expect(body.results[0]?.status).toBe('applied');
      // The row waits for bytes the subcontractor must send itself; nothing tells it the company holds them.
      expect(
        (await t.query<{ blob_status: string }>('SELECT blob_status FROM photos WHERE id = ?', [rowId]))[0]
          ?.blob_status,
      ).toBe('pending');
      expect((await call('GET', `/api/photos/${rowId}/file`, 'sub')).status).toBe(404);
      expect(await fetchAs('sub', sha)).toBe(404);
    });

    it("refuses a subcontractor an upload it names in its own log when the upload belongs to another's log", async () => {
      const url = await newUploadUrl('manager');
      await put(url, 'manager', JPEG);
      const key = keyOf(url);
      const image = `/api/objects/image/${key}`;
      expect(
        (await call('POST', '/api/logs', 'manager', { projectId, title: 'Slab pour', images: [image] }))
          .status,
      ).toBe(201);
      expect(await fetchAs('sub', key)).toBe(404);
      const stolen = await call('POST', '/api/logs', 'sub', {
        projectId: await assignedProject(),
        title: 'x',
        images: [image],
      });
      expect(stolen.status).toBe(404);
      const d = device(t, cookie.sub!);
      const { body } = await d.push([
        d.mutation('create', 'project_logs', newId(), {
          projectId: await assignedProject(),
          title: 'y',
          images: [image],
        }),
      ]);
      expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' });
      expect(await fetchAs('sub', key)).toBe(404);
    });
  });

  if (backend === 'disk') {
    describe('PUT /api/objects/upload/{key}', () => {
      it('refuses an expired address with 403 BAD_SIGNATURE', async () => {
        const url = await newUploadUrl('crew');
        t.clock.offsetMs += 16 * 60_000;
        try {
          const res = await put(url, 'crew', JPEG);
          expect(res.status).toBe(403);
          expect(res.body.code).toBe('BAD_SIGNATURE');
        } finally {
          t.clock.offsetMs -= 16 * 60_000;
        }
        expect(await storedFiles()).not.toContain(keyOf(url));
      });

      it('refuses a tampered signature, another key and another user', async () => {
        const url = await newUploadUrl('crew');
        const tampered = url.replace(/sig=(.)/, (_m, ch: string) => `sig=${ch === '0' ? '1' : '0'}`);
        expect((await put(tampered, 'crew', JPEG)).status).toBe(403);
        const otherKey = url.replace(keyOf(url), '01900000-0000-7000-8000-000000000001');
        expect((await put(otherKey, 'crew', JPEG)).status).toBe(403);
        const stolen = await put(url, 'manager', JPEG);
        expect(stolen.status).toBe(403);
        expect(stolen.body.code).toBe('BAD_SIGNATURE');
      });

      it('refuses a GIF and a text file sent as JPEG with 415 and stores nothing', async () => {
        for (const bytes of [GIF, new TextEncoder().encode('<html><script>alert(1)</script></html>')]) {
          const url = await newUploadUrl('crew');
          const res = await put(url, 'crew', bytes, 'image/jpeg');
          expect(res.status).toBe(415);
          expect(res.body).toEqual({
            message: 'Only JPEG, PNG or WebP images are accepted',
            code: 'UNSUPPORTED_MEDIA_TYPE',
          });
          expect((await storedFiles()).filter((f) => f.startsWith(keyOf(url)))).toEqual([]);
        }
      });

      it('refuses a body that is not an image type with 415', async () => {
        const url = await newUploadUrl('crew');
        const res = await put(url, 'crew', new TextEncoder().encode('hello'), 'text/plain');
        expect(res.status).toBe(415);
      });

      it('refuses an 11 MiB body with 413 PAYLOAD_TOO_LARGE', async () => {
        const url = await newUploadUrl('crew');
        const res = await put(url, 'crew', new Uint8Array(11 * 1024 * 1024));
        expect(res.status).toBe(413);
        expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
      });

      it('stops reading a body without Content-Length soon after it passes 10 MiB', async () => {
        const url = await newUploadUrl('crew');
        const chunk = new Uint8Array(1024 * 1024);
        let pulled = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= 40) controller.close();
            else {
              pulled++;
              controller.enqueue(chunk);
            }
          },
        });
        const init = {
          method: 'PUT',
          headers: { cookie: cookie.crew!, origin: ORIGIN, 'content-type': 'image/jpeg' },
          body,
          duplex: 'half',
        } as RequestInit;
        const res = await t.app.request(url, init, { incoming: { socket: { remoteAddress: '127.0.0.1' } } });
        expect(res.status).toBe(413);
        expect(pulled).toBeLessThanOrEqual(MAX_PHOTO_BYTES / chunk.byteLength + 3);
      });

      it('accepts a retry of the same bytes and refuses other bytes under a used address (409)', async () => {
        const url = await newUploadUrl('crew');
        expect((await put(url, 'crew', JPEG)).status).toBe(200);
        expect((await put(url, 'crew', JPEG)).status).toBe(200);
        const other = new Uint8Array(
          jpeg.encode({ data: Buffer.alloc(8 * 8 * 4, 10), width: 8, height: 8 }, 50).data,
        );
        const res = await put(url, 'crew', other);
        expect(res.status).toBe(409);
        const served = await t.getImage(`/api/objects/image/${keyOf(url)}`, { cookie: cookie.crew });
        expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(JPEG))).toBe(true);
      });
    });
  }

  describe('an upload is refused or deduplicated alike on both stores', () => {
    /** Uploads bytes and makes the first use of the key: a photo created from it, as spec 02's client does. */
    async function uploadAndUse(who: Who, bytes: Uint8Array, type = 'image/jpeg') {
      const url = await newUploadUrl(who);
      const putAnswer = await put(url, who, bytes, type);
      const created = await call('POST', '/api/photos', who, { projectId, filename: keyOf(url) });
      // On disk the app sees the bytes at the PUT; with S3 they go to the bucket, and the first use claims them.
      return { key: keyOf(url), refusal: backend === 'disk' ? putAnswer : created, created };
    }

    it('refuses a GIF with 415 and an 11 MiB body with 413, stores nothing, and the key stays unusable', async () => {
      for (const [bytes, status, code] of [
        [GIF, 415, 'UNSUPPORTED_MEDIA_TYPE'],
        [new Uint8Array(11 * 1024 * 1024), 413, 'PAYLOAD_TOO_LARGE'],
      ] as const) {
        const before = (await storedFiles()).length;
        const { key, refusal } = await uploadAndUse('crew', bytes);
        expect(refusal.status).toBe(status);
        expect(refusal.body.code).toBe(code);
        expect((await storedFiles()).length).toBe(before);
        expect((await call('POST', '/api/photos', 'crew', { projectId, filename: key })).status).toBe(404);
        expect(await t.store.incoming(key)).toBeNull();
      }
    });

    it('stores the same bytes uploaded twice as one object, served under both keys', async () => {
      const bytes = freshJpeg();
      const first = await uploadAndUse('crew', bytes);
      const second = await uploadAndUse('manager', bytes);
      expect([first.created.status, second.created.status]).toEqual([201, 201]);
      const stored = await storedFiles();
      const sha = first.created.body.sha256 as string;
      expect(second.created.body.sha256).toBe(sha);
      expect(stored.filter((n) => n === sha)).toEqual([sha]);
      // Only the two keys' sidecars besides the one object: no second copy of the bytes anywhere.
      expect(stored.filter((n) => n.startsWith(first.key) || n.startsWith(second.key)).sort()).toEqual(
        [`${first.key}.meta`, `${second.key}.meta`].sort(),
      );
      for (const { created } of [first, second]) {
        const res = await t.getImage(created.body.url, { cookie: cookie.manager });
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      }
    });

    it("lets no other company, nor another user, claim or use a company's upload", async () => {
      const bytes = freshJpeg();
      const url = await newUploadUrl('crew');
      await put(url, 'crew', bytes);
      const key = keyOf(url);
      const harborProject = (await call('POST', '/api/projects', 'harbor', { name: 'Pier', location: 'Bay' }))
        .body.id;
      expect(
        (await call('POST', '/api/photos', 'harbor', { projectId: harborProject, filename: key })).status,
      ).toBe(404);
      expect((await t.getImage(`/api/objects/image/${key}`, { cookie: cookie.harbor })).status).toBe(404);
      expect(
        (
          await call('POST', '/api/logs', 'harbor', {
            projectId: harborProject,
            title: 'Stolen',
            images: [`/api/objects/image/${key}`],
          })
        ).status,
      ).toBe(404);
      expect((await call('POST', '/api/photos', 'manager', { projectId, filename: key })).status).toBe(404);
      // The upload is still its uploader's to use.
      const own = await call('POST', '/api/photos', 'crew', { projectId, filename: key });
      expect(own.status).toBe(201);
      const res = await t.getImage(own.body.url, { cookie: cookie.crew });
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    });

    it('claims an upload a log names as its first use', async () => {
      const bytes = freshJpeg();
      const url = await newUploadUrl('crew');
      await put(url, 'crew', bytes);
      const image = `/api/objects/image/${keyOf(url)}`;
      const log = await call('POST', '/api/logs', 'crew', { projectId, title: 'Formwork', images: [image] });
      expect(log.status).toBe(201);
      const res = await t.getImage(image, { cookie: cookie.manager });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    });
  });

  if (backend === 's3') {
    describe('presigned PUT into the store', () => {
      it('is refused by the store once expired (15 minutes), and nothing becomes claimable', async () => {
        t.clock.offsetMs -= 16 * 60_000;
        let url: string;
        try {
          url = await newUploadUrl('crew');
        } finally {
          t.clock.offsetMs += 16 * 60_000;
        }
        const res = await put(url, 'crew', JPEG);
        expect(res.status).toBe(403);
        expect((await call('POST', '/api/photos', 'crew', { projectId, filename: keyOf(url) })).status).toBe(
          404,
        );
      });

      it('takes no cookie and no Origin: the address alone is the permission, for 15 minutes', async () => {
        const url = await newUploadUrl('crew');
        const res = await fetch(url, { method: 'PUT', body: JPEG as BodyInit });
        expect(res.status).toBe(200);
        expect(await t.store.incoming(keyOf(url))).not.toBeNull();
      });
    });
  }
});
