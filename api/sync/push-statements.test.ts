import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { SCHEMA_VERSION, type Mutation, type PushResponse } from '#shared/sync-protocol.ts';
import { hashToken, readSession } from '../auth/session.ts';
import type { SessionUser } from '../context.ts';
import { countStatements } from '../db/statement-count.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { push } from './push.ts';
import { device, firstId } from './testing.ts';

/**
 * The push's statement budget (ADR 020, budget B2): in a batch where everything applies, a patch costs one
 * read of the row (with whether the user may see it) and its UPDATE, and every 16 mutations share one
 * savepoint pair; the version counter, the activity rows, the stored results and the client's last id are
 * written once per batch (round 4). A device's first push also binds its id: one statement more, the trim
 * of that user's devices that never pushed (SPEC R6).
 */
const PER_PATCH = 2;
const SAVEPOINT_PAIRS_PER_100 = 2 * Math.ceil(100 / 16);
const PER_BATCH = 12 + 1;

let t: TestApp;
let admin: string;
let user: SessionUser;
let company: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  const token = /sc_session=([^;]+)/.exec(admin)![1]!;
  user = (await readSession(t.deps, hashToken(token)))!;
  company = t.companyId('summit.test');
});
afterAll(() => t.close());

const lastVersion = () =>
  t.db.$client
    .prepare<[string], number>('SELECT last_version FROM companies WHERE id = ?')
    .pluck()
    .get(company)!;
const activityCount = () =>
  t.db.$client
    .prepare<[string], number>('SELECT count(*) FROM user_activities WHERE company_id = ?')
    .pluck()
    .get(company)!;

/** Counts the statements of one push: on SQLite it runs, to its commit, before `push` returns its promise. */
async function pushDirect(clientId: string, mutations: Mutation[]) {
  const counted = countStatements(() =>
    push(t.database, user, { clientId, schemaVersion: SCHEMA_VERSION, mutations }, new Date()),
  );
  return { ...counted, result: (await counted.result) as { status: number; body: PushResponse } };
}

/** Tasks created by another device, with the versions a device that pulled them would send as base. */
async function newTasks(n: number): Promise<{ id: string; version: number }[]> {
  const d = device(t, admin);
  const project = await firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    company,
  );
  const ids = Array.from({ length: n }, () => newId());
  const { status, body } = await d.push(
    ids.map((id, i) =>
      d.mutation('create', 'tasks', id, { title: `Pour pad ${i}`, category: 'project', projectId: project }),
    ),
  );
  expect(status).toBe(200);
  return ids.map((id, i) => ({ id, version: body.results[i]!.version! }));
}

describe('push statement budget (ADR 020)', () => {
  it('[P6] a push of 100 patches runs at most 2 statements per patch, a savepoint pair per 16, and 13 per first batch', async () => {
    const ids = await newTasks(100);
    const d = device(t, admin);
    const before = lastVersion();
    const mutations = ids.map(({ id, version }, i) =>
      d.mutation(
        'patch',
        'tasks',
        id,
        { status: i % 2 ? 'in-progress' : 'blocked', priority: 'high' },
        { baseVersion: version },
      ),
    );
    const { result, count } = await pushDirect(d.clientId, mutations);
    expect(result.status).toBe(200);
    expect(result.body.results.every((r) => r.status === 'applied')).toBe(true);
    expect(count).toBeLessThanOrEqual(100 * PER_PATCH + SAVEPOINT_PAIRS_PER_100 + PER_BATCH);
    // The counter, written once, still covers every version handed out, one per write and none skipped.
    const versions = result.body.results.map((r) => r.version!);
    expect(versions).toEqual(Array.from({ length: 100 }, (_, i) => before + 1 + i));
    expect(lastVersion()).toBe(before + 100);
  });

  it('[P8] a rejected mutation inside a batch gives back its version and leaves no activity', async () => {
    const [a, b] = await newTasks(2);
    const d = device(t, admin);
    const before = lastVersion();
    const activities = activityCount();
    const { result } = await pushDirect(d.clientId, [
      d.mutation('patch', 'tasks', a!.id, { title: 'Set anchors' }, { baseVersion: a!.version }),
      d.mutation('patch', 'tasks', b!.id, { priority: 'not-a-priority' }, { baseVersion: b!.version }),
      d.mutation('patch', 'tasks', b!.id, { title: 'Strip forms' }, { baseVersion: b!.version }),
    ]);
    expect(result.body.results.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);
    expect(result.body.results.map((r) => r.version)).toEqual([before + 1, undefined, before + 2]);
    expect(lastVersion()).toBe(before + 2);
    expect(activityCount()).toBe(activities + 2);
  });

  it('[P8] a rejection late in a long batch leaves every other mutation applied once, versions gap-free', async () => {
    const tasks = await newTasks(40);
    const d = device(t, admin);
    const before = lastVersion();
    const activities = activityCount();
    const rejectedAt = [20, 37];
    const mutations = tasks.map(({ id, version }, i) =>
      d.mutation(
        'patch',
        'tasks',
        id,
        { priority: rejectedAt.includes(i) ? 'not-a-priority' : 'low' },
        { baseVersion: version },
      ),
    );
    const { result } = await pushDirect(d.clientId, mutations);
    expect(result.status).toBe(200);
    const statuses = result.body.results.map((r) => r.status);
    expect(statuses.filter((x) => x === 'rejected')).toHaveLength(2);
    expect(rejectedAt.map((i) => statuses[i])).toEqual(['rejected', 'rejected']);
    const versions = result.body.results.filter((r) => r.status === 'applied').map((r) => r.version);
    expect(versions).toEqual(Array.from({ length: 38 }, (_, i) => before + 1 + i));
    expect(lastVersion()).toBe(before + 38);
    expect(activityCount()).toBe(activities + 38);
    const priorities = t.db.$client
      .prepare<[string], string>(`SELECT priority FROM tasks WHERE id IN (${tasks.map(() => '?').join(',')})`)
      .pluck()
      .all(...(tasks.map((x) => x.id) as [string]));
    expect(priorities.filter((p) => p === 'low')).toHaveLength(38);
  });

  it('[P3] a result stored whole (before ADR 020) still replays as it was', async () => {
    const d = device(t, admin);
    const [task] = await newTasks(1);
    const m = d.mutation('patch', 'tasks', task!.id, { title: 'Old format' }, { baseVersion: task!.version });
    const first = await d.push([m]);
    const old = { ...first.body.results[0]!, conflicts: undefined };
    t.db.$client
      .prepare('UPDATE sync_mutations SET result = ? WHERE client_id = ? AND mutation_id = ?')
      .run(JSON.stringify(old), d.clientId, m.id);
    const replay = await d.push([m]);
    expect(replay.body.results).toEqual(first.body.results);
  });
});
