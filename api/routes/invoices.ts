import { Hono } from 'hono';
import { and, eq, type SQL } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { invoices } = schema;
const ORDER: OrderKey[] = [
  { column: invoices.createdAt, desc: true },
  { column: invoices.id, desc: true },
];

/** A page of the company's invoices, newest first. */
function* listInvoices(c: Conn, companyId: string, page: { after?: SQL; limit: number }) {
  return yield* io(
    c.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), page.after))
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** GET /api/invoices (spec 01 section 7, read-only): the company's invoices, newest first, money in cents. */
export const invoiceRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const page = pageRequest(c);
  const { companyId } = sessionUser(c);
  const rows = await read(c, (conn) =>
    listInvoices(conn, companyId, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
  );
  return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
});
