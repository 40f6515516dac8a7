import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { RiskAssessmentListQuerySchema } from '#shared/schemas/risk.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
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

/** Risk assessments (spec 02 sections 2 and 7): the company's, on projects the user may see. */
export const riskRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const page = pageRequest(c);
    const query = parseWith(RiskAssessmentListQuerySchema, c.req.query());
    const { projectId } = query;
    if (projectId) read(c, (conn) => findVisibleProject(conn, user, projectId));
    const rows = db
      .select()
      .from(riskAssessments)
      .where(
        and(
          visibleWhere('risk_assessments', user),
          afterWhere(ORDER, page.after),
          query.projectId ? eq(riskAssessments.projectId, query.projectId) : undefined,
        ),
      )
      .orderBy(...orderOf(ORDER))
      .limit(readLimit(page))
      .all();
    return sendPage(c, page, rows, (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(
      mutate(c, (ctx) => createRiskAssessment(ctx, body)),
      201,
    );
  });
