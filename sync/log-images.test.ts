import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { device as apiDevice } from '#api/sync/testing.ts';
import { newId } from '#shared/ids.ts';
import { photoFileUrl } from '#shared/schemas/photo.ts';
import { mutate } from './mutate.ts';
import { applyMutation } from './rebase.ts';
import { newDevice, startServer, type Device, type LiveServer } from './test-support.ts';

// SPEC W20 on the device: a patch of a log's photos carries the list its edit started from, and the
// device merges it the way the server does, so two phones that each add a photo offline both keep it.

const MANAGER = 'manager@summit.test';
const CREW = 'crew@summit.test';
let s: LiveServer;
let project: string;
let setup: ReturnType<typeof apiDevice>;

beforeAll(async () => {
  s = await startServer();
  const admin = await s.account('admin@summit.test');
  setup = apiDevice(s.t, admin.cookie);
  project = (
    await s.t.query<{ id: string }>(
      'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
      [admin.companyId],
    )
  )[0]!.id;
});
afterAll(async () => {
  await s.close();
});

/** Photos of the project made elsewhere (bytes pending), by the address a log stores. */
async function photos(n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId());
  await setup.push(
    ids.map((id) =>
      setup.mutation('create', 'photos', id, {
        projectId: project,
        sha256: crypto.randomBytes(32).toString('hex'),
      }),
    ),
  );
  return ids.map(photoFileUrl);
}

async function logWith(images: string[]): Promise<string> {
  const id = newId();
  const { body } = await setup.push([
    setup.mutation('create', 'project_logs', id, { projectId: project, title: 'Site diary', images }),
  ]);
  expect(body.results[0]).toMatchObject({ status: 'applied' });
  return id;
}

async function synced(email: string, options: Parameters<typeof newDevice>[2] = {}): Promise<Device> {
  const d = await newDevice(s, email, options);
  await d.engine.syncNow();
  return d;
}

const serverImages = async (id: string) =>
  JSON.parse(
    (await s.t.query<{ images: string }>('SELECT images FROM project_logs WHERE id = ?', [id]))[0]!.images,
  ) as string[];
const deviceImages = async (d: Device, id: string) => (await d.db.project_logs.get(id))?.images;

describe('[W20] a log’s photos on the device', () => {
  it('[W20][C3] two offline phones each add a photo to the same log: both phones and the server keep both', async () => {
    const [p0, fromA, fromB] = await photos(3);
    const log = await logWith([p0!]);
    const a = await synced(MANAGER);
    const b = await synced(CREW);
    a.net.offline = b.net.offline = true;
    await mutate(a.db, 'project_logs', 'patch', log, { images: [p0!, fromA!] });
    await mutate(b.db, 'project_logs', 'patch', log, { images: [p0!, fromB!] });
    // The patch carries only the changed field, and the list the edit started from beside it.
    const [queued] = await b.db.outbox.toArray();
    expect(queued).toMatchObject({ data: { images: [p0, fromB] }, baseValues: { images: [p0] } });
    expect(Object.keys(queued!.data)).toEqual(['images']);
    a.net.offline = b.net.offline = false;
    await a.engine.syncNow();
    await b.engine.syncNow();
    await a.engine.syncNow();
    expect(await serverImages(log)).toEqual([p0, fromA, fromB]);
    for (const d of [a, b]) {
      expect(await deviceImages(d, log)).toEqual([p0, fromA, fromB]);
      expect(await d.db.syncIssues.count()).toBe(0);
      expect(d.engine.status.get()).toMatchObject({ pending: 0, error: null });
    }
  });

  it('[W20][C3] the photos the form loaded are the base: one pulled while the form was open stays', async () => {
    const [p0, pulled, mine] = await photos(3);
    const log = await logWith([p0!]);
    const a = await synced(MANAGER);
    const loaded = (await a.db.project_logs.get(log))!.images;
    // While A's form is open, another phone adds a photo and A's device pulls it.
    const b = await synced(CREW);
    await mutate(b.db, 'project_logs', 'patch', log, { images: [p0!, pulled!] });
    await b.engine.syncNow();
    await a.engine.syncNow();
    expect(await deviceImages(a, log)).toEqual([p0, pulled]);
    a.net.offline = true;
    await mutate(a.db, 'project_logs', 'patch', log, { images: [p0!, mine!] }, { images: loaded });
    expect(await deviceImages(a, log)).toEqual([p0, pulled, mine]);
    a.net.offline = false;
    await a.engine.syncNow();
    await b.engine.syncNow();
    expect(await serverImages(log)).toEqual([p0, pulled, mine]);
    expect(await deviceImages(b, log)).toEqual([p0, pulled, mine]);
  });

  it('[W20][C11] a pending photo edit re-applied on a pulled row keeps the photo the pull brought', () => {
    const row = { id: 'log', version: 7, images: ['/p0', '/theirs'] };
    const pending = { op: 'patch' as const, rowId: 'log', clientTime: 0, data: { images: ['/p0', '/mine'] } };
    expect(applyMutation(row, { ...pending, baseValues: { images: ['/p0'] } })?.images).toEqual([
      '/p0',
      '/theirs',
      '/mine',
    ]);
    // A patch queued before W20 replaces the list, as the server's W1 will decide it.
    expect(applyMutation(row, pending)?.images).toEqual(['/p0', '/mine']);
  });

  it('[W20][W1] a photo edit queued before W20 (no baseValues) is still decided by last writer wins', async () => {
    const [p0, later, earlier] = await photos(3);
    const log = await logWith([p0!]);
    let clock = Date.now();
    const a = await synced(MANAGER, { now: () => clock });
    const b = await synced(CREW, { now: () => clock });
    await mutate(b.db, 'project_logs', 'patch', log, { images: [p0!, earlier!] });
    // The entry as the app before W20 queued it.
    await b.db.outbox.toCollection().modify((e) => {
      delete e.baseValues;
    });
    clock += 5_000;
    await mutate(a.db, 'project_logs', 'patch', log, { images: [p0!, later!] });
    await a.engine.syncNow();
    await b.engine.syncNow();
    expect(await serverImages(log)).toEqual([p0, later]);
    expect(await deviceImages(b, log)).toEqual([p0, later]);
    expect(await b.db.syncIssues.toArray()).toMatchObject([
      { kind: 'conflict', conflicts: [{ field: 'images', kept: [p0, later], yours: [p0, earlier] }] },
    ]);
  });
});
