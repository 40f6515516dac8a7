import { Hono } from 'hono';
import { and, count, eq, gte, ne } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { startOfTodayIn } from '#shared/rules/dates.ts';
import { visibleWhere } from '../db/scope.ts';
import { sessionUser } from './helpers.ts';

const { projects, tasks, photos } = schema;

export const dashboardRoutes = new Hono<AppEnv>()
  // Spec 01 section 3: the four stat cards, computed from what the caller may see.
  .get('/stats', (c) => {
    const { db, now } = c.var.deps;
    const user = sessionUser(c);
    const projectsWhere = visibleWhere('projects', user);
    const photosWhere = visibleWhere('photos', user);
    const activeProjects = db
      .select({ n: count() })
      .from(projects)
      .where(and(projectsWhere, eq(projects.status, 'active')))
      .get();
    const pendingTasks = db
      .select({ n: count() })
      .from(tasks)
      .where(and(visibleWhere('tasks', user), ne(tasks.status, 'completed')))
      .get();
    const photosUploaded = db.select({ n: count() }).from(photos).where(photosWhere).get();
    // "Today" is the company's day (shared/rules/dates.ts), not UTC's.
    const photosUploadedToday = db
      .select({ n: count() })
      .from(photos)
      .where(
        and(photosWhere, gte(photos.createdAt, startOfTodayIn(now(), user.companyTimeZone).toISOString())),
      )
      .get();
    return c.json({
      activeProjects: activeProjects?.n ?? 0,
      pendingTasks: pendingTasks?.n ?? 0,
      photosUploaded: photosUploaded?.n ?? 0,
      photosUploadedToday: photosUploadedToday?.n ?? 0,
    });
  });
