import { Hono } from 'hono';
import type { Context } from 'hono';
import { Id } from '#shared/schemas/common.ts';
import type { AppEnv } from '../context.ts';
import { badRequest, notFound, readJson } from '../http.ts';
import { publicRow } from '../mutators/core.ts';
import { createLog, deleteLog, listVisibleLogs, updateLog } from '../mutators/logs.ts';
import { readImageMeta } from '../storage/sniff.ts';
import { mutate, sessionUser } from './helpers.ts';

const OBJECT_URL = /^\/api\/objects\/image\/(.+)$/;

/**
 * Uploaded-object addresses in a log body must name objects of the caller's company (404 otherwise, as for
 * any foreign id). Done here because it reads the blob store, which a synchronous mutator cannot.
 */
async function checkObjectImages(c: Context<AppEnv>, body: unknown) {
  const images = (body as { images?: unknown } | null)?.images;
  if (!Array.isArray(images)) return;
  const { companyId } = sessionUser(c);
  for (const url of images) {
    const key = typeof url === 'string' ? OBJECT_URL.exec(url)?.[1] : undefined;
    if (key === undefined) continue; // the shared schema rejects anything malformed
    const meta = await readImageMeta(c.var.deps.store, key).catch(() => null);
    if (!meta || meta.companyId !== companyId) throw notFound('Image');
  }
}

export const logRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const projectId = c.req.query('projectId');
    if (projectId !== undefined && !Id.safeParse(projectId).success) {
      throw badRequest('ProjectId: must be a valid id', { projectId: 'must be a valid id' });
    }
    return c.json(listVisibleLogs(c.var.deps.db, sessionUser(c), projectId).map(publicRow));
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    await checkObjectImages(c, body);
    return c.json(publicRow(mutate(c, (ctx) => createLog(ctx, body))), 201);
  })
  .patch('/:id', async (c) => {
    const body = await readJson(c);
    await checkObjectImages(c, body);
    return c.json(publicRow(mutate(c, (ctx) => updateLog(ctx, c.req.param('id'), body))));
  })
  .delete('/:id', (c) => c.json(mutate(c, (ctx) => deleteLog(ctx, c.req.param('id')))));
