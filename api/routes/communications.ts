import { Hono } from 'hono';
import { and, desc, eq } from 'drizzle-orm';
import { CommunicationListQuerySchema } from '#shared/schemas/communication.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { parseWith, readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { findVisibleProject } from '../mutators/core.ts';
import { createCommunication } from '../mutators/communications.ts';
import { mutate, sessionUser } from './helpers.ts';

const { communications } = schema;

/** The communications feed (spec 01 sections 2 and 7): the company's, on projects the user may see. */
export const communicationRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const query = parseWith(CommunicationListQuerySchema, c.req.query());
    if (query.projectId) findVisibleProject(db, user, query.projectId);
    const rows = db
      .select()
      .from(communications)
      .where(
        and(
          visibleWhere('communications', user),
          query.projectId ? eq(communications.projectId, query.projectId) : undefined,
          query.type ? eq(communications.type, query.type) : undefined,
        ),
      )
      .orderBy(desc(communications.createdAt), desc(communications.id))
      .all();
    return c.json(rows);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(
      mutate(c, (ctx) => createCommunication(ctx, body)),
      201,
    );
  });
