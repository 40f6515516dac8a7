import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { invoices } = schema;
const ORDER: OrderKey[] = [
  { column: invoices.createdAt, desc: true },
  { column: invoices.id, desc: true },
];

/** GET /api/invoices (spec 01 section 7, read-only): the company's invoices, newest first, money in cents. */
export const invoiceRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { db } = c.var.deps;
  const page = pageRequest(c);
  const rows = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, sessionUser(c).companyId), afterWhere(ORDER, page.after)))
    .orderBy(...orderOf(ORDER))
    .limit(readLimit(page))
    .all();
  return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
});
