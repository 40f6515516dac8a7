import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { RoleKind } from '#shared/enums.ts';
import { kindMayHold, PLATFORM_ADMIN, TEMPLATE_ROLE_IDS } from '#shared/permissions.ts';
import { RoleCreateSchema, RolePatchSchema, roleScopeError } from '#shared/schemas/rbac.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { badRequest, conflict, notFound } from '../http.ts';
import {
  assertCompanyExists,
  isRoot,
  permissionIdsByRole,
  permissionNames,
  validateAdminBody,
} from './admin.ts';
import { nowIso, recordActivity, requirePermission, type MutationContext } from './core.ts';

/** Roles and the permission catalogue (spec 02 section 7): only root (`platform:admin`) changes them. */

const { roles, permissions, rolePermissions, users } = schema;

export function* listPermissions(c: Conn) {
  return yield* io(
    c.db
      .select({
        id: permissions.id,
        name: permissions.name,
        description: permissions.description,
        category: permissions.category,
        resource_type: permissions.resourceType,
        action: permissions.action,
      })
      .from(permissions)
      .orderBy(asc(permissions.id))
      .all(),
  );
}

/** Every permission id must exist (400 naming the unknown ones). */
function* assertPermissionIds(c: Conn, ids: readonly number[]): Op<void> {
  if (!ids.length) return;
  const rows = yield* io(
    c.db
      .select({ id: permissions.id })
      .from(permissions)
      .where(inArray(permissions.id, [...ids]))
      .all(),
  );
  const known = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    throw badRequest(`Unknown permission id(s): ${unknown.join(', ')}`, {
      permissions: 'Unknown permission id',
    });
  }
}

/** 400 when a role of `kind` would list a permission its kind may not hold (`kindMayHold`). */
function assertKindMayHold(kind: RoleKind, names: ReadonlySet<string>): void {
  const refused = [...names].filter((name) => !kindMayHold(kind, name));
  if (refused.length) {
    throw badRequest(`Only the Platform Administrator role can hold ${refused.join(', ')}`, {
      permissions: `${refused.join(', ')} is only for the Platform Administrator role`,
    });
  }
}

// ================================================================ roles

type RoleRow = typeof roles.$inferSelect;

function roleView(row: RoleRow, permissionIds: number[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    company_id: row.companyId,
    is_template: row.isTemplate,
    permissions: permissionIds,
    kind: row.kind as RoleKind,
  };
}
export type RoleView = ReturnType<typeof roleView>;

/** Roles a caller may see: root all; an admin the templates and its own company's, never a root role. */
function visibleRolesWhere(user: SessionUser): SQL | undefined {
  if (isRoot(user)) return undefined;
  return and(or(isNull(roles.companyId), eq(roles.companyId, user.companyId)), ne(roles.kind, 'root'));
}

export function* listRoles(c: Conn, user: SessionUser): Op<RoleView[]> {
  const rows = yield* io(
    c.db.select().from(roles).where(visibleRolesWhere(user)).orderBy(asc(roles.id)).all(),
  );
  const perms = yield* permissionIdsByRole(
    c,
    rows.map((r) => r.id),
  );
  return rows.map((r) => roleView(r, perms.get(r.id) ?? []));
}

function* findRole(c: Conn, id: number): Op<RoleRow> {
  const row = yield* io(c.db.select().from(roles).where(eq(roles.id, id)).get());
  if (!row) throw notFound('Role');
  return row;
}

function* replaceRolePermissions(c: Conn, roleId: number, ids: readonly number[]): Op<void> {
  yield* io(c.db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId)).run());
  if (ids.length) {
    yield* io(
      c.db
        .insert(rolePermissions)
        .values(ids.map((permissionId) => ({ roleId, permissionId })))
        .run(),
    );
  }
}

/** Parses a route's `:id` for the integer-keyed roles; anything else is simply not found. */
export function roleIdParam(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('Role');
  return id;
}

export function* createRole(ctx: MutationContext, input: unknown): Op<RoleView> {
  requirePermission(ctx, 'platform:admin');
  const data = validateAdminBody(RoleCreateSchema, input);
  if (data.company_id !== null) yield* assertCompanyExists(ctx, data.company_id);
  yield* assertPermissionIds(ctx, data.permissions);
  assertKindMayHold(data.kind, yield* permissionNames(ctx, data.permissions));
  const row = yield* io(
    ctx.db
      .insert(roles)
      .values({
        name: data.name,
        description: data.description ?? null,
        companyId: data.company_id,
        isTemplate: data.is_template,
        kind: data.kind,
        createdAt: nowIso(ctx),
      })
      .returning()
      .get(),
  );
  yield* replaceRolePermissions(ctx, row.id, data.permissions);
  yield* recordActivity(ctx, {
    actionType: 'role_created',
    description: `Created role ${row.name}`,
    entityType: 'role',
    entityId: String(row.id),
  });
  return roleView(
    row,
    [...data.permissions].sort((a, b) => a - b),
  );
}

export function* updateRole(ctx: MutationContext, id: number, input: unknown): Op<RoleView> {
  requirePermission(ctx, 'platform:admin');
  const patch = validateAdminBody(RolePatchSchema, input);
  const current = yield* findRole(ctx, id);
  const isTemplateRole = TEMPLATE_ROLE_IDS.has(id);
  if (isTemplateRole && patch.kind !== undefined && patch.kind !== current.kind) {
    throw badRequest('The kind of a template role cannot change', { kind: 'Template roles keep their kind' });
  }
  if (isTemplateRole && patch.company_id !== undefined && patch.company_id !== current.companyId) {
    throw badRequest('A template role cannot move to another company', {
      company_id: 'Template roles keep their company',
    });
  }
  if (patch.company_id !== undefined && patch.company_id !== current.companyId) {
    if (patch.company_id !== null) {
      yield* assertCompanyExists(ctx, patch.company_id);
      const outside = yield* io(
        ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(and(eq(users.roleId, id), ne(users.companyId, patch.company_id)))
          .get(),
      );
      if (outside && outside.n > 0) throw conflict('Users of other companies still hold this role');
    }
  }
  const kind = (patch.kind ?? current.kind) as RoleKind;
  // What the role will be, not only the fields sent: ticking Template on a company's role is refused too.
  const scope = roleScopeError({
    company_id: patch.company_id !== undefined ? patch.company_id : current.companyId,
    is_template: patch.is_template ?? current.isTemplate,
    kind,
  });
  if (scope) throw badRequest(scope.message, { [scope.field]: scope.message });
  if (patch.permissions !== undefined) {
    yield* assertPermissionIds(ctx, patch.permissions);
    const names = yield* permissionNames(ctx, patch.permissions);
    // Taking platform:admin away from the root role, or from the caller's own role, would lock root out.
    if ((kind === 'root' || ctx.user.roleId === id) && !names.has(PLATFORM_ADMIN)) {
      throw badRequest('The Platform Administrator role must keep platform:admin', {
        permissions: 'platform:admin is required for this role',
      });
    }
    assertKindMayHold(kind, names);
  } else if (patch.kind !== undefined) {
    // A new kind must fit the permissions the role keeps.
    assertKindMayHold(
      kind,
      yield* permissionNames(ctx, (yield* permissionIdsByRole(ctx, [id])).get(id) ?? []),
    );
  }
  const set: Partial<typeof roles.$inferInsert> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description ?? null;
  if (patch.company_id !== undefined) set.companyId = patch.company_id;
  if (patch.is_template !== undefined) set.isTemplate = patch.is_template;
  if (patch.kind !== undefined) set.kind = patch.kind;
  const row = Object.keys(set).length
    ? ((yield* io(ctx.db.update(roles).set(set).where(eq(roles.id, id)).returning().get())) ?? current)
    : current;
  if (patch.permissions !== undefined) yield* replaceRolePermissions(ctx, id, patch.permissions);
  // users.role mirrors the role's kind (subcontractor scoping, session lifetime): keep holders in step.
  if (patch.kind !== undefined && patch.kind !== current.kind) {
    yield* io(
      ctx.db
        .update(users)
        .set({ role: patch.kind, updatedAt: nowIso(ctx) })
        .where(eq(users.roleId, id))
        .run(),
    );
  }
  yield* recordActivity(ctx, {
    actionType: 'role_updated',
    description: `Updated role ${row.name}`,
    entityType: 'role',
    entityId: String(id),
    metadata: { fields: Object.keys(patch) },
  });
  return roleView(row, (yield* permissionIdsByRole(ctx, [id])).get(id) ?? []);
}

export function* deleteRole(ctx: MutationContext, id: number): Op<{ id: number }> {
  requirePermission(ctx, 'platform:admin');
  const role = yield* findRole(ctx, id);
  if (TEMPLATE_ROLE_IDS.has(id)) throw conflict('Template roles cannot be deleted');
  const holders = yield* io(
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(eq(users.roleId, id))
      .get(),
  );
  if (holders && holders.n > 0) {
    throw conflict(`This role is still assigned to ${holders.n} user(s). Give them another role first.`);
  }
  yield* io(ctx.db.delete(roles).where(eq(roles.id, id)).run());
  yield* recordActivity(ctx, {
    actionType: 'role_deleted',
    description: `Deleted role ${role.name}`,
    entityType: 'role',
    entityId: String(id),
  });
  return { id };
}
