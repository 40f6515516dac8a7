import { Hono } from 'hono';
import { desc } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { visibleWhere } from '../db/scope.ts';
import { createScheduleChange, updateScheduleChange } from '../mutators/schedule-changes.ts';
import { mutate, sessionUser } from './helpers.ts';

const { scheduleChanges } = schema;

export const scheduleChangeRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const rows = db
      .select()
      .from(scheduleChanges)
      .where(visibleWhere('schedule_changes', sessionUser(c)))
      .orderBy(desc(scheduleChanges.createdAt), desc(scheduleChanges.id))
      .all();
    return c.json(rows.map(publicRow));
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createScheduleChange(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => updateScheduleChange(ctx, c.req.param('id'), body))));
  });
