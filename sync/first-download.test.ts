import 'fake-indexeddb/auto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { PullResponse } from '#shared/sync-protocol.ts';
import { MIRROR_TABLES, READONLY_MIRRORS, mirrorTable, openSyncDb, readMeta, type SyncDb } from './db.ts';
import { createSyncEngine, type SyncEngineOptions } from './engine.ts';
import type { FetchLike } from './http.ts';
import { mutate } from './mutate.ts';
import {
  childServer,
  cookieFetch,
  manualEnvironment,
  seededRandom,
  signIn,
  startServer,
  switchableFetch,
  until,
  type Account,
  type LiveServer,
} from './test-support.ts';

// A crew member's new phone (or a cleared app) on a weak signal: the first download of a company large
// enough to take several pull pages (1,000 rows each, the engine's default), cut part-way in every way a
// phone meets, then resumed.

const CREW = 'crew@summit.test';
const MANAGER = 'manager@summit.test';
const OTHER_COMPANY = 'admin@harbor.test';
/** Tasks added to the demo company: with its own rows, three pages of 1,000. */
const EXTRA_TASKS = 2_600;

let s: LiveServer;

beforeAll(async () => {
  s = await startServer();
  addTasks(s.t.db.$client);
});
afterAll(async () => {
  await s.close();
});

/** Adds EXTRA_TASKS tasks to the demo company the way `npm run seed:large` writes its rows: each a new version. */
function addTasks(c: Database.Database) {
  const companyId = c
    .prepare<[string], string>('SELECT id FROM companies WHERE domain = ?')
    .pluck()
    .get('summit.test')!;
  const projectId = c
    .prepare<[string], string>('SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL LIMIT 1')
    .pluck()
    .get(companyId)!;
  const crewId = c.prepare<[string], string>('SELECT id FROM users WHERE email = ?').pluck().get(CREW)!;
  const insert = c.prepare(
    `INSERT INTO tasks (id, title, project_id, assignee_id, company_id, status, priority, due_date, created_at, updated_at, version, field_meta)
     VALUES (?, ?, ?, ?, ?, 'pending', 'medium', ?, ?, ?, ?, '{}')`,
  );
  c.transaction(() => {
    let version = c
      .prepare<[string], number>('SELECT last_version FROM companies WHERE id = ?')
      .pluck()
      .get(companyId)!;
    const now = new Date().toISOString();
    for (let i = 0; i < EXTRA_TASKS; i++) {
      insert.run(
        crypto.randomUUID(),
        `Bulk task ${i + 1}`,
        projectId,
        crewId,
        companyId,
        now,
        now,
        now,
        ++version,
      );
    }
    c.prepare('UPDATE companies SET last_version = ? WHERE id = ?').run(version, companyId);
  })();
}

/** Where the API answers: the in-process server, or a process of its own. */
interface Api {
  baseUrl: string;
  origin: string;
}
const liveApi = (): Api => ({ baseUrl: s.baseUrl, origin: s.t.env.PUBLIC_ORIGIN });

/** One pull page as the device received it: where it started, where it ended, how many changes it held. */
interface PageSeen {
  from: number;
  to: number;
  changes: number;
}

/**
 * A phone: its browser's IndexedDB (kept when the tab closes), its network, and the pages its pulls
 * received. `tab()` opens the app (a new engine over the same database); the tab before it is closed.
 */
function phone(account: Account, api: Api = liveApi()) {
  const idb = new IDBFactory();
  const net = switchableFetch(cookieFetch(account.cookie, api.origin));
  const pages: PageSeen[] = [];
  /** Called once each pull page has been answered (its number, from 1), before the engine reads it. */
  let afterPage: (n: number) => void | Promise<void> = () => {};
  const recording: FetchLike = async (url, init) => {
    const res = await net.fetch(url, init);
    const u = new URL(url);
    if (u.pathname !== '/api/sync/pull' || res.status !== 200) return res;
    const body = (await res.clone().json()) as PullResponse;
    if ('changes' in body)
      pages.push({
        from: Number(u.searchParams.get('cursor')),
        to: body.cursor,
        changes: body.changes.length,
      });
    await afterPage(pages.length);
    return res;
  };
  let open: { db: SyncDb; engine: ReturnType<typeof createSyncEngine> } | null = null;
  const env = manualEnvironment();
  return {
    net,
    pages,
    env,
    onPage(fn: typeof afterPage) {
      afterPage = fn;
    },
    async tab(options: Partial<SyncEngineOptions> = {}) {
      if (open) {
        await open.engine.stop();
        open.db.close();
      }
      const db = openSyncDb(
        { companyId: account.companyId, userId: account.userId },
        { indexedDB: idb, IDBKeyRange },
      );
      const engine = createSyncEngine({
        db,
        baseUrl: api.baseUrl,
        fetch: recording,
        random: seededRandom(7),
        locks: null,
        eventSource: null,
        environment: env,
        ...options,
      });
      open = { db, engine };
      return open;
    },
  };
}

/** The network drops once page `k` has been answered (that page still reaches the phone). */
const dropAfter = (p: ReturnType<typeof phone>, k: number) =>
  p.onPage((n) => {
    if (n === k) p.net.offline = true;
  });

/** Every row of every mirror of a device database, with its table. */
async function everyRow(db: SyncDb): Promise<Record<string, unknown>[]> {
  const tables = [...MIRROR_TABLES, ...READONLY_MIRRORS];
  const rows = await Promise.all(
    tables.map(async (table) => (await mirrorTable(db, table).toArray()).map((r) => ({ table, ...r }))),
  );
  return rows.flat();
}

/** A crew member's new phone whose first download the network cuts once page `k` has arrived. */
async function cutAfterPage(k: number) {
  const account = await s.account(CREW);
  const p = phone(account);
  const { db, engine } = await p.tab();
  dropAfter(p, k);
  await engine.syncNow();
  return { account, p, db, engine };
}

/** Every row the API holds for an account, by table and id, from one pull from the start (SPEC L2, L3). */
async function apiRows(
  account: Account,
  api: Api = liveApi(),
): Promise<Map<string, Map<string, Record<string, unknown>>>> {
  const res = await fetch(`${api.baseUrl}/api/sync/pull?cursor=0&limit=5000&schemaVersion=2`, {
    headers: { cookie: account.cookie },
  });
  const page = (await res.json()) as PullResponse;
  if ('reset' in page || page.hasMore) throw new Error('expected the whole company in one answer');
  const out = new Map<string, Map<string, Record<string, unknown>>>();
  for (const c of page.changes) {
    if (c.deleted) continue;
    let m = out.get(c.table);
    if (!m) out.set(c.table, (m = new Map()));
    m.set(c.id, { ...c.data, id: c.id, version: c.version });
  }
  return out;
}

/** The device's mirror is exactly what the API holds: the same rows, at the same versions, with the same fields. */
async function expectMirrorEqualsApi(db: SyncDb, account: Account, at?: Api) {
  const api = await apiRows(account, at);
  for (const table of [...MIRROR_TABLES, ...READONLY_MIRRORS]) {
    const held = await mirrorTable(db, table).toArray();
    const expected = [...(api.get(table)?.values() ?? [])];
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      String(a.id).localeCompare(String(b.id));
    expect(held.sort(byId), table).toEqual(expected.sort(byId));
  }
}

/** Pages chain (each starts where the one before ended) and hold every change exactly once. */
async function expectPagesChain(pages: PageSeen[], account: Account, api?: Api) {
  for (let i = 1; i < pages.length; i++) expect(pages[i]!.from, `page ${i + 1}`).toBe(pages[i - 1]!.to);
  expect(pages[0]!.from).toBe(0);
  const total = [...(await apiRows(account, api)).values()].reduce((n, m) => n + m.size, 0);
  expect(pages.reduce((n, p) => n + p.changes, 0)).toBe(total);
}

describe('a first download cut part-way resumes where it was', () => {
  it('[L4][C6] the network drops after page 2 of 3: the next cycle asks for page 3, and the mirror equals the API', async () => {
    const { account, p, db, engine } = await cutAfterPage(2);
    expect(engine.status.get().error?.kind).toBe('network');
    expect(p.pages).toHaveLength(2);
    // [C10] Half a download is not a completed one.
    expect((await readMeta(db)).lastSyncedAt).toBeNull();
    expect(engine.status.get().lastSyncedAt).toBeNull();
    expect((await readMeta(db)).cursor).toBe(p.pages[1]!.to);

    p.net.offline = false;
    await engine.syncNow();
    expect(engine.status.get().error).toBeNull();
    expect(p.pages.length).toBeGreaterThanOrEqual(3);
    await expectPagesChain(p.pages, account);
    await expectMirrorEqualsApi(db, account);
    expect((await readMeta(db)).lastSyncedAt).not.toBeNull();
  });

  it('[L4][C6] the server restarts behind its proxy (502) after page 1: the retry goes on from page 2', async () => {
    const account = await s.account(CREW);
    const p = phone(account);
    const { db, engine } = await p.tab();
    p.onPage((n) => {
      if (n === 1) p.net.failWith.set('/api/sync/pull', 502);
    });
    await engine.syncNow();
    expect(engine.status.get().error?.kind).toBe('server');
    expect((await readMeta(db)).lastSyncedAt).toBeNull();
    p.net.failWith.clear();
    await engine.syncNow();
    await expectPagesChain(p.pages, account);
    await expectMirrorEqualsApi(db, account);
  });

  it('[L4][C6] the API process is killed after page 1 and started again: the next cycle goes on from page 2', async () => {
    const server = await childServer(inject('seededTemplateDir'));
    try {
      const file = new Database(server.databasePath);
      addTasks(file);
      file.close();
      await server.start();
      const api = { baseUrl: server.baseUrl, origin: server.origin };
      const account = await signIn(api.baseUrl, api.origin, CREW);
      const p = phone(account, api);
      const { db, engine } = await p.tab();
      p.onPage((n) => (n === 1 ? server.kill('SIGKILL') : undefined));
      await engine.syncNow();
      expect(engine.status.get().error?.kind).toBe('network');
      expect((await readMeta(db)).lastSyncedAt).toBeNull();
      await server.start();
      await engine.syncNow();
      expect(engine.status.get().error).toBeNull();
      await expectPagesChain(p.pages, account, api);
      await expectMirrorEqualsApi(db, account, api);
    } finally {
      await server.kill();
      server.dispose();
    }
  });

  it('[L4][C6][C10] the tab is closed after page 1 and opened again: the new tab goes on from page 2, and its count from page 1', async () => {
    const { account, p } = await cutAfterPage(1);
    p.net.offline = false;
    p.onPage(() => {});
    const second = await p.tab();
    expect((await readMeta(second.db)).lastSyncedAt).toBeNull();
    // [C10] The new tab's progress starts from the rows the first tab brought, not from nothing.
    expect((await readMeta(second.db)).downloadedRows).toBe(p.pages[0]!.changes);
    await second.engine.syncNow();
    await expectPagesChain(p.pages, account);
    await expectMirrorEqualsApi(second.db, account);
    expect((await readMeta(second.db)).downloadedRows).toBe(p.pages.reduce((n, page) => n + page.changes, 0));
  });

  it('[L4][C8] the phone goes offline after page 1 and comes back: the download goes on by itself from page 2', async () => {
    const account = await s.account(CREW);
    const p = phone(account);
    const { db, engine } = await p.tab();
    p.onPage((n) => {
      if (n === 1) {
        p.net.offline = true;
        p.env.setOnline(false);
      }
    });
    engine.start();
    await until(() => engine.status.get().error?.kind === 'network');
    expect((await readMeta(db)).lastSyncedAt).toBeNull();
    p.net.offline = false;
    p.env.setOnline(true);
    await until(async () => (await readMeta(db)).lastSyncedAt !== null, 15_000);
    await engine.stop();
    await expectPagesChain(p.pages, account);
    await expectMirrorEqualsApi(db, account);
  });
});

describe('a download that starts again from nothing is not taken for a complete one', () => {
  it('[C21] a reset cut after the first page of its new download: the device no longer says it is up to date', async () => {
    const account = await s.account(CREW);
    const p = phone(account);
    const { db, engine } = await p.tab();
    await engine.syncNow();
    expect((await readMeta(db)).lastSyncedAt).not.toBeNull();
    // The server cannot go on from this cursor (a restored backup, SPEC L7): the device downloads again.
    await db.meta.put({ ...(await readMeta(db)), cursor: 1_000_000_000 });
    const pagesBefore = p.pages.length;
    dropAfter(p, pagesBefore + 1);
    await engine.syncNow();
    expect(engine.status.get().error?.kind).toBe('network');
    // One page of the new download is on the device: a third of the tasks.
    expect(await db.tasks.count()).toBeLessThan(EXTRA_TASKS);
    expect((await readMeta(db)).lastSyncedAt).toBeNull();
    expect(engine.status.get().lastSyncedAt).toBeNull();

    p.net.offline = false;
    await engine.syncNow();
    expect((await readMeta(db)).lastSyncedAt).not.toBeNull();
    await expectMirrorEqualsApi(db, account);
  });
});

describe('writes made while the first download is unfinished', () => {
  const taskOnDevice = async (db: SyncDb) =>
    (await db.tasks
      .filter((t) => t.status === 'pending' && String(t.title).startsWith('Bulk task'))
      .first())!;
  const serverTask = async (id: string) =>
    (
      await s.t.query<{ status: string; title: string }>('SELECT status, title FROM tasks WHERE id = ?', [id])
    )[0]!;
  const managerPatch = async (id: string, body: Record<string, unknown>) => {
    const res = await s.t.request('PATCH', `/api/tasks/${id}`, {
      cookie: (await s.account(MANAGER)).cookie,
      body,
    });
    expect(res.status).toBe(200);
  };

  it('[C6][W1] a task ticked after page 1 is kept and sent; a later page bringing the same task does not undo it', async () => {
    const { account, p, db, engine } = await cutAfterPage(1);
    const task = await taskOnDevice(db);
    // The office renames it meanwhile, before the crew member ticks it: it now comes in the last page.
    await managerPatch(task.id, { title: 'Renamed by the office' });
    await mutate(db, 'tasks', 'patch', task.id, { status: 'completed' });
    expect((await db.tasks.get(task.id))?.status).toBe('completed');

    p.net.offline = false;
    p.onPage(() => {});
    await engine.syncNow();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.syncIssues.count()).toBe(0);
    expect(await serverTask(task.id)).toEqual({ status: 'completed', title: 'Renamed by the office' });
    expect(await db.tasks.get(task.id)).toMatchObject({
      status: 'completed',
      title: 'Renamed by the office',
    });
    await expectMirrorEqualsApi(db, account);
  });

  it('[C6][C11] a task ticked while the next page is on its way: that page re-applies the tick on its row', async () => {
    const account = await s.account(CREW);
    const p = phone(account);
    const { db, engine } = await p.tab();
    let ticked = '';
    // Page 2 is answered and not applied yet: the office renames a task of page 1 (its new version comes
    // in the last page), and the crew member ticks it on the device.
    p.onPage(async (n) => {
      if (n !== 2) return;
      const task = await taskOnDevice(db);
      ticked = task.id;
      await managerPatch(task.id, { title: 'Renamed while downloading' });
      await mutate(db, 'tasks', 'patch', task.id, { status: 'completed' });
    });
    await engine.syncNow();
    expect(ticked).not.toBe('');
    expect(p.pages.length).toBeGreaterThanOrEqual(3);
    // The last page brought the office's version of the row: the tick is still on it.
    expect(await db.tasks.get(ticked)).toMatchObject({
      status: 'completed',
      title: 'Renamed while downloading',
    });
    await engine.syncNow();
    expect(await serverTask(ticked)).toEqual({ status: 'completed', title: 'Renamed while downloading' });
    await expectMirrorEqualsApi(db, account);
  });
});

describe('sign-out during an unfinished first download', () => {
  it('[C1] another company signs in on the phone: its mirror holds none of the first company, and the first resumes later', async () => {
    // A session of its own: this one is signed out (the shared one stays for the other tests).
    const crew = await signIn(s.baseUrl, s.t.env.PUBLIC_ORIGIN, CREW);
    const crewIds = new Set([...(await apiRows(crew)).values()].flatMap((m) => [...m.keys()]));
    const browser = new IDBFactory();
    // One cookie jar for the browser, as a phone has: whoever signed in last is who every request is.
    let cookie = crew.cookie;
    const jar: FetchLike = (url, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', cookie);
      headers.set('origin', s.t.env.PUBLIC_ORIGIN);
      return fetch(url, { ...init, headers });
    };
    let pulls = 0;
    let signedOut: Promise<void> | null = null;
    const other = await s.account(OTHER_COMPANY);
    const net = switchableFetch(async (url, init) => {
      const res = await jar(url, init);
      if (new URL(url).pathname === '/api/sync/pull' && ++pulls === 1) {
        // Page 1 is on its way back: the crew member signs out and the other company's admin signs in.
        await fetch(`${s.baseUrl}/api/auth/logout`, {
          method: 'POST',
          headers: { cookie: crew.cookie, origin: s.t.env.PUBLIC_ORIGIN },
        });
        cookie = other.cookie;
        signedOut = first.engine.stop();
      }
      return res;
    });
    const engineFor = (account: Account) => {
      const db = openSyncDb(
        { companyId: account.companyId, userId: account.userId },
        { indexedDB: browser, IDBKeyRange },
      );
      return {
        db,
        engine: createSyncEngine({
          db,
          baseUrl: s.baseUrl,
          fetch: net.fetch,
          locks: null,
          eventSource: null,
          environment: manualEnvironment(),
        }),
      };
    };
    const first = engineFor(crew);
    await first.engine.syncNow();
    await signedOut;
    const second = engineFor(other);
    await second.engine.syncNow();
    expect(second.engine.status.get().error).toBeNull();
    expect((await readMeta(second.db)).lastSyncedAt).not.toBeNull();
    const summit = crew.companyId;
    const harborRows = await everyRow(second.db);
    expect(harborRows.filter((r) => r.companyId === summit || crewIds.has(String(r.id)))).toEqual([]);
    expect(harborRows.length).toBeGreaterThan(0);
    // Nothing of the other company went into the crew member's database either.
    const otherIds = new Set([...(await apiRows(other)).values()].flatMap((m) => [...m.keys()]));
    expect((await everyRow(first.db)).filter((r) => otherIds.has(String(r.id)))).toEqual([]);
    expect((await readMeta(first.db)).lastSyncedAt).toBeNull();
    await second.engine.stop();
    first.db.close();
    second.db.close();

    // The crew member signs in again on this phone: the download goes on from where it stopped.
    ({ cookie } = await signIn(s.baseUrl, s.t.env.PUBLIC_ORIGIN, CREW));
    const back = engineFor(crew);
    const cursorBefore = (await readMeta(back.db)).cursor;
    expect(cursorBefore).toBeGreaterThan(0);
    await back.engine.syncNow();
    expect(back.engine.status.get().error).toBeNull();
    await expectMirrorEqualsApi(back.db, { ...crew, cookie });
  });
});
