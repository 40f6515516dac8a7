import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { createTask, deleteTask, listVisibleTasks, updateTask } from '../mutators/tasks.ts';
import { mutate, sessionUser } from './helpers.ts';

export const taskRoutes = new Hono<AppEnv>()
  // B1 benchmark route: a statement prepared once per database, no query builder per request.
  .get('/', (c) => c.json(listVisibleTasks(c.var.deps.db, sessionUser(c))))
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createTask(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => updateTask(ctx, c.req.param('id'), body))));
  })
  .delete('/:id', (c) => c.json(mutate(c, (ctx) => deleteTask(ctx, c.req.param('id')))));
