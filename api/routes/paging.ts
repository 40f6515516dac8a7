import type { Context } from 'hono';
import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import type { AppEnv } from '../context.ts';
import { badRequest, parseWith } from '../http.ts';

/**
 * Paging of every list route (README, "API"). Without `limit` a list answers the full array the spec's
 * screens expect. With `?limit=N` (at most LIST_MAX_LIMIT; larger values are capped) it answers at most N
 * rows, still a plain array, and when more rows follow, the address of the next page in a `Link: <...>;
 * rel="next"` header and its opaque cursor in `X-Next-Cursor` (send it back as `?cursor=`). Pages are
 * keyset pages over the list's own order (with the id as the tie-break), so rows written between two
 * pages never shift one; a cursor without `limit` pages by LIST_MAX_LIMIT.
 */
export const LIST_MAX_LIMIT = 1000;

const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .transform((n) => Math.min(n, LIST_MAX_LIMIT))
    .optional(),
  cursor: z.string().max(2048).optional(),
});

export interface PageRequest {
  /** Rows per page, or undefined for the whole list. */
  limit?: number;
  /** The order-key values of the last row of the previous page. */
  after?: unknown[];
}

function decodeCursor(cursor: string): unknown[] {
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(values) && values.every((v) => ['string', 'number'].includes(typeof v))) return values;
  } catch {
    // fall through
  }
  throw badRequest('Cursor: is not a cursor this server handed out', { cursor: 'invalid' });
}

/** `limit` and `cursor` of the request (other query parameters are the route's business). */
export function pageRequest(c: Context<AppEnv>): PageRequest {
  const raw = { limit: c.req.query('limit'), cursor: c.req.query('cursor') };
  // The unpaged list is the hot path (budget B1): no validation to run when neither is sent.
  if (raw.limit === undefined && raw.cursor === undefined) return {};
  const { limit, cursor } = parseWith(PageQuery, raw);
  if (cursor === undefined) return { limit };
  return { limit: limit ?? LIST_MAX_LIMIT, after: decodeCursor(cursor) };
}

/** One column of a list's order; the last one must be unique (the id). */
export interface OrderKey {
  column: SQLiteColumn;
  desc?: boolean;
}

/** ORDER BY of these keys. */
export const orderOf = (order: readonly OrderKey[]) =>
  order.map((k) => (k.desc ? desc(k.column) : asc(k.column)));

/**
 * The cursor's values for a list ordered by `keys` columns, or undefined on the first page; 400 for a cursor
 * of another list (another number of values).
 */
export function cursorValues(after: unknown[] | undefined, keys: number): unknown[] | undefined {
  if (after && after.length !== keys)
    throw badRequest('Cursor: belongs to another list', { cursor: 'invalid' });
  return after;
}

/** The WHERE of the rows after `after` in this order (keyset), or undefined on the first page. */
export function afterWhere(order: readonly OrderKey[], after: unknown[] | undefined): SQL | undefined {
  const values = cursorValues(after, order.length);
  if (!values) return undefined;
  const alternatives: SQL[] = [];
  for (let i = 0; i < order.length; i++) {
    const { column, desc } = order[i]!;
    const equalBefore = order.slice(0, i).map((k, j) => eq(k.column, values[j]));
    alternatives.push(and(...equalBefore, desc ? lt(column, values[i]) : gt(column, values[i]))!);
  }
  return or(...alternatives);
}

/** How many rows to read: one more than the page, to know whether another follows (-1: all, as in SQLite). */
export const readLimit = (page: PageRequest) => (page.limit === undefined ? -1 : page.limit + 1);

/**
 * Answers a page read with `readLimit`: at most `limit` rows, and the next page's cursor and address in
 * headers when more follow. `key` gives a row's order-key values, in the order of the `OrderKey`s;
 * `present` shapes each row sent (when the order needs a column the answer does not carry).
 */
export function sendPage<T, U = T>(
  c: Context<AppEnv>,
  page: PageRequest,
  rows: T[],
  key: (row: T) => unknown[],
  present: (row: T) => U = (row) => row as unknown as U,
) {
  if (page.limit === undefined || rows.length <= page.limit) return c.json(rows.map(present));
  const shown = rows.slice(0, page.limit);
  const cursor = Buffer.from(JSON.stringify(key(shown[shown.length - 1]!))).toString('base64url');
  const next = new URL(c.req.url);
  next.searchParams.set('limit', String(page.limit));
  next.searchParams.set('cursor', cursor);
  c.header('X-Next-Cursor', cursor);
  c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
  return c.json(shown.map(present));
}

/**
 * Paging of a small list built in code, in its own order (the administration lists): the cursor is the id
 * of the last row shown. A cursor naming a row that has since left the list is a 400 (start again).
 */
export function sendListPage<T extends { id: string | number }>(c: Context<AppEnv>, rows: T[]) {
  const page = pageRequest(c);
  let from = 0;
  if (page.after) {
    const index = rows.findIndex((r) => r.id === page.after![0]);
    if (index < 0) throw badRequest('Cursor: that row is no longer in the list', { cursor: 'stale' });
    from = index + 1;
  }
  const rest = rows.slice(from, page.limit === undefined ? undefined : from + page.limit + 1);
  return sendPage(c, page, rest, (r) => [r.id]);
}

/** Paging of a list already in memory and in order (small lists sorted in code, such as the directory). */
export function pageOfArray<T>(
  page: PageRequest,
  rows: T[],
  key: (row: T) => unknown[],
  compare: (a: unknown[], b: unknown[]) => number,
): T[] {
  const after = page.after;
  const from = after ? rows.filter((r) => compare(key(r), after) > 0) : rows;
  return page.limit === undefined ? from : from.slice(0, page.limit + 1);
}
