import { Hono } from 'hono';
import { UserCreateSchema, UserPatchSchema } from '#shared/schemas/rbac.ts';
import type { AppEnv } from '../context.ts';
import { hashPassword } from '../auth/password.ts';
import { eventStreams } from '../sync/events.ts';
import { readJson } from '../http.ts';
import { validateAdminBody } from '../mutators/admin.ts';
import { updateCompany } from '../mutators/companies.ts';
import {
  createRole,
  deleteRole,
  listPermissions,
  listRoles,
  roleIdParam,
  updateRole,
} from '../mutators/roles.ts';
import {
  createUser,
  deleteUser,
  generateOneTimePassword,
  listCompanyUsers,
  listUsers,
  updateUser,
} from '../mutators/users.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { sendListPage } from './paging.ts';

/**
 * RBAC administration (spec 02 section 7, "Access control"). The route table lets only `rbac:manage`
 * (company admins) and `platform:admin` (root) in; the mutators scope everything else.
 */
export const rbacRoutes = new Hono<AppEnv>()
  .get('/permissions', async (c) => sendListPage(c, await read(c, listPermissions)))
  .get('/roles', async (c) => {
    const user = sessionUser(c);
    const rows = await read(c, (conn) => listRoles(conn, user));
    return sendListPage(c, rows);
  })
  .post('/roles', async (c) => {
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => createRole(ctx, body)), 201);
  })
  .patch('/roles/:id', async (c) => {
    const id = roleIdParam(c.req.param('id'));
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => updateRole(ctx, id, body)));
  })
  .delete('/roles/:id', async (c) => {
    const id = roleIdParam(c.req.param('id'));
    return c.json(await mutate(c, (ctx) => deleteRole(ctx, id)));
  })
  .get('/users', async (c) => {
    const user = sessionUser(c);
    const rows = await read(c, (conn) => listUsers(conn, user));
    return sendListPage(c, rows);
  })
  .post('/users', async (c) => {
    const body = await readJson(c);
    // Hashing is async, so it happens before the write transaction (synchronous on SQLite). A blank password
    // gets a one-time password shown in this response only (DECISIONS.md: no shared default password).
    const { password } = validateAdminBody(UserCreateSchema, body);
    const oneTimePassword = password ? undefined : generateOneTimePassword();
    const hash = await hashPassword(password ?? oneTimePassword ?? '');
    const user = await mutate(c, (ctx) => createUser(ctx, body, hash));
    return c.json(oneTimePassword ? { ...user, one_time_password: oneTimePassword } : user, 201);
  })
  .patch('/users/:id', async (c) => {
    const body = await readJson(c);
    const { password } = validateAdminBody(UserPatchSchema, body);
    const hash = password ? await hashPassword(password) : undefined;
    const updated = await mutate(c, (ctx) => updateUser(ctx, c.req.param('id'), body, hash));
    // Deactivated, demoted or given a new password: the user's open event streams end now, not at the next
    // heartbeat; a device still allowed reconnects and is checked afresh.
    eventStreams(c.var.deps.database).closeUser(c.req.param('id'));
    return c.json(updated);
  })
  .delete('/users/:id', async (c) => {
    const deleted = await mutate(c, (ctx) => deleteUser(ctx, c.req.param('id')));
    eventStreams(c.var.deps.database).closeUser(c.req.param('id'));
    return c.json(deleted);
  })
  .get('/companies/:id/users', async (c) => {
    const user = sessionUser(c);
    const rows = await read(c, (conn) => listCompanyUsers(conn, user, c.req.param('id')));
    return sendListPage(c, rows);
  })
  .patch('/companies/:id', async (c) => {
    const body = await readJson(c);
    return c.json(await mutate(c, (ctx) => updateCompany(ctx, c.req.param('id'), body)));
  });
