import { Hono } from 'hono';
import { and } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { visibleWhere } from '../db/scope.ts';
import { readJson } from '../http.ts';
import { createSubcontractorAssignment, removeSubcontractorAssignment } from '../mutators/assignments.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { subcontractorAssignments: assignments } = schema;
const ORDER: OrderKey[] = [
  { column: assignments.createdAt, desc: true },
  { column: assignments.id, desc: true },
];

/** A page of the assignments the user may see, newest first. */
function* listAssignments(c: Conn, user: SessionUser, page: { after?: SQL; limit: number }) {
  return yield* io(
    c.db
      .select()
      .from(assignments)
      .where(and(visibleWhere('subcontractor_assignments', user), page.after))
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

export const assignmentRoutes = new Hono<AppEnv>()
  // The company's assignments on live projects; a subcontractor sees only its own.
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    const rows = await read(c, (conn) =>
      listAssignments(conn, user, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
  })
  // A manager puts a subcontractor on a project (online only: the devices' mirror of it is read-only).
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => createSubcontractorAssignment(ctx, body)), 201);
  })
  .delete('/:id', async (c) =>
    c.json(await mutate(c, (ctx) => removeSubcontractorAssignment(ctx, c.req.param('id')))),
  );
