import { Hono } from 'hono';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import { sessionUser } from './helpers.ts';

const { subcontractorAssignments: assignments, projects } = schema;

export const assignmentRoutes = new Hono<AppEnv>()
  // The company's assignments on live projects; a subcontractor sees only its own.
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const liveProjects = db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.companyId, user.companyId), isNull(projects.deletedAt)));
    const rows = db
      .select()
      .from(assignments)
      .where(
        and(
          eq(assignments.companyId, user.companyId),
          inArray(assignments.projectId, liveProjects),
          isScopedToAssignments(user) ? eq(assignments.subcontractorId, user.id) : undefined,
        ),
      )
      .orderBy(desc(assignments.createdAt), desc(assignments.id))
      .all();
    return c.json(rows);
  });
