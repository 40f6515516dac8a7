import { Hono } from 'hono';
import { and, eq, type SQL } from 'drizzle-orm';
import { RiskAssessmentListQuerySchema, type RiskAssessmentListQuery } from '#shared/schemas/risk.ts';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io } from '../db/op.ts';
import { parseWith, readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { findVisibleProject } from '../mutators/core.ts';
import { createRiskAssessment } from '../mutators/risks.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, orderOf, pageRequest, readLimit, sendPage, type OrderKey } from './paging.ts';

const { riskAssessments } = schema;
const ORDER: OrderKey[] = [
  { column: riskAssessments.createdAt, desc: true },
  { column: riskAssessments.id, desc: true },
];

/** A page of the risk assessments the user may see, newest first; of one project when given. */
function* listRiskAssessments(
  c: Conn,
  user: SessionUser,
  filter: RiskAssessmentListQuery,
  page: { after?: SQL; limit: number },
) {
  return yield* io(
    c.db
      .select()
      .from(riskAssessments)
      .where(
        and(
          visibleWhere('risk_assessments', user),
          page.after,
          filter.projectId ? eq(riskAssessments.projectId, filter.projectId) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(page.limit)
      .all(),
  );
}

/** Risk assessments (spec 02 sections 2 and 7): the company's, on projects the user may see. */
export const riskRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(RiskAssessmentListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) await read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = await read(c, (conn) =>
      listRiskAssessments(conn, user, query, {
        after: afterWhere(ORDER, page.after),
        limit: readLimit(page),
      }),
    );
    return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => createRiskAssessment(ctx, body)), 201);
  });
