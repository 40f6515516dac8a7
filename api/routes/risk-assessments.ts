import { Hono } from 'hono';
import { and, desc, eq } from 'drizzle-orm';
import { RiskAssessmentListQuerySchema } from '#shared/schemas/risk.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { parseWith, readJson } from '../http.ts';
import { visibleWhere } from '../db/scope.ts';
import { findVisibleProject } from '../mutators/core.ts';
import { createRiskAssessment } from '../mutators/risks.ts';
import { mutate, sessionUser } from './helpers.ts';

const { riskAssessments } = schema;

/** Risk assessments (spec 02 sections 2 and 7): the company's, on projects the user may see. */
export const riskRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { db } = c.var.deps;
    const user = sessionUser(c);
    const query = parseWith(RiskAssessmentListQuerySchema, c.req.query());
    if (query.projectId) findVisibleProject(db, user, query.projectId);
    const rows = db
      .select()
      .from(riskAssessments)
      .where(
        and(
          visibleWhere('risk_assessments', user),
          query.projectId ? eq(riskAssessments.projectId, query.projectId) : undefined,
        ),
      )
      .orderBy(desc(riskAssessments.createdAt), desc(riskAssessments.id))
      .all();
    return c.json(rows);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(
      mutate(c, (ctx) => createRiskAssessment(ctx, body)),
      201,
    );
  });
