import { Hono } from 'hono';
import { and, desc, eq } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { visibleTargetWhere } from '../db/scope.ts';
import { rowsStmt } from '../db/sql.ts';
import { noBody, notFound } from '../http.ts';
import { mutate, read, sessionUser } from './helpers.ts';

const { notifications } = schema;

/** The fields the notifications panel reads (spec 02 section 3), never another user's. */
const columns = {
  id: notifications.id,
  title: notifications.title,
  message: notifications.message,
  type: notifications.type,
  isRead: notifications.isRead,
  createdAt: notifications.createdAt,
  relatedEntityType: notifications.relatedEntityType,
  relatedEntityId: notifications.relatedEntityId,
};

/** The panel shows the newest ones; older ones stay stored but are not sent. */
export const NOTIFICATION_LIST_LIMIT = 200;

const MARK_ALL_READ = rowsStmt(
  'UPDATE notifications SET is_read = 1 WHERE user_id = ? AND company_id = ? AND is_read = 0',
);

/** The session user's newest notifications, of rows the user can still read. */
function* listNotifications(c: Conn, user: SessionUser) {
  return yield* io(
    c.db
      .select(columns)
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, user.id),
          eq(notifications.companyId, user.companyId),
          // A notification about a row the user can no longer read (e.g. unassigned since) is not shown.
          visibleTargetWhere(
            user,
            { table: 'notifications', type: 'related_entity_type', id: 'related_entity_id' },
            true,
          ),
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATION_LIST_LIMIT)
      .all(),
  );
}

/** Marks all the session user's unread notifications read; the number of rows it changed. */
function* markAllRead(c: Conn, user: SessionUser): Op<number> {
  return yield* io(c.sql.run(MARK_ALL_READ, [user.id, user.companyId]));
}

/** Marks one of the session user's notifications read; its fields, or 404. */
function* markRead(c: Conn, user: SessionUser, id: string) {
  const row = yield* io(
    c.db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(
          eq(notifications.id, id),
          eq(notifications.userId, user.id),
          eq(notifications.companyId, user.companyId),
        ),
      )
      .returning(columns)
      .get(),
  );
  if (!row) throw notFound('Notification');
  return row;
}

// Notifications are plain rows (not mirrored) written only by the server: marking them read is a single
// UPDATE scoped to the session user, so these handlers run their own small Ops instead of a mutator's.
export const notificationRoutes = new Hono<AppEnv>()
  // Any userId query parameter (the spec's client sends a placeholder) is ignored: always the session user.
  .get('/', async (c) => {
    const user = sessionUser(c);
    return c.json(await read(c, (conn) => listNotifications(conn, user)));
  })
  .patch('/mark-all-read', async (c) => {
    await noBody(c);
    const user = sessionUser(c);
    return c.json({ updated: await mutate(c, (ctx) => markAllRead(ctx, user)) });
  })
  .patch('/:id/read', async (c) => {
    await noBody(c);
    const user = sessionUser(c);
    return c.json(await mutate(c, (ctx) => markRead(ctx, user, c.req.param('id'))));
  });
