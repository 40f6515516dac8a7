import { Hono } from 'hono';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import { sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { subcontractorAssignments: assignments, projects } = schema;
const ORDER: OrderKey[] = [
  { column: assignments.createdAt, desc: true },
  { column: assignments.id, desc: true },
];

export const assignmentRoutes = new Hono<AppEnv>()
  // The company's assignments on live projects; a subcontractor sees only its own.
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const page = pageRequest(c);
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
          afterWhere(ORDER, page.after),
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
  });
