import { Hono } from 'hono';
import { Id } from '#shared/schemas/common.ts';
import type { AppEnv } from '../context.ts';
import { badRequest, readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { LOGS_ORDER, createLog, deleteLog, listVisibleLogs, updateLog } from '../mutators/logs.ts';
import { claimNamedUploads } from '../storage/uploads.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, pageRequest, readLimit, sendPage } from './paging.ts';

export const logRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const projectId = c.req.query('projectId');
    if (projectId !== undefined && !Id.safeParse(projectId).success) {
      throw badRequest('ProjectId: must be a valid id', { projectId: 'must be a valid id' });
    }
    const page = pageRequest(c);
    const user = sessionUser(c);
    const rows = await read(c, (conn) =>
      listVisibleLogs(conn, user, projectId, {
        after: afterWhere(LOGS_ORDER, page.after),
        limit: readLimit(page),
      }),
    );
    return sendPage(c, page, rows.map(publicRow), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    await claimNamedUploads(c.var.deps, sessionUser(c), body);
    return c.json(publicRow(await mutate(c, (ctx) => createLog(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    await claimNamedUploads(c.var.deps, sessionUser(c), body);
    return c.json(publicRow(await mutate(c, (ctx) => updateLog(ctx, c.req.param('id'), body))));
  })
  .delete('/:id', async (c) => c.json(await mutate(c, (ctx) => deleteLog(ctx, c.req.param('id')))));
