import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { CommunicationListQuerySchema } from '#shared/schemas/communication.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
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

/** The communications feed (spec 01 sections 2 and 7): the company's, on projects the user may see. */
export const communicationRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(CommunicationListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = db
      .select()
      .from(communications)
      .where(
        and(
          visibleWhere('communications', user),
          afterWhere(ORDER, page.after),
          query.projectId ? eq(communications.projectId, query.projectId) : undefined,
          query.type ? eq(communications.type, query.type) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createCommunication(ctx, body))), 201);
  });
