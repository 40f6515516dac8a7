import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { RoleKind } from '#shared/enums.ts';
import { ROLE_TEMPLATES } from '#shared/permissions.ts';
import { RoleCreateSchema, RolePatchSchema } from '#shared/schemas/rbac.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
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

/** The five template roles (ids 1-5) every company relies on: never deleted, their kind never changes. */
const TEMPLATE_ROLE_IDS: ReadonlySet<number> = new Set(Object.values(ROLE_TEMPLATES).map((t) => t.id));

export function listPermissions(db: Db) {
  return db
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
    .all();
}

/** Every permission id must exist (400 naming the unknown ones). */
function assertPermissionIds(db: Db, ids: readonly number[]): void {
  if (!ids.length) return;
  const known = new Set(
    db
      .select({ id: permissions.id })
      .from(permissions)
      .where(inArray(permissions.id, [...ids]))
      .all()
      .map((r) => r.id),
  );
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    throw badRequest(`Unknown permission id(s): ${unknown.join(', ')}`, {
      permissions: 'Unknown permission id',
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

export function listRoles(db: Db, user: SessionUser): RoleView[] {
  const rows = db.select().from(roles).where(visibleRolesWhere(user)).orderBy(asc(roles.id)).all();
  const perms = permissionIdsByRole(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => roleView(r, perms.get(r.id) ?? []));
}

function findRole(db: Db, id: number): RoleRow {
  const row = db.select().from(roles).where(eq(roles.id, id)).get();
  if (!row) throw notFound('Role');
  return row;
}

function replaceRolePermissions(db: Db, roleId: number, ids: readonly number[]): void {
  db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId)).run();
  if (ids.length) {
    db.insert(rolePermissions)
      .values(ids.map((permissionId) => ({ roleId, permissionId })))
      .run();
  }
}

/** Parses a route's `:id` for the integer-keyed roles; anything else is simply not found. */
export function roleIdParam(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('Role');
  return id;
}

export function createRole(ctx: MutationContext, input: unknown): RoleView {
  requirePermission(ctx, 'platform:admin');
  const data = validateAdminBody(RoleCreateSchema, input);
  if (data.company_id !== null) assertCompanyExists(ctx.db, data.company_id);
  assertPermissionIds(ctx.db, data.permissions);
  const row = ctx.db
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
    .get();
  replaceRolePermissions(ctx.db, row.id, data.permissions);
  recordActivity(ctx, {
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

export function updateRole(ctx: MutationContext, id: number, input: unknown): RoleView {
  requirePermission(ctx, 'platform:admin');
  const patch = validateAdminBody(RolePatchSchema, input);
  const current = findRole(ctx.db, id);
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
      assertCompanyExists(ctx.db, patch.company_id);
      const outside = ctx.db
        .select({ n: sql<number>`count(*)` })
        .from(users)
        .where(and(eq(users.roleId, id), ne(users.companyId, patch.company_id)))
        .get();
      if (outside && outside.n > 0) throw conflict('Users of other companies still hold this role');
    }
  }
  if (patch.permissions !== undefined) {
    assertPermissionIds(ctx.db, patch.permissions);
    const names = permissionNames(ctx.db, patch.permissions);
    // Taking platform:admin away from the root role, or from the caller's own role, would lock root out.
    const kind = patch.kind ?? current.kind;
    if ((kind === 'root' || ctx.user.roleId === id) && !names.has('platform:admin')) {
      throw badRequest('The Platform Administrator role must keep platform:admin', {
        permissions: 'platform:admin is required for this role',
      });
    }
  }
  const set: Partial<typeof roles.$inferInsert> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description ?? null;
  if (patch.company_id !== undefined) set.companyId = patch.company_id;
  if (patch.is_template !== undefined) set.isTemplate = patch.is_template;
  if (patch.kind !== undefined) set.kind = patch.kind;
  const row = Object.keys(set).length
    ? (ctx.db.update(roles).set(set).where(eq(roles.id, id)).returning().get() ?? current)
    : current;
  if (patch.permissions !== undefined) replaceRolePermissions(ctx.db, id, patch.permissions);
  // users.role mirrors the role's kind (subcontractor scoping, session lifetime): keep holders in step.
  if (patch.kind !== undefined && patch.kind !== current.kind) {
    ctx.db
      .update(users)
      .set({ role: patch.kind, updatedAt: nowIso(ctx) })
      .where(eq(users.roleId, id))
      .run();
  }
  recordActivity(ctx, {
    actionType: 'role_updated',
    description: `Updated role ${row.name}`,
    entityType: 'role',
    entityId: String(id),
    metadata: { fields: Object.keys(patch) },
  });
  return roleView(row, permissionIdsByRole(ctx.db, [id]).get(id) ?? []);
}

export function deleteRole(ctx: MutationContext, id: number) {
  requirePermission(ctx, 'platform:admin');
  const role = findRole(ctx.db, id);
  if (TEMPLATE_ROLE_IDS.has(id)) throw conflict('Template roles cannot be deleted');
  const holders = ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(eq(users.roleId, id))
    .get();
  if (holders && holders.n > 0) {
    throw conflict(`This role is still assigned to ${holders.n} user(s). Give them another role first.`);
  }
  ctx.db.delete(roles).where(eq(roles.id, id)).run();
  recordActivity(ctx, {
    actionType: 'role_deleted',
    description: `Deleted role ${role.name}`,
    entityType: 'role',
    entityId: String(id),
  });
  return { id };
}
