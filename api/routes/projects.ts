import { Hono } from 'hono';
import { and, type SQL } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { readJson } from '../http.ts';
import { projectFor, visibleWhere } from '../db/scope.ts';
import { publicRow } from '../mutators/core.ts';
import { createProject, deleteProject, updateProject } from '../mutators/projects.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { projects } = schema;
const ORDER: OrderKey[] = [{ column: projects.name }, { column: projects.id }];

/** A page of the projects the user may see, by name. */
function* listProjects(c: Conn, user: SessionUser, page: { after?: SQL; limit: number }) {
  return yield* io(
    c.db
      .select()
      .from(projects)
      .where(and(visibleWhere('projects', user), page.after))
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

export const projectRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const page = pageRequest(c);
    const user = sessionUser(c);
    const rows = await read(c, (conn) =>
      listProjects(conn, user, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(
      c,
      page,
      rows.map((r) => projectFor(user, publicRow(r))),
      (r) => [r.name, r.id],
    );
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    const row = await mutate(c, (ctx) => createProject(ctx, body));
    return c.json(projectFor(sessionUser(c), publicRow(row)), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    const row = await mutate(c, (ctx) => updateProject(ctx, c.req.param('id'), body));
    return c.json(projectFor(sessionUser(c), publicRow(row)));
  })
  .delete('/:id', async (c) => c.json(await mutate(c, (ctx) => deleteProject(ctx, c.req.param('id')))));
