import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { drainOutbox, type AbortableLocks } from './background-drain.ts';
import { openSyncDb, syncDbName, type SyncDb } from './db.ts';
import { createSyncEngine, syncLockName } from './engine.ts';
import { addPhoto, mutate, newRowId } from './mutate.ts';
import {
  cookieFetch,
  switchableFetch,
  startServer,
  tinyJpeg,
  type Account,
  type LiveServer,
  type Switchable,
} from './test-support.ts';

// The service worker's side of Background Sync (SPEC C14): drainOutbox runs with no page and no running
// engine, against the real API, on the IndexedDB a page wrote to.

const MANAGER = 'manager@summit.test';
let s: LiveServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

/** A browser profile: its IndexedDB, and the page's database in it after a first sync. */
interface Profile {
  indexedDB: IDBFactory;
  account: Account;
  db: SyncDb;
}

/** Signs in on a fresh profile, downloads as the page would, then closes the page (engine stopped). */
async function profileAfterFirstSync(email = MANAGER): Promise<Profile> {
  const account = await s.account(email);
  const indexedDB = new IDBFactory();
  const db = openSyncDb({ companyId: account.companyId, userId: account.userId }, { indexedDB, IDBKeyRange });
  const engine = createSyncEngine({
    db,
    baseUrl: s.baseUrl,
    fetch: cookieFetch(account.cookie, s.t.env.PUBLIC_ORIGIN),
    locks: null,
    eventSource: null,
  });
  await engine.syncNow();
  await engine.stop();
  return { indexedDB, account, db };
}

/** The engine of a page of the profile, run by hand (`syncNow`). */
function pageEngine(db: SyncDb, net: Switchable) {
  return createSyncEngine({ db, baseUrl: s.baseUrl, fetch: net.fetch, locks: null, eventSource: null });
}

/** The worker's fetch: the session cookie of whoever is signed in on the profile. */
function workerFetch(cookie: string): Switchable {
  return switchableFetch(cookieFetch(cookie, s.t.env.PUBLIC_ORIGIN));
}

function drain(p: Profile, net: Switchable, extra: Partial<Parameters<typeof drainOutbox>[0]> = {}) {
  return drainOutbox({
    baseUrl: s.baseUrl,
    fetch: net.fetch,
    locks: null,
    indexedDB: p.indexedDB,
    IDBKeyRange,
    ...extra,
  });
}

/** A task written offline by the page, which then closed: only the outbox holds it. */
async function offlineTask(p: Profile, title: string): Promise<string> {
  const project = (await p.db.projects.orderBy('id').first())!;
  const id = newRowId();
  await mutate(p.db, 'tasks', 'create', id, { title, projectId: project.id });
  await mutate(p.db, 'tasks', 'patch', id, { priority: 'high' });
  p.db.close();
  return id;
}

const serverTask = async (id: string): Promise<Record<string, unknown> | undefined> =>
  (await s.t.query('SELECT * FROM tasks WHERE id = ?', [id]))[0];

async function outboxCount(p: Profile): Promise<number> {
  const db = openSyncDb(
    { companyId: p.account.companyId, userId: p.account.userId },
    { indexedDB: p.indexedDB, IDBKeyRange },
  );
  try {
    return await db.outbox.count();
  } finally {
    db.close();
  }
}

/** Web Locks of one profile: a tab can hold a name; the worker's request waits until release or abort. */
function profileLocks() {
  const held = new Map<string, Promise<void>>();
  const locks: AbortableLocks & { hold(name: string): () => void } = {
    hold(name) {
      let release!: () => void;
      held.set(
        name,
        new Promise<void>((r) => {
          release = r;
        }).then(() => {
          held.delete(name);
        }),
      );
      return release;
    },
    async request(name, { signal }, callback) {
      const busy = held.get(name);
      if (busy) {
        await new Promise<void>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          void busy.then(resolve);
        });
      }
      return callback({ name });
    },
  };
  return locks;
}

describe('background sync: the service worker drains the outbox', () => {
  it('[C14] with no page and no engine running, the queued writes reach the server and leave the outbox', async () => {
    const p = await profileAfterFirstSync();
    const id = await offlineTask(p, 'Pour footings while the app is closed');
    expect(await serverTask(id)).toBeUndefined();
    expect(await outboxCount(p)).toBe(2);

    const net = workerFetch(p.account.cookie);
    expect(await drain(p, net)).toBe('synced');
    expect(await serverTask(id)).toMatchObject({
      title: 'Pour footings while the app is closed',
      priority: 'high',
    });
    expect(net.log).toContain('POST /api/sync/push');
    expect(await outboxCount(p)).toBe(0);

    // Fired again with nothing queued, the worker stays off the network.
    const quiet = workerFetch(p.account.cookie);
    expect(await drain(p, quiet)).toBe('empty');
    expect(quiet.log).toEqual([]);
  });

  it('[C14] with the network still down the outbox stays whole and the browser is asked to retry', async () => {
    const p = await profileAfterFirstSync();
    const id = await offlineTask(p, 'Set rebar, no signal');
    const net = workerFetch(p.account.cookie);
    net.offline = true;
    expect(await drain(p, net)).toBe('retry');
    expect(await outboxCount(p)).toBe(2);

    net.offline = false;
    expect(await drain(p, net)).toBe('synced');
    expect(await serverTask(id)).toMatchObject({ title: 'Set rebar, no signal' });
  });

  /** A photo the page took: its row reached the server, its bytes did not (uploads refused with 503). */
  async function photoWithBytesLeft(p: Profile) {
    const net = workerFetch(p.account.cookie);
    net.failWith.set('/api/sync/blobs', 503);
    const engine = pageEngine(p.db, net);
    const project = (await p.db.projects.orderBy('id').first())!;
    const photo = await addPhoto(p.db, {
      projectId: project.id,
      bytes: tinyJpeg(21),
      mimeType: 'image/jpeg',
    });
    await engine.syncNow();
    await engine.stop();
    expect(await p.db.outbox.count()).toBe(0);
    p.db.close();
    return photo;
  }

  const serverBlobStatus = async (id: string) =>
    (await s.t.query<{ blob_status: string }>('SELECT blob_status FROM photos WHERE id = ?', [id]))[0]
      ?.blob_status;

  it('[C14][C9] photo bytes left on the device when the page closed go up from the worker', async () => {
    const p = await profileAfterFirstSync();
    const photo = await photoWithBytesLeft(p);
    expect(await serverBlobStatus(photo.id)).toBe('pending');

    const net = workerFetch(p.account.cookie);
    expect(await drain(p, net)).toBe('synced');
    expect(net.log).toContain(`PUT /api/sync/blobs/${photo.sha256}`);
    expect(await serverBlobStatus(photo.id)).toBe('present');

    // Nothing left: fired again, the worker stays off the network.
    const quiet = workerFetch(p.account.cookie);
    expect(await drain(p, quiet)).toBe('empty');
    expect(quiet.log).toEqual([]);
  });

  it('[C14][C9] photo bytes the server still cannot take keep the worker coming back', async () => {
    const p = await profileAfterFirstSync();
    const photo = await photoWithBytesLeft(p);
    const net = workerFetch(p.account.cookie);
    net.failWith.set('/api/sync/blobs', 503);
    expect(await drain(p, net)).toBe('retry');
    net.failWith.clear();
    expect(await drain(p, net)).toBe('synced');
    expect(await serverBlobStatus(photo.id)).toBe('present');
  });

  it('[C14] signed out (401) pauses: nothing is sent and nothing is dropped', async () => {
    const p = await profileAfterFirstSync();
    const id = await offlineTask(p, 'Frame walls after sign-out');
    const net = workerFetch('sc_session=expired');
    expect(await drain(p, net)).toBe('paused');
    expect(net.log).not.toContain('POST /api/sync/push');
    expect(await outboxCount(p)).toBe(2);
    expect(await serverTask(id)).toBeUndefined();
  });

  it("[C14][C1] another user's outbox on the device is never sent under the signed-in session", async () => {
    const p = await profileAfterFirstSync(MANAGER);
    const id = await offlineTask(p, "Manager's offline task");
    const admin = await s.account('admin@summit.test');
    const net = workerFetch(admin.cookie);
    expect(await drain(p, net)).toBe('empty');
    expect(net.log).not.toContain('POST /api/sync/push');
    expect(await outboxCount(p)).toBe(2);
    expect(await serverTask(id)).toBeUndefined();
  });

  it('[C14][C8] one writer at a time: an open tab holding the sync lock keeps the outbox; a closing tab hands it over', async () => {
    const p = await profileAfterFirstSync();
    const id = await offlineTask(p, 'Hang doors');
    const locks = profileLocks();
    const name = syncLockName(syncDbName(p.account.companyId, p.account.userId));
    const net = workerFetch(p.account.cookie);

    const releaseOpenTab = locks.hold(name);
    expect(await drain(p, net, { locks, lockWaitMs: 50 })).toBe('busy');
    expect(net.log).toEqual([]);
    expect(await outboxCount(p)).toBe(2);
    releaseOpenTab();

    const releaseClosingTab = locks.hold(name);
    const drained = drain(p, net, { locks, lockWaitMs: 30_000 });
    releaseClosingTab();
    expect(await drained).toBe('synced');
    expect(await serverTask(id)).toMatchObject({ title: 'Hang doors' });
  });
});

describe('background sync: registration after a queued write', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A page's navigator whose service worker registration has (or lacks) a sync manager. */
  function browserWith(sync: { register(tag: string): Promise<void> } | undefined) {
    const getRegistration = vi.fn(() => Promise.resolve(sync ? { sync } : {}));
    vi.stubGlobal('navigator', { ...globalThis.navigator, serviceWorker: { getRegistration } });
    return getRegistration;
  }

  async function pageDb(): Promise<SyncDb> {
    const p = await profileAfterFirstSync();
    return p.db;
  }

  it('[C14] a queued write registers the one-off sync "sitecommand-outbox" where the browser has Background Sync', async () => {
    const db = await pageDb();
    const register = vi.fn(() => Promise.resolve());
    browserWith({ register });
    const project = (await db.projects.orderBy('id').first())!;
    await mutate(db, 'tasks', 'create', newRowId(), { title: 'Registered for later', projectId: project.id });
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('sitecommand-outbox'));
    db.close();
  });

  it('[C14] a push that fails on the network registers the sync again, for a page closed before its retry', async () => {
    const account = await s.account(MANAGER);
    const db = openSyncDb(
      { companyId: account.companyId, userId: account.userId },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    );
    const net = workerFetch(account.cookie);
    const engine = createSyncEngine({
      db,
      baseUrl: s.baseUrl,
      fetch: net.fetch,
      locks: null,
      eventSource: null,
    });
    await engine.syncNow();
    const project = (await db.projects.orderBy('id').first())!;
    await mutate(db, 'tasks', 'create', newRowId(), { title: 'Queued online', projectId: project.id });
    const register = vi.fn(() => Promise.resolve());
    browserWith({ register });
    net.offline = true;
    await engine.syncNow();
    expect(engine.status.get()).toMatchObject({ pending: 1, error: { kind: 'network' } });
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('sitecommand-outbox'));
    await engine.stop();
    db.close();
  });

  it('[C14][C9] a photo upload that fails registers the sync, for a page closed before its retry', async () => {
    const p = await profileAfterFirstSync();
    const net = workerFetch(p.account.cookie);
    net.failWith.set('/api/sync/blobs', 503);
    const engine = pageEngine(p.db, net);
    const project = (await p.db.projects.orderBy('id').first())!;
    await addPhoto(p.db, { projectId: project.id, bytes: tinyJpeg(22), mimeType: 'image/jpeg' });
    // From here the browser has Background Sync: the photo's queued row has registered already, and its
    // push succeeds, so only the failed upload can register it.
    const register = vi.fn(() => Promise.resolve());
    browserWith({ register });
    await engine.syncNow();
    expect(await p.db.outbox.count()).toBe(0);
    expect((await p.db.blobs.toArray()).map((b) => [b.status, b.attempts])).toEqual([['pending', 1]]);
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('sitecommand-outbox'));
    await engine.stop();
    p.db.close();
  });

  it('[C14] without Background Sync, or when the browser refuses it, the write is still saved and nothing throws', async () => {
    const db = await pageDb();
    const project = (await db.projects.orderBy('id').first())!;
    const lookups = browserWith(undefined);
    await mutate(db, 'tasks', 'create', newRowId(), { title: 'No sync manager', projectId: project.id });
    await vi.waitFor(() => expect(lookups).toHaveBeenCalled());
    browserWith({ register: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    await mutate(db, 'tasks', 'create', newRowId(), { title: 'Refused', projectId: project.id });
    vi.stubGlobal('navigator', { ...globalThis.navigator, serviceWorker: undefined });
    await mutate(db, 'tasks', 'create', newRowId(), { title: 'No service worker', projectId: project.id });
    expect(await db.outbox.count()).toBe(3);
    db.close();
  });
});
