import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { newId } from '#shared/ids.ts';
import { assignSubcontractor, device } from '../sync/testing.ts';
import { ORIGIN, createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  sub: 'sub@summit.test',
  harbor: 'admin@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

const JPEG = new Uint8Array(jpeg.encode({ data: Buffer.alloc(8 * 8 * 4, 60), width: 8, height: 8 }, 80).data);

async function call(method: string, url: string, who: Who, body?: unknown, headers?: Record<string, string>) {
  const res = await t.request(method, url, { cookie: cookie[who], body, headers });
  return { status: res.status, body: (await res.json()) as any };
}
const idOf = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;

/** A finished presigned upload by `who`; returns the image address a log stores. */
async function uploadedImage(who: Who): Promise<string> {
  const url = (await call('POST', '/api/objects/upload', who, {})).body.uploadURL as string;
  const res = await t.request('PUT', url, {
    cookie: cookie[who],
    body: JPEG,
    headers: { 'content-type': 'image/jpeg' },
  });
  expect(res.status).toBe(200);
  return `/api/objects/image/${new URL(url, ORIGIN).pathname.split('/').pop()}`;
}

let projectId: string;
let subProjectId: string;
let harborProjectId: string;
let harborLogId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  const project = async (who: Who, name: string) =>
    (await call('POST', '/api/projects', who, { name, location: 'Site' })).body.id as string;
  projectId = await project('manager', 'Log tower');
  subProjectId = await project('manager', 'Sub log site');
  harborProjectId = await project('harbor', 'Harbor logs');
  const subcontractorId = await idOf(EMAILS.sub);
  await assignSubcontractor(t, subcontractorId, subProjectId);
  harborLogId = (
    await call('POST', '/api/logs', 'harbor', { projectId: harborProjectId, title: 'Harbor diary' })
  ).body.id;
});
afterAll(() => t?.close());

describe('POST /api/logs', () => {
  it('creates a log with defaults, authored by the session user whatever userId says', async () => {
    const res = await call('POST', '/api/logs', 'crew', {
      projectId,
      title: '  Rebar delivered ',
      userId: 'placeholder',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      projectId,
      userId: await idOf(EMAILS.crew),
      title: 'Rebar delivered',
      content: '',
      type: 'general',
      status: 'open',
      images: [],
    });
    expect(res.body).not.toHaveProperty('fieldMeta');
    const [activity] = await t.query<{ action_type: string }>(
      'SELECT action_type FROM user_activities WHERE entity_id = ?',
      [res.body.id],
    );
    expect(activity?.action_type).toBe('log_created');
  });

  it('keeps photo and uploaded-image addresses of its own company', async () => {
    const form = new FormData();
    form.append('file', new File([JPEG], 'a.jpg', { type: 'image/jpeg' }));
    form.append('projectId', projectId);
    const photo = (await call('POST', '/api/photos', 'crew', form)).body;
    const image = await uploadedImage('crew');
    const res = await call('POST', '/api/logs', 'crew', {
      projectId,
      title: 'Safety walk',
      content: 'Guard rail missing on level 3',
      type: 'safety',
      status: 'in-progress',
      images: [photo.url, image],
    });
    expect(res.status).toBe(201);
    expect(res.body.images).toEqual([photo.url, image]);
  });

  it('a photo deleted from the gallery leaves its log, and an edit still naming it is saved without it', async () => {
    const photo = async (name: string) => {
      const form = new FormData();
      form.append('file', new File([JPEG], name, { type: 'image/jpeg' }));
      form.append('projectId', projectId);
      return (await call('POST', '/api/photos', 'crew', form)).body as { id: string; url: string };
    };
    const [gone, kept] = [await photo('gone.jpg'), await photo('kept.jpg')];
    const log = (
      await call('POST', '/api/logs', 'crew', { projectId, title: 'Pour', images: [gone.url, kept.url] })
    ).body as { id: string; version: number };
    expect((await call('DELETE', `/api/photos/${gone.id}`, 'manager')).status).toBe(200);
    const after = (
      (await call('GET', '/api/logs', 'crew')).body as { id: string; images: string[]; version: number }[]
    ).find((l) => l.id === log.id)!;
    expect(after.images).toEqual([kept.url]);
    expect(after.version).toBeGreaterThan(log.version);
    // A device that read the log before the delete sends its old list with a new photo.
    const added = await photo('added.jpg');
    const edit = await call('PATCH', `/api/logs/${log.id}`, 'crew', {
      images: [gone.url, kept.url, added.url],
    });
    expect(edit.status).toBe(200);
    expect(edit.body.images).toEqual([kept.url, added.url]);
  });

  it('refuses a missing title with 400 "Title is required"', async () => {
    const res = await call('POST', '/api/logs', 'crew', { projectId, content: 'no title' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Title is required');
    expect(res.body.fields).toHaveProperty('title');
  });

  it('refuses unknown types, statuses, fields and foreign image addresses with 400', async () => {
    for (const extra of [
      { type: 'gossip' },
      { status: 'done' },
      { mood: 'happy' },
      { images: ['https://tracker.example/pixel.gif'] },
      { images: ['javascript:alert(1)'] },
      { images: Array.from({ length: 51 }, () => `/api/photos/${newId()}/file`) },
    ]) {
      const res = await call('POST', '/api/logs', 'crew', { projectId, title: 'x', ...extra });
      expect(res.status, JSON.stringify(extra).slice(0, 60)).toBe(400);
    }
  });

  it("refuses another company's project, photo or uploaded image with 404", async () => {
    expect((await call('POST', '/api/logs', 'crew', { projectId: harborProjectId, title: 'x' })).status).toBe(
      404,
    );
    const harborImage = await uploadedImage('harbor');
    expect(
      (await call('POST', '/api/logs', 'crew', { projectId, title: 'x', images: [harborImage] })).status,
    ).toBe(404);
    const form = new FormData();
    form.append('file', new File([JPEG], 'a.jpg', { type: 'image/jpeg' }));
    form.append('projectId', harborProjectId);
    const harborPhoto = (await call('POST', '/api/photos', 'harbor', form)).body;
    const res = await call('POST', '/api/logs', 'crew', { projectId, title: 'x', images: [harborPhoto.url] });
    expect(res.status).toBe(404);
  });

  it("refuses through sync push, with a code, a log showing another company's uploaded image", async () => {
    const harborImage = await uploadedImage('harbor');
    const ownImage = await uploadedImage('crew');
    const d = device(t, cookie.crew!);
    const { status, body } = await d.push([
      d.mutation('create', 'project_logs', newId(), { projectId, title: 'Pushed', images: [harborImage] }),
      d.mutation('create', 'project_logs', newId(), { projectId, title: 'Pushed own', images: [ownImage] }),
    ]);
    expect(status).toBe(200);
    expect(body.results).toMatchObject([
      { id: 1, status: 'rejected', code: 'NOT_FOUND' },
      { id: 2, status: 'applied' },
    ]);
  });

  it("refuses a subcontractor's log on a project it is not assigned to with 404", async () => {
    expect((await call('POST', '/api/logs', 'sub', { projectId, title: 'x' })).status).toBe(404);
    expect(
      (await call('POST', '/api/logs', 'sub', { projectId: subProjectId, title: 'Sub diary' })).status,
    ).toBe(201);
  });
});

describe('GET /api/logs', () => {
  it("lists the company's logs newest first, with their images, and none of another company's", async () => {
    const first = await call('POST', '/api/logs', 'crew', { projectId, title: 'Morning' });
    t.clock.offsetMs += 1000;
    const second = await call('POST', '/api/logs', 'crew', {
      projectId,
      title: 'Evening',
      images: [await uploadedImage('crew')],
    });
    t.clock.offsetMs -= 1000;
    const res = await call('GET', '/api/logs', 'manager');
    expect(res.status).toBe(200);
    const ids = res.body.map((l: any) => l.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(first.body.id));
    expect(ids).not.toContain(harborLogId);
    expect(res.body.find((l: any) => l.id === second.body.id).images).toHaveLength(1);
    const times = res.body.map((l: any) => l.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const harborIds = (await call('GET', '/api/logs', 'harbor')).body.map((l: any) => l.id);
    expect(harborIds).toContain(harborLogId);
    expect(harborIds).not.toContain(second.body.id);
  });

  it('shows a subcontractor only the logs of its assigned projects', async () => {
    const visible = await call('POST', '/api/logs', 'manager', {
      projectId: subProjectId,
      title: 'Sub site note',
    });
    const hidden = await call('POST', '/api/logs', 'manager', { projectId, title: 'Office only' });
    const res = await call('GET', '/api/logs', 'sub');
    const ids = res.body.map((l: any) => l.id);
    expect(ids).toContain(visible.body.id);
    expect(ids).not.toContain(hidden.body.id);
    const assigned = (
      await t.query<{ project_id: string }>(
        "SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'",
        [await idOf(EMAILS.sub)],
      )
    ).map((r) => r.project_id);
    expect(res.body.every((l: any) => assigned.includes(l.projectId))).toBe(true);
  });
});

describe('PATCH /api/logs/{id}', () => {
  it('updates only the fields sent, including adding images', async () => {
    const log = (
      await call('POST', '/api/logs', 'crew', {
        projectId,
        title: 'Crane',
        content: 'Arrived',
        type: 'milestone',
      })
    ).body;
    const image = await uploadedImage('crew');
    const res = await call('PATCH', `/api/logs/${log.id}`, 'crew', { status: 'resolved', images: [image] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Crane',
      content: 'Arrived',
      type: 'milestone',
      status: 'resolved',
      images: [image],
    });
    expect(res.body.version).toBeGreaterThan(log.version);
    const stored = (
      await t.query<{ field_meta: string }>('SELECT field_meta FROM project_logs WHERE id = ?', [log.id])
    )[0]!;
    expect(Object.keys(JSON.parse(stored.field_meta))).toEqual(
      expect.arrayContaining(['status', 'images', 'title']),
    );
  });

  it("refuses another company's log with 404 and an empty title with 400", async () => {
    const res = await call('PATCH', `/api/logs/${harborLogId}`, 'crew', { status: 'closed' });
    expect(res.status).toBe(404);
    const log = (await call('POST', '/api/logs', 'crew', { projectId, title: 'Keep' })).body;
    const blank = await call('PATCH', `/api/logs/${log.id}`, 'crew', { title: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toMatch(/Title is required$/);
    const harbor = await call('GET', '/api/logs', 'harbor');
    expect(harbor.body.find((l: any) => l.id === harborLogId).status).toBe('open');
  });

  it("refuses moving a log to another company's project with 404", async () => {
    const log = (await call('POST', '/api/logs', 'crew', { projectId, title: 'Stay' })).body;
    expect((await call('PATCH', `/api/logs/${log.id}`, 'crew', { projectId: harborProjectId })).status).toBe(
      404,
    );
  });
});

describe('DELETE /api/logs/{id}', () => {
  it('refuses crew (no logs:delete) with 403', async () => {
    const log = (await call('POST', '/api/logs', 'crew', { projectId, title: 'Mine' })).body;
    const res = await call('DELETE', `/api/logs/${log.id}`, 'crew');
    expect(res.status).toBe(403);
    expect((await call('GET', '/api/logs', 'crew')).body.map((l: any) => l.id)).toContain(log.id);
  });

  it("refuses another company's log with 404", async () => {
    expect((await call('DELETE', `/api/logs/${harborLogId}`, 'manager')).status).toBe(404);
  });

  it('removes the log from lists and refuses later edits with 404', async () => {
    const log = (await call('POST', '/api/logs', 'crew', { projectId, title: 'Temporary' })).body;
    const res = await call('DELETE', `/api/logs/${log.id}`, 'manager');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: log.id });
    expect((await call('GET', '/api/logs', 'manager')).body.map((l: any) => l.id)).not.toContain(log.id);
    expect((await call('PATCH', `/api/logs/${log.id}`, 'crew', { status: 'closed' })).status).toBe(404);
    const [row] = await t.query<{ deleted_at: string | null }>(
      'SELECT deleted_at FROM project_logs WHERE id = ?',
      [log.id],
    );
    expect(row?.deleted_at).not.toBeNull();
  });
});
