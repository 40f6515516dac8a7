import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { device as apiDevice } from '#api/sync/testing.ts';
import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import { photoFileUrl } from '#shared/schemas/photo.ts';
import { mutate, newRowId } from './mutate.ts';
import { newDevice, startServer, type Device, type LiveServer } from './test-support.ts';

// Property (issue 4): 3-5 devices doing random creates, patches and deletes of tasks, with random
// disconnects and syncs in between; once everyone is back online and has synced, every device's mirror
// equals the server's rows (same ids, same versions, same fields). Seeded and bounded for CI.

const MANAGER = 'manager@summit.test';
let s: LiveServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

type Command =
  | { kind: 'create'; device: number; title: string }
  | {
      kind: 'patch';
      device: number;
      pick: number;
      field: 'title' | 'status' | 'priority';
      value: number;
      title: string;
    }
  | { kind: 'delete'; device: number; pick: number }
  | { kind: 'toggle'; device: number }
  | { kind: 'sync'; device: number };

const device = fc.nat({ max: 4 });
const title = fc.string({ minLength: 0, maxLength: 12 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), device, title }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      device,
      pick: fc.nat(),
      field: fc.constantFrom('title' as const, 'status' as const, 'priority' as const),
      value: fc.nat(),
      title,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), device, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('toggle' as const), device }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sync' as const), device }) },
);

const FIELDS = ['title', 'status', 'priority', 'projectId', 'description', 'dueDate'] as const;

/** The server's live tasks of the company, as id -> comparable fields (snake_case columns mapped). */
async function serverTasks(companyId: string): Promise<Map<string, Record<string, unknown>>> {
  const rows = await s.t.query(
    `SELECT id, version, title, status, priority, project_id AS "projectId", description, due_date AS "dueDate"
     FROM tasks WHERE company_id = ? AND deleted_at IS NULL`,
    [companyId],
  );
  return new Map(rows.map((r) => [r.id as string, r]));
}

async function deviceTasks(d: Device): Promise<Map<string, Record<string, unknown>>> {
  const rows = await d.db.tasks.toArray();
  return new Map(
    rows.map((r) => {
      const out: Record<string, unknown> = { id: r.id, version: r.version };
      for (const f of FIELDS) out[f] = r[f] ?? null;
      return [r.id, out];
    }),
  );
}

it('[C6] after random offline writes and syncs on 3-5 devices, every mirror equals the server', async () => {
  const projectId = (
    await s.t.query<{ id: string }>(
      'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id',
      [s.t.companyId('summit.test')],
    )
  )[0]!.id;
  let runs = 0;
  let mutations = 0;
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 3, max: 5 }),
      fc.array(command, { minLength: 5, maxLength: 40 }),
      async (n, commands) => {
        runs++;
        const devices = await Promise.all(Array.from({ length: n }, () => newDevice(s, MANAGER)));
        for (const d of devices) await d.engine.syncNow();
        for (const c of commands) {
          const d = devices[c.device % n]!;
          if (c.kind === 'toggle') d.net.offline = !d.net.offline;
          else if (c.kind === 'sync') await d.engine.syncNow();
          else if (c.kind === 'create') {
            await mutate(d.db, 'tasks', 'create', newRowId(), { title: c.title, projectId });
            mutations++;
          } else {
            const ids = (await d.db.tasks.where('projectId').equals(projectId).primaryKeys()).sort();
            const id = ids[c.pick % Math.max(1, ids.length)];
            if (!id) continue;
            if (c.kind === 'delete') {
              await mutate(d.db, 'tasks', 'delete', id);
              mutations++;
              continue;
            }
            const value =
              c.field === 'title'
                ? c.title
                : c.field === 'status'
                  ? TASK_STATUSES[c.value % TASK_STATUSES.length]
                  : TASK_PRIORITIES[c.value % TASK_PRIORITIES.length];
            if (await mutate(d.db, 'tasks', 'patch', id, { [c.field]: value })) mutations++;
          }
        }
        for (const d of devices) d.net.offline = false;
        // Everyone pushes, then everyone pulls what the others pushed after it.
        for (const d of devices) await d.engine.syncNow();
        for (const d of devices) await d.engine.syncNow();
        const server = await serverTasks(devices[0]!.account.companyId);
        for (const d of devices) {
          expect(d.engine.status.get()).toMatchObject({ pending: 0, error: null });
          const mirror = await deviceTasks(d);
          expect([...mirror.keys()].sort()).toEqual([...server.keys()].sort());
          for (const [id, row] of server) expect(mirror.get(id)).toEqual(row);
          rejected += await d.db.syncIssues.where('kind').equals('mutation').count();
        }
      },
    ),
    { numRuns: 20, seed: 20261122, endOnFailure: true },
  );
  console.log(
    `convergence: ${runs} runs, ${mutations} mutations, ${rejected} rejected (kept in syncIssues), all mirrors equal`,
  );
});

// Property (SPEC W20): 3-4 phones add and remove photos of one log (and retitle it), with random
// disconnects and syncs in between. Once all have synced, every phone's log equals the server's, and its
// photos are a set decided by what each phone did, not by who pushed last: every photo some phone added and
// no phone removed is there, once, and nothing else is. A photo list never ends up as a conflict.
type PhotoCommand =
  | { kind: 'add'; device: number; photo: number }
  | { kind: 'remove'; device: number; pick: number }
  | { kind: 'title'; device: number; title: string }
  | { kind: 'toggle'; device: number }
  | { kind: 'sync'; device: number };

const photoCommand: fc.Arbitrary<PhotoCommand> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), device, photo: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), device, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('title' as const), device, title }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('toggle' as const), device }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sync' as const), device }) },
);

it('[C6][W20] after random offline photo edits of one log on 3-4 phones, every phone and the server hold the same set', async () => {
  const admin = await s.account('admin@summit.test');
  const setup = apiDevice(s.t, admin.cookie);
  const projectId = (
    await s.t.query<{ id: string }>(
      'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id',
      [admin.companyId],
    )
  )[0]!.id;
  const photoIds = Array.from({ length: 8 }, () => newRowId());
  await setup.push(
    photoIds.map((id) =>
      setup.mutation('create', 'photos', id, { projectId, sha256: crypto.randomBytes(32).toString('hex') }),
    ),
  );
  const photos = photoIds.map(photoFileUrl);
  const serverLog = async (id: string) => {
    const [row] = await s.t.query<{ version: number; title: string; images: string }>(
      'SELECT version, title, images FROM project_logs WHERE id = ?',
      [id],
    );
    return { version: row!.version, title: row!.title, images: JSON.parse(row!.images) as string[] };
  };
  let runs = 0;
  let edits = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 3, max: 4 }),
      fc.array(photoCommand, { minLength: 5, maxLength: 40 }),
      async (n, commands) => {
        runs++;
        const logId = newRowId();
        await setup.push([
          setup.mutation('create', 'project_logs', logId, {
            projectId,
            title: 'Diary',
            images: [photos[0]!],
          }),
        ]);
        const added = new Set([photos[0]!]);
        const removed = new Set<string>();
        const devices = await Promise.all(
          Array.from({ length: n }, (_, i) => newDevice(s, i % 2 ? 'crew@summit.test' : MANAGER)),
        );
        for (const d of devices) await d.engine.syncNow();
        for (const c of commands) {
          const d = devices[c.device % n]!;
          if (c.kind === 'toggle') d.net.offline = !d.net.offline;
          else if (c.kind === 'sync') await d.engine.syncNow();
          else {
            const images = (await d.db.project_logs.get(logId))!.images ?? [];
            let patch: { images?: string[]; title?: string };
            if (c.kind === 'title') patch = { title: c.title || 'Diary' };
            else if (c.kind === 'add') {
              const url = photos[c.photo % photos.length]!;
              if (images.includes(url)) continue;
              added.add(url);
              patch = { images: [...images, url] };
            } else {
              const url = images[c.pick % Math.max(1, images.length)];
              if (!url) continue;
              removed.add(url);
              patch = { images: images.filter((u) => u !== url) };
            }
            if (await mutate(d.db, 'project_logs', 'patch', logId, patch)) edits++;
          }
        }
        for (const d of devices) d.net.offline = false;
        for (const d of devices) await d.engine.syncNow();
        for (const d of devices) await d.engine.syncNow();
        const server = await serverLog(logId);
        expect(new Set(server.images).size).toBe(server.images.length);
        for (const url of added) if (!removed.has(url)) expect(server.images).toContain(url);
        for (const url of server.images) expect(added).toContain(url);
        for (const d of devices) {
          expect(d.engine.status.get()).toMatchObject({ pending: 0, error: null });
          const log = (await d.db.project_logs.get(logId))!;
          expect({ version: log.version, title: log.title, images: log.images }).toEqual(server);
          const issues = await d.db.syncIssues.toArray();
          expect(issues.filter((i) => i.kind === 'mutation')).toEqual([]);
          expect(issues.flatMap((i) => i.conflicts ?? []).filter((f) => f.field === 'images')).toEqual([]);
        }
      },
    ),
    { numRuns: 15, seed: 20261123, endOnFailure: true },
  );
  console.log(`log photo convergence: ${runs} runs, ${edits} edits, all phones equal the server`);
});
