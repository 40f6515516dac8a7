import { Hono } from 'hono';
import { LRUCache } from 'lru-cache';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { readJson } from '../http.ts';
import { io, type Op } from '../db/op.ts';
import { valueStmt, type SqlConn } from '../db/sql.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import { publicRow } from '../mutators/core.ts';
import {
  createTask,
  deleteTask,
  listVisibleTasks,
  pageOfVisibleTasks,
  updateTask,
} from '../mutators/tasks.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { cursorValues, pageRequest, readLimit, sendPage } from './paging.ts';

/**
 * The company-wide task list only changes when the company's sync version does (every task write bumps it
 * inside its transaction), so its JSON is kept per company at that version: a repeat read costs one version
 * lookup instead of building and serialising every row. Every role but a subcontractor sees that same list
 * (`api/db/scope.ts`); subcontractors' lists depend on their assignments and are never cached. It pays with
 * writes in the mix too (B1, a PATCH every fourth request: 2,721 CPU-us per request with it, 6,035 without;
 * ADR 020): a read after a write misses once and the reads after it hit. Bounded by bytes (least recently
 * read companies go first), so many companies cannot grow the server's memory without limit.
 */
export const TASK_LIST_CACHE_BYTES = 32 * 1024 * 1024;
interface CachedList {
  version: number;
  /** UTF-8 bytes, so a repeat read does not re-encode the whole list either. */
  json: Uint8Array<ArrayBuffer>;
}
interface ListCache {
  lists: LRUCache<string, CachedList>;
}
const listCache = new WeakMap<SqlConn, ListCache>();

const COMPANY_VERSION = valueStmt<number>('SELECT last_version FROM companies WHERE id = ?');

/** This connection's cache, created with `maxBytes` on first use (tests pass a small bound). */
export function taskListCache(sql: SqlConn, maxBytes = TASK_LIST_CACHE_BYTES): ListCache {
  let cache = listCache.get(sql);
  if (!cache) {
    cache = {
      lists: new LRUCache({ maxSize: maxBytes, sizeCalculation: (list) => list.json.byteLength + 64 }),
    };
    listCache.set(sql, cache);
  }
  return cache;
}

/** The company-wide list as JSON bytes, from the cache when the company's version has not moved. */
export function* companyTaskList(c: Conn, user: SessionUser): Op<CachedList> {
  if (isScopedToAssignments(user)) throw new Error('A subcontractor never reads the company-wide list');
  const cache = taskListCache(c.sql);
  // Read the version before the rows: a write landing in between makes the entry stale, never wrong.
  const version = (yield* io(c.sql.get(COMPANY_VERSION, [user.companyId]))) ?? 0;
  const hit = cache.lists.get(user.companyId);
  if (hit && hit.version === version) return hit;
  const rows = yield* listVisibleTasks(c, user);
  const fresh = { version, json: new TextEncoder().encode(JSON.stringify(rows)) };
  cache.lists.set(user.companyId, fresh);
  return fresh;
}

export const taskRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    if (page.limit !== undefined) {
      const after = cursorValues(page.after, 2);
      const rows = await read(c, (conn) => pageOfVisibleTasks(conn, user, after, readLimit(page)));
      return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
    }
    if (isScopedToAssignments(user)) return c.json(await read(c, (conn) => listVisibleTasks(conn, user)));
    const list = await read(c, (conn) => companyTaskList(conn, user));
    const etag = `W/"tasks-${list.version}"`;
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, { ETag: etag });
    return c.body(list.json, 200, { 'Content-Type': 'application/json', ETag: etag });
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => createTask(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => updateTask(ctx, c.req.param('id'), body))));
  })
  .delete('/:id', async (c) => c.json(await mutate(c, (ctx) => deleteTask(ctx, c.req.param('id')))));
