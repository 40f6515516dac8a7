import { Hono } from 'hono';
import { and } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { visibleWhere } from '../db/scope.ts';
import { createScheduleChange, updateScheduleChange } from '../mutators/schedule-changes.ts';
import { mutate, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { scheduleChanges } = schema;
const ORDER: OrderKey[] = [
  { column: scheduleChanges.createdAt, desc: true },
  { column: scheduleChanges.id, desc: true },
];

export const scheduleChangeRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const page = pageRequest(c);
    const rows = db
      .select()
      .from(scheduleChanges)
      .where(and(visibleWhere('schedule_changes', sessionUser(c)), afterWhere(ORDER, page.after)))
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => createScheduleChange(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(mutate(c, (ctx) => updateScheduleChange(ctx, c.req.param('id'), body))));
  });
