import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { photoFileUrl } from '#shared/schemas/photo.ts';
import type { Mutation, PullPage } from '#shared/sync-protocol.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { cell, device, firstId, type Device } from './testing.ts';

// SPEC W20: a log's photos are decided as a set when two devices change them from the same version.

let t: TestApp;
let admin: string;
let crew: string;
let manager: string;
let project: string;
/** The device that makes the photos and logs, so its stamps are not those of the devices under test. */
let setup: Device;

beforeAll(async () => {
  t = await createTestApp();
  [admin, crew, manager] = await Promise.all([
    t.login('admin@summit.test'),
    t.login('crew@summit.test'),
    t.login('manager@summit.test'),
  ]);
  project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('summit.test'),
  );
  setup = device(t, admin);
});
afterAll(() => t.close());

const now = () => t.deps.now().getTime();

/** Photos of the project (their bytes still pending), by the address a log stores. */
async function photos(n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId());
  const { body } = await setup.push(
    ids.map((id) =>
      setup.mutation('create', 'photos', id, {
        projectId: project,
        sha256: crypto.randomBytes(32).toString('hex'),
      }),
    ),
  );
  expect(body.results.map((r) => r.status)).toEqual(ids.map(() => 'applied'));
  return ids.map(photoFileUrl);
}

async function freshLog(images: string[]): Promise<{ id: string; version: number }> {
  const id = newId();
  const { body } = await setup.push([
    setup.mutation('create', 'project_logs', id, { projectId: project, title: 'Slab pour', images }),
  ]);
  expect(body.results[0]).toMatchObject({ status: 'applied' });
  return { id, version: body.results[0]!.version! };
}

const imagesOf = async (id: string) =>
  JSON.parse(String(await cell(t, 'project_logs', id, 'images'))) as string[];

/** What the row's History and the notifications hold about it: nothing, when nothing was lost. */
async function announced(id: string) {
  const [conflicts, notices] = await Promise.all([
    t.query('SELECT field FROM sync_conflicts WHERE row_id = ?', [id]),
    t.query('SELECT title FROM notifications WHERE related_entity_id = ?', [id]),
  ]);
  return { conflicts, notices };
}

/** A patch of the log's photos made on a device that had `base` when the user edited. */
function photoEdit(
  d: Device,
  log: { id: string; version: number },
  base: string[],
  images: string[],
  dt = 0,
) {
  return d.mutation(
    'patch',
    'project_logs',
    log.id,
    { images },
    { baseVersion: log.version, clientTime: now() + dt, baseValues: { images: base } },
  );
}

describe('[W20] a log’s photos merge as a set', () => {
  it('[W20] two devices add different photos from the same version: the log keeps both, nothing is announced', async () => {
    const [p0, a1, a2, b1, b2] = await photos(5);
    const log = await freshLog([p0!]);
    const [a, b] = [device(t, crew), device(t, manager)];
    const first = await a.push([photoEdit(a, log, [p0!], [p0!, a1!, a2!], 5_000)]);
    expect(first.body.results[0]).toMatchObject({ status: 'applied' });
    // B's edit was made earlier: under W1 its list would lose to A's whole.
    const second = await b.push([photoEdit(b, log, [p0!], [p0!, b2!, b1!], -5_000)]);
    expect(second.body.results[0]).toEqual({
      id: 1,
      status: 'applied',
      version: expect.any(Number) as number,
    });
    // The server's order stands; B's additions follow in B's order.
    expect(await imagesOf(log.id)).toEqual([p0, a1, a2, b2, b1]);
    expect(await announced(log.id)).toEqual({ conflicts: [], notices: [] });

    // Written like any field: a new version, stamped as B's write, and both devices pull the same list.
    const meta = JSON.parse(String(await cell(t, 'project_logs', log.id, 'field_meta'))) as Record<
      string,
      [number, number, string]
    >;
    expect(meta.images).toEqual([second.body.results[0]!.version, expect.any(Number), b.clientId]);
    for (const d of [a, b]) {
      const page = (await d.pull(log.version)).body as PullPage;
      const change = page.changes.find((c) => c.id === log.id);
      expect(change && !change.deleted && change.data.images).toEqual([p0, a1, a2, b2, b1]);
    }
  });

  it('[W20] a removal on one device and an addition on another both stand, in either order', async () => {
    const [p0, p1, added] = await photos(3);
    for (const removerFirst of [true, false]) {
      const log = await freshLog([p0!, p1!]);
      const [remover, adder] = [device(t, crew), device(t, manager)];
      const removal = () => remover.push([photoEdit(remover, log, [p0!, p1!], [p0!])]);
      const addition = () => adder.push([photoEdit(adder, log, [p0!, p1!], [p0!, p1!, added!])]);
      const results = removerFirst
        ? [await removal(), await addition()]
        : [await addition(), await removal()];
      for (const r of results) expect(r.body.results[0]).toMatchObject({ status: 'applied' });
      expect(await imagesOf(log.id)).toEqual([p0, added]);
      expect(await announced(log.id)).toEqual({ conflicts: [], notices: [] });
    }
  });

  it('[W20] a photo both devices add appears once', async () => {
    const [p0, both, only] = await photos(3);
    const log = await freshLog([p0!]);
    const [a, b] = [device(t, crew), device(t, manager)];
    await a.push([photoEdit(a, log, [p0!], [p0!, both!])]);
    const { body } = await b.push([photoEdit(b, log, [p0!], [p0!, both!, only!], -1_000)]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await imagesOf(log.id)).toEqual([p0, both, only]);
    expect(await announced(log.id)).toEqual({ conflicts: [], notices: [] });
  });

  it('[W20] a photo deleted from the gallery meanwhile does not come back, nor is one added after its delete', async () => {
    const [p0, gone, late, added] = await photos(4);
    const log = await freshLog([p0!, gone!]);
    const del = await setup.push([
      setup.mutation('delete', 'photos', gone!.split('/')[3]!),
      setup.mutation('delete', 'photos', late!.split('/')[3]!),
    ]);
    expect(del.body.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await imagesOf(log.id)).toEqual([p0]);
    // The device still had the deleted photo on the log, and adds one deleted since it picked it.
    const b = device(t, crew);
    // Made before the delete: under W1 the whole list would lose to the delete's newer stamp.
    const { body } = await b.push([photoEdit(b, log, [p0!, gone!], [p0!, gone!, late!, added!], -60_000)]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await imagesOf(log.id)).toEqual([p0, added]);
  });

  it('[W20] a device’s later queued edit, whose base holds its own earlier one, keeps the other device’s photo', async () => {
    const [p0, other, mine1, mine2] = await photos(4);
    const log = await freshLog([p0!]);
    const [a, b] = [device(t, crew), device(t, manager)];
    await a.push([photoEdit(a, log, [p0!], [p0!, other!])]);
    // Both of B's edits were queued offline on the version it had; the second started from the first.
    const { body } = await b.push([
      photoEdit(b, log, [p0!], [p0!, mine1!]),
      photoEdit(b, log, [p0!, mine1!], [p0!, mine1!, mine2!]),
    ]);
    expect(body.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await imagesOf(log.id)).toEqual([p0, other, mine1, mine2]);
  });

  it('[W20][W10] a device’s edit keeps a photo an office user added through REST meanwhile', async () => {
    const [p0, office, field] = await photos(3);
    const log = await freshLog([p0!]);
    const rest = await t.request('PATCH', `/api/logs/${log.id}`, {
      cookie: manager,
      body: { images: [p0, office] },
    });
    expect(rest.status).toBe(200);
    const b = device(t, crew);
    const { body } = await b.push([photoEdit(b, log, [p0!], [p0!, field!], -60_000)]);
    expect(body.results[0]).toMatchObject({ status: 'applied' });
    expect(await imagesOf(log.id)).toEqual([p0, office, field]);
    expect(await announced(log.id)).toEqual({ conflicts: [], notices: [] });
  });

  it('[W20] a merge past 50 photos is refused like any list that long, and the rest of the batch applies', async () => {
    const many = await photos(52);
    const base = many.slice(0, 48);
    const log = await freshLog(base);
    const [a, b] = [device(t, crew), device(t, manager)];
    await a.push([photoEdit(a, log, base, [...base, many[48]!, many[49]!])]);
    const { body } = await b.push([
      photoEdit(b, log, base, [...base, many[50]!, many[51]!]),
      b.mutation(
        'patch',
        'project_logs',
        log.id,
        { title: 'Slab pour, level 2' },
        { baseVersion: log.version },
      ),
    ]);
    expect(body.results[0]).toMatchObject({ status: 'rejected', code: 'VALIDATION_FAILED' });
    expect(body.results[0]!.message).toMatch(/at most 50 photos/);
    expect(body.results[1]).toMatchObject({ status: 'applied' });
    expect(await imagesOf(log.id)).toEqual(many.slice(0, 50));
  });

  it('[W20][P8] baseValues naming anything but a set field the patch changes is rejected', async () => {
    const [p0, p1] = await photos(2);
    const log = await freshLog([p0!]);
    const d = device(t, crew);
    const opts = (baseValues: Record<string, unknown>) => ({ baseVersion: log.version, baseValues });
    const bad: Mutation[] = [
      d.mutation('patch', 'project_logs', log.id, { title: 'X' }, opts({ title: 'Slab pour' })),
      d.mutation('patch', 'project_logs', log.id, { title: 'X' }, opts({ images: [p0] })),
      d.mutation('patch', 'project_logs', log.id, { images: [p0, p1] }, opts({ images: 'all' })),
      d.mutation('patch', 'project_logs', log.id, { images: [p0, p1] }, opts({ images: [7] })),
      d.mutation(
        'create',
        'project_logs',
        newId(),
        { projectId: project, title: 'New', images: [p0] },
        { baseValues: { images: [] } },
      ),
      d.mutation('delete', 'project_logs', log.id, {}, opts({ images: [] })),
    ];
    const { status, body } = await d.push([
      ...bad,
      d.mutation('patch', 'project_logs', log.id, { images: [p0, p1] }, opts({ images: [p0] })),
    ]);
    expect(status).toBe(200);
    expect(body.results.map((r) => r.code ?? r.status)).toEqual([
      ...bad.map(() => 'VALIDATION_FAILED'),
      'applied',
    ]);
    expect(await imagesOf(log.id)).toEqual([p0, p1]);
    expect(await cell(t, 'project_logs', log.id, 'deleted_at')).toBeNull();
  });

  it('[W20][W1] a patch without baseValues (queued before W20) is still decided by last writer wins', async () => {
    const [p0, a1, b1] = await photos(3);
    const [a, b, c] = [device(t, crew), device(t, manager), device(t, admin)];
    const old = (d: Device, log: { id: string; version: number }, images: string[], dt: number) =>
      d.mutation(
        'patch',
        'project_logs',
        log.id,
        { images },
        { baseVersion: log.version, clientTime: now() + dt },
      );

    // The earlier edit loses whole: the server keeps A's list, and B's is kept in the History.
    const lost = await freshLog([p0!]);
    await a.push([old(a, lost, [p0!, a1!], 5_000)]);
    const { body } = await b.push([old(b, lost, [p0!, b1!], -5_000)]);
    expect(body.results[0]).toMatchObject({
      status: 'partially_applied',
      conflicts: [{ field: 'images', kept: [p0, a1], yours: [p0, b1] }],
    });
    expect(await imagesOf(lost.id)).toEqual([p0, a1]);
    expect((await announced(lost.id)).conflicts).toEqual([{ field: 'images' }]);

    // The later edit replaces the list whole, and the user whose list it replaced is told (W11).
    const replaced = await freshLog([p0!]);
    await a.push([old(a, replaced, [p0!, a1!], -5_000)]);
    const later = await c.push([old(c, replaced, [p0!, b1!], 5_000)]);
    expect(later.body.results[0]).toMatchObject({ status: 'applied' });
    expect(await imagesOf(replaced.id)).toEqual([p0, b1]);
    const { conflicts, notices } = await announced(replaced.id);
    expect(conflicts).toEqual([{ field: 'images' }]);
    expect(notices).toHaveLength(1);
  });
});
