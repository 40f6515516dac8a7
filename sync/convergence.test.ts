import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
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
