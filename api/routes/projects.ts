import { Hono } from 'hono';
import { asc } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { publicRow } from '../mutators/core.ts';
import { createProject, deleteProject, updateProject } from '../mutators/projects.ts';
import { mutate, sessionUser } from './helpers.ts';

export const projectRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const rows = db
      .select()
      .from(schema.projects)
      .where(visibleWhere('projects', sessionUser(c)))
      .orderBy(asc(schema.projects.name))
      .all();
    return c.json(rows.map(publicRow));
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
