// The bench page: runs in Chromium on the app's origin (served from dist/__bench/ by the real server), with
// the real sync/ code bundled in by vite. Node drives it through `window.bench` (bench/web-*.ts).
// Nothing here is timed by Node: every figure is taken in the page with performance.now().
import '#web/lib/zod-jitless.ts';
import { Dexie, liveQuery, type Table } from 'dexie';
import type { PulledChange } from '#shared/sync-protocol.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import { openSyncDb, readMeta, syncDbName, type SyncDb } from '#sync/db.ts';
import { createSyncEngine, type SyncEngine } from '#sync/engine.ts';
import { browserEventSource, type EventSourceFactory } from '#sync/env.ts';
import type { FetchLike } from '#sync/http.ts';
import { mutate, newRowId } from '#sync/mutate.ts';
import { applyPullPage, yieldToMain } from '#sync/pull.ts';
import { toWire } from '#sync/push.ts';

/**
 * Wall-clock epoch ms, comparable between two Chromium processes of one machine (B6's two devices):
 * Date.now() reads the system clock in each; performance.timeOrigin is fixed per process and may drift.
 */
const epoch = () => Date.now();

// Long tasks (> 50 ms on the main thread), from page load on.
const longTasks: { start: number; duration: number }[] = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // no longtask support: reported as an empty list
}
const longTasksBetween = (from: number, to: number) =>
  longTasks.filter((t) => t.start + t.duration > from && t.start < to);

const idb = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });

// ---------------------------------------------------------------------------------------------- B5 / B8 --

/**
 * The indexes of the `tasks` store of SyncDb, as the app declares them (read from its schema, so the raw
 * comparator always writes the same index entries per row as the app does).
 */
function taskIndexes(): [string, string | string[]][] {
  return openSyncDb(B5_SCOPE).tasks.schema.indexes.map((i) => [i.name, i.keyPath as string | string[]]);
}
const RAW_DB = 'bench-raw-tasks';
const STATUSES = ['pending', 'in_progress', 'completed', 'blocked'];
const PRIORITIES = ['low', 'medium', 'high', 'urgent'];

let pages: PulledChange[][] = [];
let rawRows: Record<string, unknown>[] = [];
let projectIds: string[] = [];

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Generates `pageCount` pull pages of `pageSize` task changes, shaped as the server sends them (every wire
 * column of `tasks`), and the same rows as the device stores them for the raw comparator. Not timed.
 */
function prepareRows(pageCount: number, pageSize: number, companyId: string): number {
  const rand = random(7);
  projectIds = Array.from({ length: 200 }, () => newRowId());
  const users = Array.from({ length: 20 }, () => newRowId());
  const day = 86_400_000;
  const start = Date.UTC(2026, 0, 1);
  pages = [];
  rawRows = [];
  let version = 1000;
  for (let p = 0; p < pageCount; p++) {
    const page: PulledChange[] = [];
    for (let i = 0; i < pageSize; i++) {
      version++;
      const id = newRowId();
      const created = new Date(start + Math.floor(rand() * 365) * day).toISOString();
      const data: Record<string, unknown> = {
        id,
        title: `Inspect rebar placement, grid ${p}-${i}`,
        description: rand() < 0.5 ? 'Check cover and spacing before the pour; photos to the log.' : null,
        projectId: projectIds[Math.floor(rand() * projectIds.length)]!,
        assigneeId: rand() < 0.8 ? users[Math.floor(rand() * users.length)]! : null,
        companyId,
        category: 'project',
        status: STATUSES[Math.floor(rand() * STATUSES.length)]!,
        priority: PRIORITIES[Math.floor(rand() * PRIORITIES.length)]!,
        dueDate:
          rand() < 0.9 ? new Date(start + Math.floor(rand() * 730) * day).toISOString().slice(0, 10) : null,
        completedAt: null,
        createdAt: created,
        isMilestone: rand() < 0.05,
        estimatedHours: rand() < 0.5 ? Math.round(rand() * 40) : null,
        version,
        updatedAt: created,
        updatedBy: users[0]!,
      };
      page.push({ table: 'tasks', id, version, deleted: false, data });
      rawRows.push({ ...data });
    }
    pages.push(page);
  }
  return pageCount * pageSize;
}

const B5_SCOPE = { companyId: 'bench-company', userId: 'bench-user' };

/**
 * B5, the app's path: an empty SyncDb, then every page through `applyPullPage` (one transaction per page,
 * bulk writes in slices, cursor in the same transaction) with the engine's yield between pages, as the
 * engine's initial pull does (without its fetches).
 * First usable page: the first page committed and a page of 50 tasks read back from it.
 */
async function b5Dexie(): Promise<{
  totalMs: number;
  firstPageMs: number;
  rows: number;
  longTasks: number[];
}> {
  await Dexie.delete(syncDbName(B5_SCOPE.companyId, B5_SCOPE.userId));
  const db = openSyncDb(B5_SCOPE);
  await db.open();
  await readMeta(db);
  const t0 = performance.now();
  let firstPage: Promise<number> | null = null;
  for (let i = 0; i < pages.length; i++) {
    await applyPullPage(db, pages[i]!, {
      cursor: (i + 1) * 1000,
      now: Date.now(),
      final: i === pages.length - 1,
    });
    // Queued before the next page's transaction, so it runs right after this commit, as the UI's query would.
    if (i === 0)
      firstPage = db.tasks
        .orderBy('dueDate')
        .limit(50)
        .toArray()
        .then(() => performance.now() - t0);
    if (i < pages.length - 1) await yieldToMain();
  }
  const t1 = performance.now();
  const firstPageMs = await firstPage!;
  const rows = await db.tasks.count();
  db.close();
  // Let the observer deliver the last entries.
  await new Promise((r) => setTimeout(r, 100));
  return { totalMs: t1 - t0, firstPageMs, rows, longTasks: longTasksBetween(t0, t1).map((t) => t.duration) };
}

async function openRaw(): Promise<IDBDatabase> {
  await idb(indexedDB.deleteDatabase(RAW_DB));
  const req = indexedDB.open(RAW_DB, 1);
  req.onupgradeneeded = () => {
    const store = req.result.createObjectStore('tasks', { keyPath: 'id' });
    for (const [name, keyPath] of taskIndexes()) store.createIndex(name, keyPath);
  };
  return idb(req);
}

/** B5 comparator: the same rows with plain IndexedDB puts in ONE transaction, into the same indexes. */
async function b5Raw(
  durability: IDBTransactionDurability,
): Promise<{ totalMs: number; issueMs: number; rows: number }> {
  const db = await openRaw();
  const t0 = performance.now();
  const tx = db.transaction('tasks', 'readwrite', { durability });
  const store = tx.objectStore('tasks');
  for (const row of rawRows) store.put(row);
  // The main thread's own share: issuing the put() calls (serializing each row and sending it to the backend).
  const issueMs = performance.now() - t0;
  await done(tx);
  const t1 = performance.now();
  const rows = await idb(db.transaction('tasks').objectStore('tasks').count());
  db.close();
  await idb(indexedDB.deleteDatabase(RAW_DB));
  return { totalMs: t1 - t0, issueMs, rows };
}

/** B8: cold open of the device database (a fresh SyncDb on a fresh page) to the first page of 50 by due date. */
async function b8Dexie(): Promise<{ ms: number; openMs: number; rows: number }> {
  const t0 = performance.now();
  const db = openSyncDb(B5_SCOPE);
  // The query would open the database itself; opening first only splits the time, it adds no work.
  await db.open();
  const openMs = performance.now() - t0;
  const rows = await db.tasks.orderBy('dueDate').limit(50).toArray();
  const ms = performance.now() - t0;
  db.close();
  return { ms, openMs, rows: rows.length };
}

/** B8 comparator: `indexedDB.open` of the same database and `getAll` on the same index, count 50. */
async function b8Raw(): Promise<{ ms: number; openMs: number; rows: number }> {
  const t0 = performance.now();
  const db = await idb(indexedDB.open(syncDbName(B5_SCOPE.companyId, B5_SCOPE.userId)));
  const openMs = performance.now() - t0;
  const rows = await idb(
    db.transaction('tasks', 'readonly').objectStore('tasks').index('dueDate').getAll(null, 50),
  );
  const ms = performance.now() - t0;
  db.close();
  return { ms, openMs, rows: rows.length };
}

/** B8, informative: a page of 50 tasks of one project on an open database, Dexie vs raw, median of n. */
async function b8Warm(n: number): Promise<{ dexieMs: number[]; rawMs: number[] }> {
  const db = openSyncDb(B5_SCOPE);
  await db.open();
  const raw = await idb(indexedDB.open(syncDbName(B5_SCOPE.companyId, B5_SCOPE.userId)));
  const project = (await db.tasks.orderBy('projectId').first())!.projectId!;
  const dexieMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    await db.tasks.where('projectId').equals(project).limit(50).toArray();
    dexieMs.push(performance.now() - t0);
    t0 = performance.now();
    await idb(
      raw
        .transaction('tasks', 'readonly')
        .objectStore('tasks')
        .index('projectId')
        .getAll(IDBKeyRange.only(project), 50),
    );
    rawMs.push(performance.now() - t0);
  }
  db.close();
  raw.close();
  return { dexieMs, rawMs };
}

// ---------------------------------------------------------------------------------------------- B6 / B12 --

interface Device {
  db: SyncDb;
  engine: SyncEngine;
  user: { id: string; companyId: string };
}
let device: Device | null = null;
const trace: { what: string; at: number }[] = [];
/** The steps recorded since the last call (epoch ms), and clears them. */
const takeTrace = () => trace.splice(0, trace.length);

/**
 * Opens the signed-in user's SyncDb and sync engine as the app does and runs a first full sync. `live`
 * starts the engine's triggers (the poke stream over EventSource, the Web Lock): device A of B6. Without it
 * the engine only syncs on `syncNow()` (device B of B6, and B12, where the drain is timed from the call).
 */
async function initDevice(
  live: boolean,
): Promise<{ userId: string; companyId: string; projectId: string | null; taskId: string | null }> {
  const res = await fetch('/api/auth/user', { credentials: 'include' });
  if (!res.ok) throw new Error(`GET /api/auth/user: ${res.status}`);
  const user = (await res.json()) as { id: string; companyId: string };
  const db = openSyncDb({ companyId: user.companyId, userId: user.id });
  // The engine's own fetch and poke stream, with a timestamp at each step (B6's breakdown of the latency).
  const fetchFn: FetchLike = async (url, init) => {
    const kind = url.includes('/api/sync/push') ? 'push' : url.includes('/api/sync/pull') ? 'pull' : 'other';
    trace.push({ what: `${kind}-sent`, at: epoch() });
    const res = await fetch(url, init);
    trace.push({ what: `${kind}-answered`, at: epoch() });
    return res;
  };
  const openEvents = browserEventSource();
  const eventSource: EventSourceFactory | null = openEvents
    ? (url) => {
        const source = openEvents(url);
        return {
          addEventListener: (type, listener) =>
            source.addEventListener(type, (event) => {
              // A `changes` event carries the change itself (SPEC L16); a `version` event makes A pull.
              trace.push({ what: type === 'changes' ? 'carried' : 'poke', at: epoch() });
              listener(event);
            }),
          close: () => source.close(),
        };
      }
    : null;
  const engine = live
    ? createSyncEngine({ db, fetch: fetchFn, eventSource })
    : createSyncEngine({
        db,
        fetch: fetchFn,
        locks: null,
        eventSource: null,
        environment: { isOnline: () => true, isVisible: () => true, on: () => () => {} },
      });
  if (live) {
    // As the app does: start the triggers; the engine syncs once this tab holds the Web Lock.
    engine.start();
    await new Promise<void>((resolve) => {
      if (engine.status.get().leader) return resolve();
      const off = engine.status.subscribe((st) => {
        if (!st.leader) return;
        off();
        resolve();
      });
    });
  }
  await engine.syncNow();
  device = { db, engine, user };
  const project = await db.projects.orderBy('id').first();
  const task = await db.tasks.orderBy('id').first();
  return {
    userId: user.id,
    companyId: user.companyId,
    projectId: project?.id ?? null,
    taskId: task?.id ?? null,
  };
}

/** Whether the device holds a task (B6 checks that both devices see the task they share). */
async function hasTask(taskId: string): Promise<boolean> {
  return (await need().db.tasks.get(taskId)) !== undefined;
}

const need = () => {
  if (!device) throw new Error('initDevice first');
  return device;
};

/** Resolves with the epoch time at which a live query on the task first shows `title`. */
function waitForTitle(taskId: string, title: string, timeoutMs = 10_000): Promise<number> {
  const { db } = need();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(new Error(`task ${taskId} never showed "${title}"`));
    }, timeoutMs);
    const sub = liveQuery(() => db.tasks.get(taskId)).subscribe({
      next: (row) => {
        if (row?.title !== title) return;
        const at = epoch();
        clearTimeout(timer);
        sub.unsubscribe();
        resolve(at);
      },
      error: (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
    });
  });
}

/** Arms `waitForTitle` in the page; Node collects the result with `collectTitle`. */
let pendingTitle: Promise<number> | null = null;
async function armTitle(taskId: string, title: string): Promise<void> {
  pendingTitle = waitForTitle(taskId, title);
  // Let the live query run its first read before the write happens.
  await new Promise((r) => setTimeout(r, 50));
}
const collectTitle = () => pendingTitle!;

/** B6, device B: the user's write through `mutate`, then a sync cycle at once (push, then pull). */
async function writeAndSync(
  taskId: string,
  title: string,
): Promise<{ t0: number; writeMs: number; syncMs: number }> {
  const { db, engine } = need();
  const start = performance.now();
  const t0 = epoch();
  await mutate(db, 'tasks', 'patch', taskId, { title });
  const wrote = performance.now();
  await engine.syncNow();
  return { t0, writeMs: wrote - start, syncMs: performance.now() - wrote };
}

/**
 * B6 end to end: device B's engine runs as the app's does (started: a local write is pushed after the
 * engine's own push delay), so a write is all the user does.
 */
function startEngine(): void {
  need().engine.start();
}

/** B6 end to end, device B: the user's write through `mutate`; the started engine pushes it on its own. */
async function write(taskId: string, title: string): Promise<{ t0: number; wroteAt: number }> {
  const { db } = need();
  const t0 = epoch();
  await mutate(db, 'tasks', 'patch', taskId, { title });
  return { t0, wroteAt: epoch() };
}

/** B6 comparator: a Dexie write and the emit of a live query watching that row, on a scratch database. */
let scratch: (Dexie & { rows: Table<{ id: string; n: number }, string> }) | null = null;
async function localLive(n: number): Promise<number> {
  if (!scratch) {
    const db = new Dexie('bench-live') as Dexie & {
      rows: Table<{ id: string; n: number }, string>;
    };
    db.version(1).stores({ rows: 'id' });
    await db.rows.put({ id: 'a', n: -1 });
    scratch = db;
  }
  const db = scratch;
  let resolveEmit!: (at: number) => void;
  const emitted = new Promise<number>((r) => (resolveEmit = r));
  const sub = liveQuery(() => db.rows.get('a')).subscribe((row) => {
    if (row?.n === n) resolveEmit(performance.now());
  });
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  await db.rows.put({ id: 'a', n });
  const at = await emitted;
  sub.unsubscribe();
  return at - t0;
}

/** B12: queues `count` mutations (half creates, 40% renames of them, 10% deletes) in one transaction. Not timed. */
async function queueMutations(projectId: string, round: string, count: number): Promise<number> {
  const { db } = need();
  const creates = Math.round(count / 2);
  const renames = Math.round(count * 0.4);
  const deletes = count - creates - renames;
  await db.transaction('rw', [db.tasks, db.outbox, db.shadows, db.meta], async () => {
    const ids: string[] = [];
    for (let i = 0; i < creates; i++) {
      const id = newRowId();
      ids.push(id);
      await mutate(db, 'tasks', 'create', id, {
        title: `${round} punch item ${i}`,
        projectId,
        priority: 'medium',
      });
    }
    for (let i = 0; i < renames; i++)
      await mutate(db, 'tasks', 'patch', ids[i]!, { title: `${round} punch item ${i} (checked)` });
    for (let i = 0; i < deletes; i++) await mutate(db, 'tasks', 'delete', ids[creates - 1 - i]!);
  });
  return db.outbox.count();
}

/** B12: the engine drains the outbox (batched pushes of 100, then the pull of what they made). */
async function drainEngine(): Promise<{
  ms: number;
  requests: number;
  httpMs: number;
  pending: number;
  error: string | null;
}> {
  const { engine } = need();
  takeTrace();
  const t0 = performance.now();
  await engine.syncNow();
  const ms = performance.now() - t0;
  // Time with a request in flight (sent -> answered headers): the server and loopback; the rest is the device.
  const steps = takeTrace();
  let httpMs = 0;
  let requests = 0;
  let sent = 0;
  for (const step of steps) {
    if (step.what.endsWith('-sent')) sent = step.at;
    else if (step.what.endsWith('-answered')) {
      httpMs += step.at - sent;
      requests++;
    }
  }
  const st = engine.status.get();
  return {
    ms,
    requests,
    httpMs,
    pending: st.pending,
    error: st.error ? st.error.message : st.issues ? `${st.issues} sync issues` : null,
  };
}

/** B12 comparator: one awaited POST (a push of one mutation) per queued entry, then its own outbox delete. */
async function drainNaive(): Promise<{ ms: number; pending: number }> {
  const { db } = need();
  const { clientId } = await readMeta(db);
  const t0 = performance.now();
  for (const entry of await db.outbox.orderBy('seq').toArray()) {
    const res = await fetch('/api/sync/push', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, schemaVersion: SCHEMA_VERSION, mutations: [toWire(entry)] }),
    });
    if (res.status !== 200) throw new Error(`naive push: ${res.status} ${await res.text()}`);
    await res.json();
    await db.outbox.delete(entry.seq!);
  }
  const ms = performance.now() - t0;
  return { ms, pending: await db.outbox.count() };
}

const api = {
  prepareRows,
  b5Dexie,
  b5Raw,
  b8Dexie,
  b8Raw,
  b8Warm,
  initDevice,
  hasTask,
  takeTrace,
  armTitle,
  collectTitle,
  writeAndSync,
  startEngine,
  write,
  localLive,
  queueMutations,
  drainEngine,
  drainNaive,
};
export type BenchApi = typeof api;
(window as unknown as { bench: BenchApi }).bench = api;
