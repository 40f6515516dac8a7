import { Hono } from 'hono';
import { and, eq, type SQL } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { timeEntries } = schema;
const ORDER: OrderKey[] = [
  { column: timeEntries.startTime, desc: true },
  { column: timeEntries.id, desc: true },
];

/** A page of the company's time entries, latest start first. */
function* listTimeEntries(c: Conn, companyId: string, page: { after?: SQL; limit: number }) {
  return yield* io(
    c.db
      .select()
      .from(timeEntries)
      .where(and(eq(timeEntries.companyId, companyId), page.after))
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** GET /api/time-entries (spec 01 section 7, read-only): the company's entries, latest start first. */
export const timeEntryRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const page = pageRequest(c);
  const { companyId } = sessionUser(c);
  const rows = await read(c, (conn) =>
    listTimeEntries(conn, companyId, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
  );
  return sendPage(c, page, rows, (r) => [r.startTime, r.id]);
});
