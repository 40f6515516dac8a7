import crypto from 'node:crypto';
import { and, asc, eq, ne, or } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { newId, PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { UserCreateSchema, UserPatchSchema } from '#shared/schemas/rbac.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt } from '../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../http.ts';
import {
  assertCompanyExists,
  isRoot,
  permissionIdsByRole,
  permissionNames,
  validateAdminBody,
} from './admin.ts';
import {
  mutationContext,
  nextVersion,
  nowIso,
  recordActivity,
  requirePermission,
  stampFields,
  type MutationContext,
} from './core.ts';

/** The admin area's users (spec 02 sections 3 and 7): root manages all, a company admin its own company's. */

const { companies, roles, users, sessions } = schema;

type RoleRow = typeof roles.$inferSelect;

/**
 * A one-time password for a new user (DECISIONS.md: no shared default password). 18 random bytes give 24
 * base64url characters (144 bits); the admin sees it once and the user must replace it at first sign-in.
 */
export function generateOneTimePassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}

const userColumns = {
  id: users.id,
  name: users.name,
  username: users.username,
  email: users.email,
  first_name: users.firstName,
  last_name: users.lastName,
  company_id: users.companyId,
  company_name: companies.name,
  role_id: users.roleId,
  role_name: roles.name,
  role: users.role,
  is_active: users.isActive,
};

/** The admin area's user rows (never the password), optionally filtered. */
function usersQuery(c: Conn, where: SQL | undefined) {
  return c.db
    .select(userColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .orderBy(asc(companies.name), asc(users.name), asc(users.email));
}
export type UserView = Awaited<ReturnType<ReturnType<typeof usersQuery>['all']>>[number];

function* selectUsers(c: Conn, where: SQL | undefined): Op<UserView[]> {
  return yield* io(usersQuery(c, where).all());
}

function* userView(c: Conn, id: string): Op<UserView> {
  const row = (yield* selectUsers(c, eq(users.id, id)))[0];
  if (!row) throw notFound('User');
  return row;
}

/** Root sees every company's users; an admin only its own company's. */
export function* listUsers(c: Conn, user: SessionUser): Op<UserView[]> {
  return yield* selectUsers(c, isRoot(user) ? undefined : eq(users.companyId, user.companyId));
}

/** GET /api/rbac/companies/{id}/users: another company's id is a 404 for a non-root admin. */
export function* listCompanyUsers(c: Conn, user: SessionUser, companyId: string): Op<UserView[]> {
  if (!isRoot(user) && companyId !== user.companyId) throw notFound('Company');
  yield* assertCompanyExists(c, companyId);
  return yield* selectUsers(c, eq(users.companyId, companyId));
}

type UserRow = typeof users.$inferSelect;

/** A user the caller may manage, or 404: another company's user, or a root user for a non-root admin. */
function* findManagedUser(ctx: MutationContext, id: string): Op<UserRow> {
  const row = yield* io(ctx.db.select().from(users).where(eq(users.id, id)).get());
  const root = isRoot(ctx.user);
  if (!row || (!root && (row.companyId !== ctx.user.companyId || row.role === 'root'))) {
    throw notFound('User');
  }
  return row;
}

/**
 * The role a caller may give a user of `companyId`. A non-root admin may grant neither a root role (403)
 * nor another company's role (404, never reveal it). Root may grant a company role only inside that
 * company, and the root role only to the platform company's users.
 */
function* grantableRole(ctx: MutationContext, roleId: number, companyId: string): Op<RoleRow> {
  const role = yield* io(ctx.db.select().from(roles).where(eq(roles.id, roleId)).get());
  if (!role) throw notFound('Role');
  const root = isRoot(ctx.user);
  if (role.kind === 'root' && !root) {
    throw forbidden('Only a platform administrator can grant the Platform Administrator role');
  }
  if (role.companyId !== null && role.companyId !== companyId) {
    if (!root) throw notFound('Role');
    throw badRequest('That role belongs to another company', {
      role_id: 'Choose a role of the user’s company',
    });
  }
  if (role.kind === 'root' && companyId !== PLATFORM_COMPANY_ID) {
    throw badRequest('The Platform Administrator role is only for platform users', {
      role_id: 'Only platform users can be platform administrators',
    });
  }
  return role;
}

function* assertEmailFree(c: Conn, email: string, exceptUserId?: string): Op<void> {
  const taken = yield* io(
    c.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          or(eq(users.email, email), eq(users.username, email)),
          exceptUserId ? ne(users.id, exceptUserId) : undefined,
        ),
      )
      .get(),
  );
  if (taken) throw conflict('A user with this email already exists', 'EMAIL_TAKEN');
}

/**
 * POST /api/rbac/users. `passwordHash` is the argon2 hash of the given or generated password, computed by
 * the caller before the write transaction (hashing is slow and async: it stays out of the transaction). The new user must set a
 * password of their own at first sign-in either way: the admin knows this one.
 */
export function* createUser(ctx: MutationContext, input: unknown, passwordHash: string): Op<UserView> {
  requirePermission(ctx, 'rbac:manage');
  const data = validateAdminBody(UserCreateSchema, input);
  if (!isRoot(ctx.user) && data.company_id !== ctx.user.companyId) {
    throw forbidden('You can only add users to your own company');
  }
  yield* assertCompanyExists(ctx, data.company_id);
  const role = yield* grantableRole(ctx, data.role_id, data.company_id);
  yield* assertEmailFree(ctx, data.email);
  const id = newId();
  const at = nowIso(ctx);
  yield* io(
    ctx.db
      .insert(users)
      .values({
        id,
        email: data.email,
        username: data.email,
        firstName: data.first_name,
        lastName: data.last_name,
        name: `${data.first_name} ${data.last_name}`,
        password: passwordHash,
        role: role.kind,
        roleId: role.id,
        companyId: data.company_id,
        isActive: true,
        mustChangePassword: true,
        createdAt: at,
        updatedAt: at,
      })
      .run(),
  );
  yield* recordActivity(ctx, {
    actionType: 'user_created',
    description: `Added user ${data.first_name} ${data.last_name} as ${role.name}`,
    entityType: 'user',
    entityId: id,
    metadata: { companyId: data.company_id, roleId: role.id },
  });
  return yield* userView(ctx, id);
}

/**
 * PATCH /api/rbac/users/{id}: the same fields plus is_active, or only is_active. Users never change
 * company. A new password (hashed by the caller as `passwordHash`) signs the user out elsewhere and must be
 * replaced at next sign-in, unless admins reset their own. Deactivating signs the user out at once. Admins
 * can neither deactivate nor demote themselves.
 */
export function* updateUser(
  ctx: MutationContext,
  id: string,
  input: unknown,
  passwordHash?: string,
): Op<UserView> {
  requirePermission(ctx, 'rbac:manage');
  const patch = validateAdminBody(UserPatchSchema, input);
  if (patch.password !== undefined && passwordHash === undefined) {
    throw new Error('updateUser: a new password needs its hash');
  }
  const target = yield* findManagedUser(ctx, id);
  const self = target.id === ctx.user.id;
  if (patch.company_id != null && patch.company_id !== target.companyId) {
    throw badRequest('Users cannot change companies', { company_id: 'Users cannot change companies' });
  }
  if (self && patch.is_active === false) throw badRequest('You cannot deactivate your own account');

  const set: Partial<typeof users.$inferInsert> = {};
  if (patch.role_id != null && patch.role_id !== target.roleId) {
    const role = yield* grantableRole(ctx, patch.role_id, target.companyId);
    if (self) {
      const byRole = yield* permissionIdsByRole(ctx, [role.id]);
      const granted = yield* permissionNames(ctx, byRole.get(role.id) ?? []);
      const lost = ['rbac:manage', 'platform:admin'].some(
        (k) => ctx.user.permissions.has(k) && !granted.has(k),
      );
      if (lost) throw badRequest('You cannot remove your own administrator access');
    }
    set.roleId = role.id;
    set.role = role.kind;
  }
  if (patch.email != null && patch.email !== target.email) {
    yield* assertEmailFree(ctx, patch.email, target.id);
    set.email = patch.email;
    set.username = patch.email;
  }
  if (patch.first_name != null) set.firstName = patch.first_name;
  if (patch.last_name != null) set.lastName = patch.last_name;
  if (set.firstName !== undefined || set.lastName !== undefined) {
    set.name = `${set.firstName ?? target.firstName ?? ''} ${set.lastName ?? target.lastName ?? ''}`.trim();
  }
  if (patch.is_active !== undefined) set.isActive = patch.is_active;
  if (patch.password !== undefined && passwordHash !== undefined) {
    set.password = passwordHash;
    set.mustChangePassword = !self;
  }
  if (Object.keys(set).length) {
    set.updatedAt = nowIso(ctx);
    yield* io(ctx.db.update(users).set(set).where(eq(users.id, id)).run());
  }

  // Sessions are checked on every request, but removing them makes the change final and immediate.
  if (patch.is_active === false) {
    yield* io(ctx.db.delete(sessions).where(eq(sessions.userId, id)).run());
  } else if (set.password !== undefined) {
    yield* io(
      ctx.db
        .delete(sessions)
        .where(and(eq(sessions.userId, id), self ? ne(sessions.sid, ctx.user.sessionId) : undefined))
        .run(),
    );
  }

  const changed = Object.keys(patch).filter((k) => k !== 'password' || set.password !== undefined);
  const statusChange = patch.is_active !== undefined && patch.is_active !== target.isActive;
  yield* recordActivity(ctx, {
    actionType: statusChange ? (patch.is_active ? 'user_activated' : 'user_deactivated') : 'user_updated',
    description: `${statusChange ? (patch.is_active ? 'Activated' : 'Deactivated') : 'Updated'} user ${target.name ?? target.email}`,
    entityType: 'user',
    entityId: id,
    metadata: { fields: changed },
  });
  return yield* userView(ctx, id);
}

/**
 * The columns of mirrored rows that name a user; the database nulls them when the user is deleted. With
 * each, the statements that read the rows naming a user and null the reference as a versioned write.
 */
const MIRRORED_USER_COLUMNS = (
  [
    { table: 'tasks', column: 'assignee_id', field: 'assigneeId' },
    { table: 'project_logs', column: 'user_id', field: 'userId' },
    { table: 'photos', column: 'user_id', field: 'userId' },
    { table: 'schedule_changes', column: 'user_id', field: 'userId' },
  ] as const
).map(({ table, column, field }) => ({
  field,
  select: rowsStmt<{ id: string; fieldMeta: string | null }>(
    `SELECT id, field_meta AS fieldMeta FROM ${table} WHERE company_id = ? AND ${column} = ?`,
  ),
  update: rowsStmt(
    `UPDATE ${table} SET ${column} = NULL, version = ?, field_meta = ?, updated_at = ?, updated_by = ?
       WHERE id = ?`,
  ),
}));

/**
 * Nulls, as versioned writes, the mirrored rows' references to a user about to be deleted. The foreign
 * key's ON DELETE SET NULL alone changes them without a version, so no device would ever pull the change
 * and a task would stay assigned to a deleted person on every phone. The versions are the target's
 * company's (root may delete another company's user).
 */
function* forgetOnDevices(ctx: MutationContext, target: UserRow): Op<void> {
  const inCompany = mutationContext({ ...ctx, user: { ...ctx.user, companyId: target.companyId } });
  for (const { field, select, update } of MIRRORED_USER_COLUMNS) {
    const rows = yield* io(ctx.sql.all(select, [target.companyId, target.id]));
    for (const row of rows) {
      const previous = row.fieldMeta
        ? (JSON.parse(row.fieldMeta) as Record<string, [number, number, string]>)
        : {};
      const stamp = stampFields(inCompany, yield* nextVersion(inCompany), [field], previous);
      yield* io(
        ctx.sql.run(update, [
          stamp.version,
          JSON.stringify(stamp.fieldMeta),
          stamp.updatedAt,
          stamp.updatedBy,
          row.id,
        ]),
      );
    }
  }
}

export function* deleteUser(ctx: MutationContext, id: string): Op<{ id: string }> {
  requirePermission(ctx, 'rbac:manage');
  if (id === ctx.user.id) throw badRequest('You cannot delete your own account');
  const target = yield* findManagedUser(ctx, id);
  yield* forgetOnDevices(ctx, target);
  // Sessions, notifications and assignments go with the user; authored rows keep a null author.
  yield* io(ctx.db.delete(users).where(eq(users.id, id)).run());
  yield* recordActivity(ctx, {
    actionType: 'user_deleted',
    description: `Deleted user ${target.name ?? target.email}`,
    entityType: 'user',
    entityId: id,
    metadata: { companyId: target.companyId },
  });
  return { id };
}
