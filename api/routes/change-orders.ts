import { Hono } from 'hono';
import { and, eq, type SQL } from 'drizzle-orm';
import { ChangeOrderListQuerySchema, type ChangeOrderListQuery } from '#shared/schemas/change-order.ts';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
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

/** A page of the change orders the user may see, newest first; of one project or status when given. */
function* listChangeOrders(
  c: Conn,
  user: SessionUser,
  filter: ChangeOrderListQuery,
  page: { after?: SQL; limit: number },
) {
  return yield* io(
    c.db
      .select()
      .from(changeOrders)
      .where(
        and(
          visibleWhere('change_orders', user),
          page.after,
          filter.projectId ? eq(changeOrders.projectId, filter.projectId) : undefined,
          filter.status ? eq(changeOrders.status, filter.status) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** Change orders (spec 01 sections 2, 4, 5 and 7): list, request, and approve/reject/resolve. */
export const changeOrderRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(ChangeOrderListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) await read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = await read(c, (conn) =>
      listChangeOrders(conn, user, query, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => createChangeOrder(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => decideChangeOrder(ctx, c.req.param('id'), body))));
  });
