import { Hono } from 'hono';
import { and } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { publicRow } from '../mutators/core.ts';
import { createProject, deleteProject, updateProject } from '../mutators/projects.ts';
import { mutate, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { projects } = schema;
const ORDER: OrderKey[] = [{ column: projects.name }, { column: projects.id }];

export const projectRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const page = pageRequest(c);
    const rows = db
      .select()
      .from(projects)
      .where(and(visibleWhere('projects', sessionUser(c)), afterWhere(ORDER, page.after)))
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows.map(publicRow), (r) => [r.name, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createProject(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => updateProject(ctx, c.req.param('id'), body))));
  })
  .delete('/:id', (c) => c.json(mutate(c, (ctx) => deleteProject(ctx, c.req.param('id')))));
