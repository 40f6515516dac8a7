import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { readJson } from '../http.ts';
import { createCompany, deleteCompany, listCompanies, unreferencedPhotoKeys } from '../mutators/companies.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { sendListPage } from './paging.ts';

/** Companies (spec 02 section 7): root manages all of them; a company admin sees only its own. */
export const companyRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const user = sessionUser(c);
    const rows = await read(c, (conn) => listCompanies(conn, user));
    return sendListPage(c, rows);
  })
  .post('/', async (c) => {
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => createCompany(ctx, body)), 201);
  })
  .delete('/:id', async (c) => {
    const { store } = c.var.deps;
    const { photoKeys, ...result } = await mutate(c, (ctx) => deleteCompany(ctx, c.req.param('id')));
    // The rows are gone (committed); the photo bytes go after, best effort: a file left behind is only
    // disk space, never data another company can reach.
    for (const key of await read(c, (conn) => unreferencedPhotoKeys(conn, photoKeys))) {
      await store.delete(key).catch(() => undefined);
    }
    return c.json(result);
  });
