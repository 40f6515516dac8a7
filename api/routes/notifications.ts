import { Hono } from 'hono';
import { and, desc, eq } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { visibleTargetWhere } from '../db/scope.ts';
import { notFound } from '../http.ts';
import { sessionUser } from './helpers.ts';

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

// Notifications are plain rows (not mirrored) written only by the server: marking them read is a single
// UPDATE scoped to the session user, so these handlers write directly instead of through a mutator.
export const notificationRoutes = new Hono<AppEnv>()
  // Any userId query parameter (the spec's client sends a placeholder) is ignored: always the session user.
  .get('/', (c) => {
    const user = sessionUser(c);
    const rows = c.var.deps.db
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
      .all();
    return c.json(rows);
  })
  .patch('/mark-all-read', (c) => {
    const user = sessionUser(c);
    const result = c.var.deps.db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(
          eq(notifications.userId, user.id),
          eq(notifications.companyId, user.companyId),
          eq(notifications.isRead, false),
        ),
      )
      .run();
    return c.json({ updated: result.changes });
  })
  .patch('/:id/read', (c) => {
    const user = sessionUser(c);
    const row = c.var.deps.db
      .update(notifications)
      .set({ isRead: true })
      .where(
        and(
          eq(notifications.id, c.req.param('id')),
          eq(notifications.userId, user.id),
          eq(notifications.companyId, user.companyId),
        ),
      )
      .returning(columns)
      .get();
    if (!row) throw notFound('Notification');
    return c.json(row);
  });
