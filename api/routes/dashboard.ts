import { Hono } from 'hono';
import { and, count, eq, gte, ne } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { startOfTodayIn } from '#shared/rules/dates.ts';
import { visibleWhere } from '../db/scope.ts';
import { read, sessionUser } from './helpers.ts';

const { projects, tasks, photos } = schema;

interface DashboardStats {
  activeProjects: number;
  pendingTasks: number;
  photosUploaded: number;
  photosUploadedToday: number;
}

/** Spec 01 section 3: the four stat cards, computed from what the user may see at `now`. */
function* dashboardStats(c: Conn, user: SessionUser, now: Date): Op<DashboardStats> {
  const projectsWhere = visibleWhere('projects', user);
  const photosWhere = visibleWhere('photos', user);
  const activeProjects = yield* io(
    c.db
      .select({ n: count() })
      .from(projects)
      .where(and(projectsWhere, eq(projects.status, 'active')))
      .get(),
  );
  const pendingTasks = yield* io(
    c.db
      .select({ n: count() })
      .from(tasks)
      .where(and(visibleWhere('tasks', user), ne(tasks.status, 'completed')))
      .get(),
  );
  const photosUploaded = yield* io(c.db.select({ n: count() }).from(photos).where(photosWhere).get());
  // "Today" is the company's day (shared/rules/dates.ts), not UTC's.
  const photosUploadedToday = yield* io(
    c.db
      .select({ n: count() })
      .from(photos)
      .where(and(photosWhere, gte(photos.createdAt, startOfTodayIn(now, user.companyTimeZone).toISOString())))
      .get(),
  );
  return {
    activeProjects: activeProjects?.n ?? 0,
    pendingTasks: pendingTasks?.n ?? 0,
    photosUploaded: photosUploaded?.n ?? 0,
    photosUploadedToday: photosUploadedToday?.n ?? 0,
  };
}

export const dashboardRoutes = new Hono<AppEnv>()
  // Spec 01 section 3: the four stat cards, computed from what the caller may see.
  .get('/stats', async (c) => {
    const user = sessionUser(c);
    const now = c.var.deps.now();
    return c.json(await read(c, (conn) => dashboardStats(conn, user, now)));
  });
