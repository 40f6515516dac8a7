import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { newId } from '#shared/ids.ts';
import { schema } from '../db/index.ts';
import { assignSubcontractor } from '../sync/testing.ts';
import { STORAGE_BACKENDS, createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  admin: 'admin@summit.test',
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  sub: 'sub@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

const JPEG = new Uint8Array(
  jpeg.encode({ data: Buffer.alloc(12 * 12 * 4, 140), width: 12, height: 12 }, 80).data,
);
const PNG = Uint8Array.from(
  Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' +
      '0d0a2db40000000049454e44ae426082',
    'hex',
  ),
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

function form(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
) {
  const f = new FormData();
  if (file) f.append('file', new File([file.bytes], file.name, { type: file.type }));
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const uploadJpeg = (who: Who, projectId: string, fields: Record<string, string> = {}) =>
  call(
    'POST',
    '/api/photos',
    who,
    form({ projectId, ...fields }, { bytes: JPEG, name: 'site.jpg', type: 'image/jpeg' }),
  );

const idOf = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;
const assignedProjects = async (email: string) =>
  (
    await t.query<{ project_id: string }>(
      "SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'",
      [await idOf(email)],
    )
  ).map((r) => r.project_id);
const photoRowCount = async () => (await t.query<{ n: number }>('SELECT count(*) AS n FROM photos'))[0]!.n;
const storedFiles = () => t.storedObjects();

let projectId: string;
let otherProjectId: string;
let subProjectId: string;
let harborProjectId: string;

describe.each(STORAGE_BACKENDS)('photos on %s', (backend) => {
  beforeAll(async () => {
    t = await createTestApp({ storage: backend });
    for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
    const project = async (who: Who, name: string) =>
      (await call('POST', '/api/projects', who, { name, location: 'Site' })).body.id as string;
    projectId = await project('manager', 'Photo tower');
    otherProjectId = await project('manager', 'Photo annex');
    subProjectId = await project('manager', 'Sub photo site');
    harborProjectId = await project('harbor', 'Harbor photos');
    const subcontractorId = await idOf(EMAILS.sub);
    await assignSubcontractor(t, subcontractorId, subProjectId);
  });
  afterAll(() => t?.close());

  describe('POST /api/photos (multipart)', () => {
    it('stores the file and answers the photo, owned by the session user whatever userId says', async () => {
      const res = await uploadJpeg('crew', projectId, {
        description: 'North wall',
        userId: '1',
        tags: 'brick, north,,brick',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        projectId,
        userId: await idOf(EMAILS.crew),
        originalName: 'site.jpg',
        description: 'North wall',
        tags: ['brick', 'north'],
        mimeType: 'image/jpeg',
        sizeBytes: JPEG.byteLength,
        blobStatus: 'present',
        url: `/api/photos/${res.body.id}/file`,
      });
      expect(res.body).not.toHaveProperty('fieldMeta');
      const [activity] = await t.query<{ action_type: string }>(
        'SELECT action_type FROM user_activities WHERE entity_id = ?',
        [res.body.id],
      );
      expect(activity?.action_type).toBe('photo_uploaded');
    });

    it('serves the same bytes back as image/jpeg with nosniff', async () => {
      const created = await uploadJpeg('crew', projectId);
      for (const path of [`/api/photos/${created.body.id}/file`, `/api/photos/${created.body.id}`]) {
        const res = await t.getImage(path, { cookie: cookie.manager });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        // The store's own answer (S3) is on another origin, where the bytes cannot act as the app's page.
        if (backend === 'disk') expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(JPEG))).toBe(true);
      }
    });

    it('serves the photo file with a sandbox CSP, or with S3 redirects to the store uncached', async () => {
      const created = await uploadJpeg('crew', projectId);
      const res = await t.request('GET', `/api/photos/${created.body.id}/file`, { cookie: cookie.crew });
      if (backend === 'disk') expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
      else {
        expect(res.status).toBe(302);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(new URL(res.headers.get('location')!).origin).toBe(t.s3!.endpoint);
      }
    });

    it('decides the type from the bytes, not from the name or the declared type', async () => {
      const res = await call(
        'POST',
        '/api/photos',
        'crew',
        form({ projectId }, { bytes: PNG, name: 'x.jpg', type: 'image/jpeg' }),
      );
      expect(res.status).toBe(201);
      expect(res.body.mimeType).toBe('image/png');
      const file = await t.getImage(res.body.url, { cookie: cookie.crew });
      expect(file.headers.get('content-type')).toBe('image/png');
    });

    it('refuses a GIF and a text file with 415 and keeps neither row nor bytes', async () => {
      const rows = await photoRowCount();
      const files = (await storedFiles()).length;
      for (const file of [
        { bytes: GIF, name: 'a.gif', type: 'image/gif' },
        { bytes: new TextEncoder().encode('just some notes'), name: 'notes.jpg', type: 'image/jpeg' },
      ]) {
        const res = await call('POST', '/api/photos', 'crew', form({ projectId }, file));
        expect(res.status).toBe(415);
        expect(res.body.message).toBe('Only JPEG, PNG or WebP images are accepted');
      }
      expect(await photoRowCount()).toBe(rows);
      expect((await storedFiles()).length).toBe(files);
    });

    it('refuses an 11 MiB file with 413', async () => {
      const big = new Uint8Array(11 * 1024 * 1024);
      big.set(JPEG.subarray(0, 4));
      const res = await call(
        'POST',
        '/api/photos',
        'crew',
        form({ projectId }, { bytes: big, name: 'big.jpg', type: 'image/jpeg' }),
      );
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('refuses a form without a file or without a project with 400', async () => {
      const noFile = await call('POST', '/api/photos', 'crew', form({ projectId }));
      expect(noFile.status).toBe(400);
      expect(noFile.body.fields).toHaveProperty('file');
      const noProject = await call(
        'POST',
        '/api/photos',
        'crew',
        form({}, { bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' }),
      );
      expect(noProject.status).toBe(400);
      expect(noProject.body.fields).toHaveProperty('projectId');
      const unknown = await uploadJpeg('crew', projectId, { colour: 'red' });
      expect(unknown.status).toBe(400);
    });

    it("refuses another company's project and a subcontractor's unassigned project with 404", async () => {
      const before = await storedFiles();
      expect((await uploadJpeg('crew', harborProjectId)).status).toBe(404);
      expect((await uploadJpeg('sub', projectId)).status).toBe(404);
      const accepted = await uploadJpeg('sub', subProjectId);
      expect(accepted.status).toBe(201);
      // Only the accepted upload left anything: its sidecar (its bytes, stored by content, were already there).
      const added = (await storedFiles()).filter((n) => !before.includes(n));
      expect(added).toEqual([`${accepted.body.filename}.meta`]);
      expect(before).toContain(accepted.body.sha256);
    });

    it('refuses an upload posted from another origin with 403', async () => {
      const res = await t.request('POST', '/api/photos', {
        cookie: cookie.crew,
        body: form({ projectId }, { bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' }),
        headers: { origin: 'https://evil.example' },
      });
      expect(res.status).toBe(403);
    });
  });

  describe('POST /api/photos (JSON after an upload)', () => {
    it('refuses a key that was never uploaded with 404 and a malformed body with 400', async () => {
      const missing = await call('POST', '/api/photos', 'crew', { projectId, filename: newId() });
      expect(missing.status).toBe(404);
      const bad = await call('POST', '/api/photos', 'crew', { projectId, filename: '../etc/passwd' });
      expect(bad.status).toBe(400);
    });
  });

  describe('GET /api/photos', () => {
    it("lists the company's visible photos newest first, filtered by project on request", async () => {
      const first = await uploadJpeg('crew', otherProjectId, { description: 'first' });
      t.clock.offsetMs += 1000;
      const second = await uploadJpeg('crew', otherProjectId, { description: 'second' });
      t.clock.offsetMs -= 1000;
      const filtered = await call('GET', `/api/photos?projectId=${otherProjectId}`, 'crew');
      expect(filtered.status).toBe(200);
      expect(filtered.body.map((p: any) => p.id)).toEqual([second.body.id, first.body.id]);
      expect(filtered.body[0]).toMatchObject({
        description: 'second',
        mimeType: 'image/jpeg',
        blobStatus: 'present',
        url: `/api/photos/${second.body.id}/file`,
      });
      const all = await call('GET', '/api/photos', 'crew');
      expect(all.body.length).toBeGreaterThan(filtered.body.length);
      expect(all.body.every((p: any) => p.companyId === t.companyId('summit.test'))).toBe(true);
      const times = all.body.map((p: any) => p.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('shows another company none of them and a subcontractor only its assigned projects', async () => {
      const summitPhoto = await uploadJpeg('crew', projectId);
      const subPhoto = await uploadJpeg('sub', subProjectId);
      const harbor = await call('GET', '/api/photos', 'harbor');
      expect(harbor.body.map((p: any) => p.id)).not.toContain(summitPhoto.body.id);
      const sub = await call('GET', '/api/photos', 'sub');
      expect(sub.body.map((p: any) => p.id)).toContain(subPhoto.body.id);
      const assigned = await assignedProjects(EMAILS.sub);
      expect(assigned).toContain(subProjectId);
      expect(assigned).not.toContain(projectId);
      expect(sub.body.every((p: any) => assigned.includes(p.projectId))).toBe(true);
      expect(sub.body.map((p: any) => p.id)).not.toContain(summitPhoto.body.id);
    });

    it('refuses a malformed projectId filter with 400', async () => {
      expect((await call('GET', '/api/photos?projectId=nope', 'crew')).status).toBe(400);
    });
  });

  describe('GET /api/photos/{id}/file', () => {
    it('serves a stored demo photo with its recorded type and size', async () => {
      const seeded = (await call('GET', '/api/photos', 'manager')).body.find((p: any) =>
        p.filename.endsWith('.jpg'),
      );
      expect(seeded).toBeDefined();
      const res = await t.getImage(seeded.url, { cookie: cookie.manager });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(seeded.mimeType);
      expect((await res.arrayBuffer()).byteLength).toBe(seeded.sizeBytes);
    });

    it("answers 404 for another company's photo and a subcontractor's unassigned one", async () => {
      const created = await uploadJpeg('crew', projectId);
      for (const path of [`/api/photos/${created.body.id}/file`, `/api/photos/${created.body.id}`]) {
        const res = await call('GET', path, 'harbor');
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
        expect((await call('GET', path, 'sub')).status).toBe(404);
      }
    });

    it('answers 404 BLOB_PENDING while the bytes of a synced photo have not arrived', async () => {
      const id = newId();
      const now = new Date().toISOString();
      await t.orm((db) =>
        db
          .insert(schema.photos)
          .values({
            id,
            projectId,
            companyId: t.companyId('summit.test'),
            filename: 'a'.repeat(64),
            blobStatus: 'pending',
            createdAt: now,
            updatedAt: now,
          })
          .run(),
      );
      const res = await call('GET', `/api/photos/${id}/file`, 'crew');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BLOB_PENDING');
    });
  });

  describe('DELETE /api/photos/{id}', () => {
    it('refuses crew (no photos:delete) with 403 and another company with 404', async () => {
      const created = await uploadJpeg('crew', projectId);
      const crew = await call('DELETE', `/api/photos/${created.body.id}`, 'crew');
      expect(crew.status).toBe(403);
      expect((await call('DELETE', `/api/photos/${created.body.id}`, 'harbor')).status).toBe(404);
      expect((await t.getImage(`/api/photos/${created.body.id}/file`, { cookie: cookie.crew })).status).toBe(
        200,
      );
    });

    it('hides the photo everywhere but keeps its bytes for devices that still reference them', async () => {
      const created = await uploadJpeg('crew', projectId);
      const res = await call('DELETE', `/api/photos/${created.body.id}`, 'manager');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: created.body.id });
      expect((await call('GET', '/api/photos', 'manager')).body.map((p: any) => p.id)).not.toContain(
        created.body.id,
      );
      expect((await call('GET', `/api/photos/${created.body.id}/file`, 'manager')).status).toBe(404);
      expect((await call('DELETE', `/api/photos/${created.body.id}`, 'manager')).status).toBe(404);
      expect(await t.store.has(`${created.body.filename}.meta`)).toBe(true);
      expect(await t.store.has(created.body.sha256)).toBe(true);
      const [row] = await t.query<{ deleted_at: string | null }>(
        'SELECT deleted_at FROM photos WHERE id = ?',
        [created.body.id],
      );
      expect(row?.deleted_at).not.toBeNull();
    });
  });
});
