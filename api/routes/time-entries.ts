import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { timeEntries } = schema;
const ORDER: OrderKey[] = [
  { column: timeEntries.startTime, desc: true },
  { column: timeEntries.id, desc: true },
];

/** GET /api/time-entries (spec 01 section 7, read-only): the company's entries, latest start first. */
export const timeEntryRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { db } = c.var.deps;
  const page = pageRequest(c);
  const rows = db
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.companyId, sessionUser(c).companyId), afterWhere(ORDER, page.after)))
    .orderBy(...orderOf(ORDER))
    .limit(readLimit(page))
    .all();
  return sendPage(c, page, rows, (r) => [r.startTime, r.id]);
});
