import { Hono } from 'hono';
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { noBody } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { calculateProjectHealth } from '../mutators/health.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { projectHealthMetrics: m, projects } = schema;
const ORDER: OrderKey[] = [{ column: projects.name }, { column: m.id }];

/** A page of the latest metrics of each project the user may see, by project name. */
function* listLatestMetrics(c: Conn, user: SessionUser, page: { after?: SQL; limit: number }) {
  // The latest row of each project: no later row (by calculatedAt, then by the time-ordered UUIDv7 id).
  return yield* io(
    c.db
      .select({ ...getTableColumns(m), projectName: projects.name })
      .from(m)
      .innerJoin(projects, eq(projects.id, m.projectId))
      .where(
        and(
          visibleWhere('project_health_metrics', user),
          page.after,
          sql`NOT EXISTS (SELECT 1 FROM ${m} AS later WHERE later.project_id = ${m.projectId}
            AND (later.calculated_at > ${m.calculatedAt}
              OR (later.calculated_at = ${m.calculatedAt} AND later.id > ${m.id})))`,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** Project health (spec 02 sections 2 and 7): the latest metrics per project, and a recalculation. */
export const healthMetricRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    const rows = await read(c, (conn) =>
      listLatestMetrics(conn, user, { after: afterWhere(ORDER, page.after), limit: readLimit(page) }),
    );
    return sendPage(
      c,
      page,
      rows,
      (r) => [r.projectName, r.id],
      ({ projectName: _name, ...row }) => row,
    );
  })
  .post('/:projectId/calculate', async (c) => {
    await noBody(c);
    return c.json(await mutate(c, (ctx) => calculateProjectHealth(ctx, c.req.param('projectId'))), 201);
  });
