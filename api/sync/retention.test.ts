import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { startSyncRetention, sweepSyncState } from './horizon.ts';
import { cell, device, firstId } from './testing.ts';

let t: TestApp;
let admin: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  project = firstId(
    t,
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    t.companyId('summit.test'),
  );
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const DAY = 24 * 60 * 60 * 1000;
const task = (title: string) => ({ title, category: 'project', projectId: project });

const storedResults = (clientId: string) =>
  t.db.$client
    .prepare<[string], number>('SELECT mutation_id FROM sync_mutations WHERE client_id = ? ORDER BY 1')
    .pluck()
    .all(clientId);

describe('retention of push results', () => {
  it('[R1] a push acknowledges the results below its first id; the rest still replay', async () => {
    const d = device(t, admin);
    const first = [
      d.mutation('create', 'tasks', newId(), task('A')),
      d.mutation('create', 'tasks', newId(), task('B')),
    ];
    await d.push(first);
    expect(storedResults(d.clientId)).toEqual([1, 2]);
    const third = d.mutation('create', 'tasks', newId(), task('C'));
    const answer = await d.push([third]);
    expect(storedResults(d.clientId)).toEqual([3]);
    // The answer of 3 was lost: the device sends it again and gets the stored result.
    const replay = await d.push([third]);
    expect(replay.body.results).toEqual(answer.body.results);
  });

  it('[R2] a replay whose result is gone is rejected with RESULT_EXPIRED and applied nothing again', async () => {
    const d = device(t, admin);
    const create = d.mutation('create', 'tasks', newId(), task('Kept once'));
    await d.push([create]);
    await d.push([d.mutation('patch', 'tasks', create.rowId, { title: 'Renamed' })]);
    const { status, body } = await d.push([create]);
    expect(status).toBe(200);
    expect(body.results).toEqual([
      expect.objectContaining({ id: 1, status: 'rejected', code: 'RESULT_EXPIRED' }) as unknown,
    ]);
    expect(body.lastMutationId).toBe(2);
    expect(cell(t, 'tasks', create.rowId, 'title')).toBe('Renamed');
  });

  it('[R1] results never acknowledged are deleted after 30 days, and not before', async () => {
    const d = device(t, admin);
    await d.push([d.mutation('create', 'tasks', newId(), task('Unacknowledged'))]);
    sweepSyncState(t.db, new Date(Date.now() + 29 * DAY));
    expect(storedResults(d.clientId)).toEqual([1]);
    sweepSyncState(t.db, new Date(Date.now() + 31 * DAY));
    expect(storedResults(d.clientId)).toEqual([]);
  });
});

describe('scheduled tombstone purge', () => {
  /** A device that pulled a task, then saw it deleted by another device. */
  async function deletedAfterPull() {
    const d = device(t, admin);
    const id = newId();
    await d.push([d.mutation('create', 'tasks', id, task('Temporary hoarding'))]);
    const pulled = await d.pull(0, 5000);
    if ('reset' in pulled.body || pulled.body.hasMore) throw new Error('setup: expected one full page');
    const other = device(t, admin);
    await other.push([other.mutation('delete', 'tasks', id)]);
    return { d, id, cursor: pulled.body.cursor };
  }

  /** Starts the server's retention timer with the clock `daysAhead` days on and lets its first pass run. */
  function runScheduledPass(daysAhead: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stop = startSyncRetention(t.db, { now: () => new Date(Date.now() + daysAhead * DAY) });
    vi.advanceTimersByTime(60 * 60 * 1000);
    stop();
    vi.useRealTimers();
  }

  it('[R3] keeps tombstones younger than 30 days: a device behind them pulls the deletion', async () => {
    const { d, id, cursor } = await deletedAfterPull();
    runScheduledPass(29);
    const { body } = await d.pull(cursor);
    expect(body).not.toHaveProperty('reset');
    expect(body).toMatchObject({ changes: [expect.objectContaining({ id, deleted: true }) as unknown] });
  });

  it('[R3][L8] purges older tombstones on schedule; a cursor below the horizon pulls reset, then downloads again', async () => {
    const { d, id, cursor } = await deletedAfterPull();
    runScheduledPass(31);
    expect(cell(t, 'tasks', id, 'id')).toBeUndefined();
    expect((await d.pull(cursor)).body).toEqual({ reset: true, reason: 'horizon' });
    const fresh = await d.pull(0, 5000);
    if ('reset' in fresh.body) throw new Error('a pull from 0 never resets');
    expect(fresh.body.changes.some((c) => c.id === id)).toBe(false);
    expect((await d.pull(fresh.body.cursor)).body).toMatchObject({ changes: [], hasMore: false });
  });
});
