import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '#shared/ids.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import type { Database } from '../db/database.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { startSyncRetention, sweepSyncState } from './horizon.ts';
import { cell, device, firstId } from './testing.ts';

let t: TestApp;
let admin: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
  project = await firstId(
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

const storedResults = async (clientId: string) =>
  (
    await t.query<{ mutation_id: number }>(
      'SELECT mutation_id FROM sync_mutations WHERE client_id = ? ORDER BY 1',
      [clientId],
    )
  ).map((r) => r.mutation_id);

describe('retention of push results', () => {
  it('[R1] a push acknowledges the results below its first id; the rest still replay', async () => {
    const d = device(t, admin);
    const first = [
      d.mutation('create', 'tasks', newId(), task('A')),
      d.mutation('create', 'tasks', newId(), task('B')),
    ];
    await d.push(first);
    expect(await storedResults(d.clientId)).toEqual([1, 2]);
    const third = d.mutation('create', 'tasks', newId(), task('C'));
    const answer = await d.push([third]);
    expect(await storedResults(d.clientId)).toEqual([3]);
    // The answer of 3 was lost: the device sends it again and gets the stored result.
    const replay = await d.push([third]);
    expect(replay.body.results).toEqual(answer.body.results);
  });

  it('[R1] a push saying how far its device stored the answers keeps the results above that for replay', async () => {
    const d = device(t, admin);
    const first = [
      d.mutation('create', 'tasks', newId(), task('A')),
      d.mutation('create', 'tasks', newId(), task('B')),
    ];
    const answer = await d.push(first);
    // The device sent the next batch before storing the answers of the first (it stores behind its sends).
    await d.push([d.mutation('create', 'tasks', newId(), task('C'))], SCHEMA_VERSION, 0);
    expect(await storedResults(d.clientId)).toEqual([1, 2, 3]);
    // Cut off before storing them, it sends the first batch again: the stored answers, nothing expired.
    const replay = await d.push(first, SCHEMA_VERSION, 0);
    expect(replay.body.results).toEqual(answer.body.results);
    expect(await cell(t, 'tasks', first[0]!.rowId, 'title')).toBe('A');
    // Once it says it stored them, they go (and never more than below the batch's first id).
    await d.push([d.mutation('create', 'tasks', newId(), task('D'))], SCHEMA_VERSION, 2);
    expect(await storedResults(d.clientId)).toEqual([3, 4]);
    await d.push([d.mutation('create', 'tasks', newId(), task('E'))], SCHEMA_VERSION, 99);
    expect(await storedResults(d.clientId)).toEqual([5]);
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
    expect(await cell(t, 'tasks', create.rowId, 'title')).toBe('Renamed');
  });

  it('[R1] results never acknowledged are deleted after 30 days, and not before', async () => {
    const d = device(t, admin);
    await d.push([d.mutation('create', 'tasks', newId(), task('Unacknowledged'))]);
    await sweepSyncState(t.database, new Date(Date.now() + 29 * DAY));
    expect(await storedResults(d.clientId)).toEqual([1]);
    await sweepSyncState(t.database, new Date(Date.now() + 31 * DAY));
    expect(await storedResults(d.clientId)).toEqual([]);
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

  /**
   * The app's database, counting its operations under way. On SQLite a pass's statements answer at once, so
   * it ends within the timer's callback; on PostgreSQL it goes on after it, waiting for the server.
   */
  function tracked(database: Database) {
    let busy = 0;
    const track = <T>(p: Promise<T>) => {
      busy++;
      return p.finally(() => busy--);
    };
    const watched: Database = {
      ...database,
      get open() {
        return database.open;
      },
      read: (op) => track(database.read(op)),
      readTx: (op) => track(database.readTx(op)),
      writeTx: (companyId, op) => track(database.writeTx(companyId, op)),
    };
    /** Resolves once no operation is under way and none was started by the one that ended last. */
    const settled = async () => {
      do await new Promise((r) => setImmediate(r));
      while (busy > 0);
    };
    return { watched, settled };
  }

  /** Starts the server's retention timer with the clock `daysAhead` days on and lets its first pass run. */
  async function runScheduledPass(daysAhead: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { watched, settled } = tracked(t.database);
    const stop = startSyncRetention(watched, { now: () => new Date(Date.now() + daysAhead * DAY) });
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    await settled();
    stop();
    vi.useRealTimers();
  }

  it('[R3] keeps tombstones younger than 30 days: a device behind them pulls the deletion', async () => {
    const { d, id, cursor } = await deletedAfterPull();
    await runScheduledPass(29);
    const { body } = await d.pull(cursor);
    expect(body).not.toHaveProperty('reset');
    expect(body).toMatchObject({ changes: [expect.objectContaining({ id, deleted: true }) as unknown] });
  });

  it('[R3][L8] purges older tombstones on schedule; a cursor below the horizon pulls reset, then downloads again', async () => {
    const { d, id, cursor } = await deletedAfterPull();
    await runScheduledPass(31);
    expect(await cell(t, 'tasks', id, 'id')).toBeUndefined();
    expect((await d.pull(cursor)).body).toEqual({ reset: true, reason: 'horizon' });
    const fresh = await d.pull(0, 5000);
    if ('reset' in fresh.body) throw new Error('a pull from 0 never resets');
    expect(fresh.body.changes.some((c) => c.id === id)).toBe(false);
    expect((await d.pull(fresh.body.cursor)).body).toMatchObject({ changes: [], hasMore: false });
  });
});

describe('bounded History and devices', () => {
  const historyOf = async (rowId: string) =>
    (await t.query<{ n: number }>('SELECT count(*) AS n FROM sync_conflicts WHERE row_id = ?', [rowId]))[0]!
      .n;
  const knownClient = async (clientId: string) =>
    (
      await t.query<{ last_seen_at: string }>('SELECT last_seen_at FROM sync_clients WHERE client_id = ?', [
        clientId,
      ])
    )[0]?.last_seen_at;

  it('[R4] keeps a replaced value in History for a year, then forgets it', async () => {
    const a = device(t, admin);
    const b = device(t, admin);
    const id = newId();
    await a.push([a.mutation('create', 'tasks', id, task('Pour slab'))]);
    const version = Number(await cell(t, 'tasks', id, 'version'));
    await a.push([a.mutation('patch', 'tasks', id, { title: 'Pour slab A' }, { baseVersion: version })]);
    await b.push([b.mutation('patch', 'tasks', id, { title: 'Pour slab B' }, { baseVersion: version })]);
    expect(await historyOf(id)).toBeGreaterThan(0);
    await sweepSyncState(t.database, new Date(Date.now() + 364 * DAY));
    expect(await historyOf(id)).toBeGreaterThan(0);
    await sweepSyncState(t.database, new Date(Date.now() + 366 * DAY));
    expect(await historyOf(id)).toBe(0);
  });

  it('[R5] forgets a device that only pulled after 90 days unseen; its next pull downloads again', async () => {
    const d = device(t, admin);
    const first = await d.pull(0, 5000);
    if ('reset' in first.body) throw new Error('a pull from 0 never resets');
    await sweepSyncState(t.database, new Date(Date.now() + 89 * DAY));
    expect(await knownClient(d.clientId)).toBeDefined();
    await sweepSyncState(t.database, new Date(Date.now() + 91 * DAY));
    expect(await knownClient(d.clientId)).toBeUndefined();
    expect((await d.pull(first.body.cursor)).body).toEqual({ reset: true, reason: 'scope' });
    expect((await d.pull(0, 5000)).body).toMatchObject({ hasMore: false });
    expect(await knownClient(d.clientId)).toBeDefined();
  });

  it('[R5] keeps a device that pushed, whatever its age: its last mutation id stops a replay', async () => {
    const d = device(t, admin);
    const create = d.mutation('create', 'tasks', newId(), task('Formwork'));
    await d.push([create]);
    await sweepSyncState(t.database, new Date(Date.now() + 400 * DAY));
    expect(await knownClient(d.clientId)).toBeDefined();
    const replay = await d.push([create]);
    expect(replay.body.results).toEqual([
      expect.objectContaining({ id: 1, status: 'rejected', code: 'RESULT_EXPIRED' }) as unknown,
    ]);
  });

  it('[R5] a pull counts as seen (refreshed once a day), so a device in daily use is never forgotten', async () => {
    const d = device(t, admin);
    await d.pull(0, 5000);
    const twoDaysAgo = new Date(Date.now() - 2 * DAY).toISOString();
    await t.exec('UPDATE sync_clients SET last_seen_at = ? WHERE client_id = ?', [twoDaysAgo, d.clientId]);
    await d.pull(0, 1);
    expect(Date.parse((await knownClient(d.clientId))!)).toBeGreaterThan(Date.now() - DAY);
  });

  it('[R5][L9] a client id the server never saw cannot pull from a cursor above 0', async () => {
    const known = await device(t, admin).pull(0, 5000);
    if ('reset' in known.body) throw new Error('a pull from 0 never resets');
    const stranger = device(t, admin);
    expect((await stranger.pull(known.body.cursor)).body).toEqual({ reset: true, reason: 'scope' });
  });
});

describe('devices per user', () => {
  it('[R6] keeps at most 20 devices that never pushed per user, the most recently seen; one that pushed stays', async () => {
    const crew = await t.login('crew@summit.test');
    const pusher = device(t, crew);
    await pusher.push([pusher.mutation('create', 'tasks', newId(), task('Set anchor bolts'))]);
    const pullers: string[] = [];
    for (let i = 0; i < 25; i++) {
      const d = device(t, crew);
      await d.pull(0, 1);
      pullers.push(d.clientId);
      // Each seen later than the one before, so "least recently seen" is well defined.
      t.clock.offsetMs += 1_000;
    }
    const rows = await t.query<{ client_id: string; last_mutation_id: number }>(
      `SELECT client_id, last_mutation_id FROM sync_clients
         WHERE user_id = (SELECT id FROM users WHERE email = 'crew@summit.test')`,
    );
    const idle = rows.filter((r) => Number(r.last_mutation_id) === 0).map((r) => r.client_id);
    expect(idle.sort()).toEqual(pullers.slice(5).sort());
    expect(rows.some((r) => r.client_id === pusher.clientId)).toBe(true);
  });
});
