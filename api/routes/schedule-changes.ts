import { Hono } from 'hono';
import { and, type SQL } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { visibleWhere } from '../db/scope.ts';
import { createScheduleChange, updateScheduleChange } from '../mutators/schedule-changes.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { scheduleChanges } = schema;
const ORDER: OrderKey[] = [
  { column: scheduleChanges.createdAt, desc: true },
  { column: scheduleChanges.id, desc: true },
];

/** A page of the schedule changes the user may see, newest first. */
function* listScheduleChanges(c: Conn, user: SessionUser, page: { after?: SQL; limit: number }) {
  return yield* io(
    c.db
      .select()
      .from(scheduleChanges)
      .where(and(visibleWhere('schedule_changes', user), page.after))
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

export const scheduleChangeRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const page = pageRequest(c);
    const user = sessionUser(c);
    const rows = await read(c, (conn) =>
      listScheduleChanges(conn, user, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => createScheduleChange(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    return c.json(publicRow(await mutate(c, (ctx) => updateScheduleChange(ctx, c.req.param('id'), body))));
  });
