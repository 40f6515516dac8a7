import { Hono } from 'hono';
import { and, eq, type SQL } from 'drizzle-orm';
import { CommunicationListQuerySchema, type CommunicationListQuery } from '#shared/schemas/communication.ts';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { parseWith, readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { findVisibleProject, publicRow } from '../mutators/core.ts';
import { createCommunication } from '../mutators/communications.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { communications } = schema;
const ORDER: OrderKey[] = [
  { column: communications.createdAt, desc: true },
  { column: communications.id, desc: true },
];

/** A page of the communications the user may see, newest first; of one project or type when given. */
function* listCommunications(
  c: Conn,
  user: SessionUser,
  filter: CommunicationListQuery,
  page: { after?: SQL; limit: number },
) {
  return yield* io(
    c.db
      .select()
      .from(communications)
      .where(
        and(
          visibleWhere('communications', user),
          page.after,
          filter.projectId ? eq(communications.projectId, filter.projectId) : undefined,
          filter.type ? eq(communications.type, filter.type) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** The communications feed (spec 01 sections 2 and 7): the company's, on projects the user may see. */
export const communicationRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(CommunicationListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) await read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = await read(c, (conn) =>
      listCommunications(conn, user, query, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => createCommunication(ctx, body))), 201);
  });
