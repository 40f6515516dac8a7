import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { ChangeOrderListQuerySchema } from '#shared/schemas/change-order.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { parseWith, readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { findVisibleProject, publicRow } from '../mutators/core.ts';
import { createChangeOrder, decideChangeOrder } from '../mutators/change-orders.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { changeOrders } = schema;
const ORDER: OrderKey[] = [
  { column: changeOrders.createdAt, desc: true },
  { column: changeOrders.id, desc: true },
];

/** Change orders (spec 01 sections 2, 4, 5 and 7): list, request, and approve/reject/resolve. */
export const changeOrderRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(ChangeOrderListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = db
      .select()
      .from(changeOrders)
      .where(
        and(
          visibleWhere('change_orders', user),
          afterWhere(ORDER, page.after),
          query.projectId ? eq(changeOrders.projectId, query.projectId) : undefined,
          query.status ? eq(changeOrders.status, query.status) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createChangeOrder(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => decideChangeOrder(ctx, c.req.param('id'), body))));
  });
