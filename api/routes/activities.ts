import { Hono } from 'hono';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { Id, IsoDate } from '#shared/schemas/common.ts';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { visibleTargetWhere } from '../db/scope.ts';
import { parseWith } from '../http.ts';
import { read, sessionUser } from './helpers.ts';

const { userActivities, users } = schema;

export const ACTIVITY_PAGE_DEFAULT = 50;
export const ACTIVITY_PAGE_MAX = 200;

/**
 * `?limit=` (default 50, at most 200) and `?before=` (a created_at: only older activities) page through
 * the full list; `&beforeId=` (the id of the last row shown) breaks ties between rows of the same instant.
 */
const ActivityQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, `must be 1 to ${ACTIVITY_PAGE_MAX}`)
    .max(ACTIVITY_PAGE_MAX, `must be 1 to ${ACTIVITY_PAGE_MAX}`)
    .default(ACTIVITY_PAGE_DEFAULT),
  before: IsoDate.optional(),
  beforeId: Id.optional(),
});

/** A page of the company's activities the user may see, newest first. */
function* listActivities(
  c: Conn,
  user: SessionUser,
  { limit, before, beforeId }: z.infer<typeof ActivityQuery>,
) {
  const cursor = before
    ? beforeId
      ? or(
          lt(userActivities.createdAt, before),
          and(eq(userActivities.createdAt, before), lt(userActivities.id, beforeId)),
        )
      : lt(userActivities.createdAt, before)
    : undefined;
  return yield* io(
    c.db
      .select({
        id: userActivities.id,
        action_type: userActivities.actionType,
        first_name: users.firstName,
        email: users.email,
        description: userActivities.description,
        created_at: userActivities.createdAt,
      })
      .from(userActivities)
      .leftJoin(users, eq(users.id, userActivities.userId))
      .where(
        and(
          eq(userActivities.companyId, user.companyId),
          // Administration events and activities about nothing known: for user administrators only.
          visibleTargetWhere(
            user,
            { table: 'user_activities', type: 'entity_type', id: 'entity_id', action: 'action_type' },
            user.permissions.has('rbac:manage'),
          ),
          cursor,
        ),
      )
      .orderBy(desc(userActivities.createdAt), desc(userActivities.id))
      .limit(limit)
      .all(),
  );
}

export const activityRoutes = new Hono<AppEnv>()
  // Spec 01 section 3: Activity {id, action_type, first_name, email, description, created_at}, newest first.
  .get('/', async (c) => {
    const user = sessionUser(c);
    const query = parseWith(ActivityQuery, c.req.query());
    return c.json(await read(c, (conn) => listActivities(conn, user, query)));
  });
