import crypto from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { RoleKind } from '#shared/enums.ts';
import { newId, PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { ROLE_TEMPLATES } from '#shared/permissions.ts';
import { companyDomainFromName } from '#shared/rules/company-domain.ts';
import {
  CompanyCreateSchema,
  CompanyPatchSchema,
  RoleCreateSchema,
  RolePatchSchema,
  UserCreateSchema,
  UserPatchSchema,
} from '#shared/schemas/rbac.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { badRequest, conflict, forbidden, HttpError, notFound, validationError } from '../http.ts';
import { nowIso, recordActivity, requirePermission, type MutationContext } from './core.ts';

/**
 * RBAC administration (spec 02 sections 2, 3, 5 and 7 "Access control"; DESIGN.md section 6). Access comes
 * from the role only: "root" is whoever holds `platform:admin`, never an email pattern (DECISIONS.md).
 * Company admins (`rbac:manage`) manage their own company's users; everything of another company answers
 * 404. Responses use the spec's snake_case fields.
 */

const { companies, roles, permissions, rolePermissions, users, sessions } = schema;

/**
 * Validates an admin form body like `validate`, but shows the spec's own sentences as written: 'Please fill
 * in: Email, Role' and 'Company name is required' (spec 02 section 5), not prefixed with a field label.
 */
export function validateAdminBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const error = validationError(result.error);
  const issues = result.error.issues;
  const first = issues.find((i) => i.message.startsWith('Please fill in: ')) ?? issues[0];
  if (first && (first.code === 'custom' || first.message.endsWith(' is required'))) {
    throw new HttpError(400, error.code, first.message, error.fields);
  }
  throw error;
}

export const isRoot = (user: SessionUser) => user.permissions.has('platform:admin');

/** The five template roles (ids 1-5) every company relies on: never deleted, their kind never changes. */
const TEMPLATE_ROLE_IDS: ReadonlySet<number> = new Set(Object.values(ROLE_TEMPLATES).map((t) => t.id));

/**
 * A one-time password for a new user (DECISIONS.md: no shared default password). 18 random bytes give 24
 * base64url characters (144 bits); the admin sees it once and the user must replace it at first sign-in.
 */
export function generateOneTimePassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}

// ================================================================ permissions

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

function permissionIdsByRole(db: Db, roleIds: readonly number[]): Map<number, number[]> {
  const byRole = new Map<number, number[]>(roleIds.map((id) => [id, []]));
  if (!roleIds.length) return byRole;
  const rows = db
    .select()
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, [...roleIds]))
    .orderBy(asc(rolePermissions.permissionId))
    .all();
  for (const r of rows) byRole.get(r.roleId)?.push(r.permissionId);
  return byRole;
}

function permissionNames(db: Db, ids: readonly number[]): Set<string> {
  if (!ids.length) return new Set();
  return new Set(
    db
      .select({ name: permissions.name })
      .from(permissions)
      .where(inArray(permissions.id, [...ids]))
      .all()
      .map((r) => r.name),
  );
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

function assertCompanyExists(db: Db, id: string): void {
  if (!db.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).get()) {
    throw notFound('Company');
  }
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

// ================================================================ users

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
function selectUsers(db: Db, where: SQL | undefined) {
  return db
    .select(userColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .orderBy(asc(companies.name), asc(users.name), asc(users.email))
    .all();
}
export type UserView = ReturnType<typeof selectUsers>[number];

function userView(db: Db, id: string): UserView {
  const row = selectUsers(db, eq(users.id, id))[0];
  if (!row) throw notFound('User');
  return row;
}

/** Root sees every company's users; an admin only its own company's. */
export function listUsers(db: Db, user: SessionUser): UserView[] {
  return selectUsers(db, isRoot(user) ? undefined : eq(users.companyId, user.companyId));
}

/** GET /api/rbac/companies/{id}/users: another company's id is a 404 for a non-root admin. */
export function listCompanyUsers(db: Db, user: SessionUser, companyId: string): UserView[] {
  if (!isRoot(user) && companyId !== user.companyId) throw notFound('Company');
  assertCompanyExists(db, companyId);
  return selectUsers(db, eq(users.companyId, companyId));
}

type UserRow = typeof users.$inferSelect;

/** A user the caller may manage, or 404: another company's user, or a root user for a non-root admin. */
function findManagedUser(ctx: MutationContext, id: string): UserRow {
  const row = ctx.db.select().from(users).where(eq(users.id, id)).get();
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
function grantableRole(ctx: MutationContext, roleId: number, companyId: string): RoleRow {
  const role = ctx.db.select().from(roles).where(eq(roles.id, roleId)).get();
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

function assertEmailFree(db: Db, email: string, exceptUserId?: string): void {
  const taken = db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        or(eq(users.email, email), eq(users.username, email)),
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .get();
  if (taken) throw conflict('A user with this email already exists', 'EMAIL_TAKEN');
}

/**
 * POST /api/rbac/users. `passwordHash` is the argon2 hash of the given or generated password, computed by
 * the caller before the write transaction (hashing is async; mutators are not). The new user must set a
 * password of their own at first sign-in either way: the admin knows this one.
 */
export function createUser(ctx: MutationContext, input: unknown, passwordHash: string): UserView {
  requirePermission(ctx, 'rbac:manage');
  const data = validateAdminBody(UserCreateSchema, input);
  if (!isRoot(ctx.user) && data.company_id !== ctx.user.companyId) {
    throw forbidden('You can only add users to your own company');
  }
  assertCompanyExists(ctx.db, data.company_id);
  const role = grantableRole(ctx, data.role_id, data.company_id);
  assertEmailFree(ctx.db, data.email);
  const id = newId();
  const at = nowIso(ctx);
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
    .run();
  recordActivity(ctx, {
    actionType: 'user_created',
    description: `Added user ${data.first_name} ${data.last_name} as ${role.name}`,
    entityType: 'user',
    entityId: id,
    metadata: { companyId: data.company_id, roleId: role.id },
  });
  return userView(ctx.db, id);
}

/**
 * PATCH /api/rbac/users/{id}: the same fields plus is_active, or only is_active. Users never change
 * company. A new password (hashed by the caller as `passwordHash`) signs the user out elsewhere and must be
 * replaced at next sign-in, unless admins reset their own. Deactivating signs the user out at once. Admins
 * can neither deactivate nor demote themselves.
 */
export function updateUser(
  ctx: MutationContext,
  id: string,
  input: unknown,
  passwordHash?: string,
): UserView {
  requirePermission(ctx, 'rbac:manage');
  const patch = validateAdminBody(UserPatchSchema, input);
  if (patch.password !== undefined && passwordHash === undefined) {
    throw new Error('updateUser: a new password needs its hash');
  }
  const target = findManagedUser(ctx, id);
  const self = target.id === ctx.user.id;
  if (patch.company_id != null && patch.company_id !== target.companyId) {
    throw badRequest('Users cannot change companies', { company_id: 'Users cannot change companies' });
  }
  if (self && patch.is_active === false) throw badRequest('You cannot deactivate your own account');

  const set: Partial<typeof users.$inferInsert> = {};
  if (patch.role_id != null && patch.role_id !== target.roleId) {
    const role = grantableRole(ctx, patch.role_id, target.companyId);
    if (self) {
      const granted = permissionNames(ctx.db, permissionIdsByRole(ctx.db, [role.id]).get(role.id) ?? []);
      const lost = ['rbac:manage', 'platform:admin'].some(
        (k) => ctx.user.permissions.has(k) && !granted.has(k),
      );
      if (lost) throw badRequest('You cannot remove your own administrator access');
    }
    set.roleId = role.id;
    set.role = role.kind;
  }
  if (patch.email != null && patch.email !== target.email) {
    assertEmailFree(ctx.db, patch.email, target.id);
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
    ctx.db.update(users).set(set).where(eq(users.id, id)).run();
  }

  // Sessions are checked on every request, but removing them makes the change final and immediate.
  if (patch.is_active === false) {
    ctx.db.delete(sessions).where(eq(sessions.userId, id)).run();
  } else if (set.password !== undefined) {
    ctx.db
      .delete(sessions)
      .where(and(eq(sessions.userId, id), self ? ne(sessions.sid, ctx.user.sessionId) : undefined))
      .run();
  }

  const changed = Object.keys(patch).filter((k) => k !== 'password' || set.password !== undefined);
  const statusChange = patch.is_active !== undefined && patch.is_active !== target.isActive;
  recordActivity(ctx, {
    actionType: statusChange ? (patch.is_active ? 'user_activated' : 'user_deactivated') : 'user_updated',
    description: `${statusChange ? (patch.is_active ? 'Activated' : 'Deactivated') : 'Updated'} user ${target.name ?? target.email}`,
    entityType: 'user',
    entityId: id,
    metadata: { fields: changed },
  });
  return userView(ctx.db, id);
}

export function deleteUser(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'rbac:manage');
  if (id === ctx.user.id) throw badRequest('You cannot delete your own account');
  const target = findManagedUser(ctx, id);
  // Sessions, notifications and assignments go with the user; authored rows keep a null author.
  ctx.db.delete(users).where(eq(users.id, id)).run();
  recordActivity(ctx, {
    actionType: 'user_deleted',
    description: `Deleted user ${target.name ?? target.email}`,
    entityType: 'user',
    entityId: id,
    metadata: { companyId: target.companyId },
  });
  return { id };
}

// ================================================================ companies

type CompanyRow = typeof companies.$inferSelect;

// Written out in full: inside a subquery drizzle would render the outer column unqualified, as users.id.
const userCount = sql<number>`(SELECT count(*) FROM users AS u WHERE u.company_id = "companies"."id")`;

function companyView(row: CompanyRow, count: number) {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    status: row.status,
    settings: {
      type: row.settings.type ?? (row.id === PLATFORM_COMPANY_ID ? 'platform' : 'customer'),
      subscription_tier: row.settings.subscription_tier ?? row.planType,
    },
    created_at: row.createdAt,
    is_active: row.isActive,
    user_count: count,
  };
}
export type CompanyView = ReturnType<typeof companyView>;

function selectCompanies(db: Db, where: SQL | undefined): CompanyView[] {
  return db
    .select({ company: companies, userCount })
    .from(companies)
    .where(where)
    .orderBy(asc(companies.createdAt), asc(companies.name))
    .all()
    .map((r) => companyView(r.company, Number(r.userCount)));
}

/** Root sees every company (the platform one too); an admin only its own. */
export function listCompanies(db: Db, user: SessionUser): CompanyView[] {
  return selectCompanies(db, isRoot(user) ? undefined : eq(companies.id, user.companyId));
}

function companyViewById(db: Db, id: string): CompanyView {
  const view = selectCompanies(db, eq(companies.id, id))[0];
  if (!view) throw notFound('Company');
  return view;
}

function assertDomainFree(db: Db, domain: string, exceptId?: string): void {
  const taken = db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.domain, domain), exceptId ? ne(companies.id, exceptId) : undefined))
    .get();
  if (taken) throw conflict('A company with this domain already exists', 'DOMAIN_TAKEN');
}

/** Only a suspended company is locked out: its users cannot sign in and their sessions stop working. */
const activeFor = (status: string) => status !== 'suspended';

/** POST /api/companies: a blank domain is generated from the name (shared/rules/company-domain.ts). */
export function createCompany(ctx: MutationContext, input: unknown): CompanyView {
  requirePermission(ctx, 'platform:admin');
  const data = validateAdminBody(CompanyCreateSchema, input);
  const domain = data.domain ?? companyDomainFromName(data.name, ctx.now.getTime());
  assertDomainFree(ctx.db, domain);
  const tier = data.settings.subscription_tier ?? 'basic';
  const id = newId();
  const at = nowIso(ctx);
  ctx.db
    .insert(companies)
    .values({
      id,
      name: data.name,
      domain,
      status: data.status,
      isActive: activeFor(data.status),
      settings: { type: data.settings.type ?? 'customer', subscription_tier: tier },
      planType: tier,
      createdAt: at,
      updatedAt: at,
    })
    .run();
  recordActivity(ctx, {
    actionType: 'company_created',
    description: `Created company ${data.name}`,
    entityType: 'company',
    entityId: id,
  });
  return companyViewById(ctx.db, id);
}

/** PATCH /api/rbac/companies/{id}: settings are merged; a blank domain keeps the current one. */
export function updateCompany(ctx: MutationContext, id: string, input: unknown): CompanyView {
  requirePermission(ctx, 'platform:admin');
  const patch = validateAdminBody(CompanyPatchSchema, input);
  const current = ctx.db.select().from(companies).where(eq(companies.id, id)).get();
  if (!current) throw notFound('Company');
  if (id === PLATFORM_COMPANY_ID && patch.status !== undefined && patch.status !== 'active') {
    throw badRequest('The platform company must stay active', {
      status: 'The platform company must stay active',
    });
  }
  const set: Partial<typeof companies.$inferInsert> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.domain !== undefined && patch.domain !== current.domain) {
    assertDomainFree(ctx.db, patch.domain, id);
    set.domain = patch.domain;
  }
  if (patch.status !== undefined) {
    set.status = patch.status;
    set.isActive = activeFor(patch.status);
  }
  if (patch.settings !== undefined) {
    set.settings = { ...current.settings, ...patch.settings };
    if (patch.settings.subscription_tier) set.planType = patch.settings.subscription_tier;
  }
  if (Object.keys(set).length) {
    set.updatedAt = nowIso(ctx);
    ctx.db.update(companies).set(set).where(eq(companies.id, id)).run();
  }
  recordActivity(ctx, {
    actionType: 'company_updated',
    description: `Updated company ${set.name ?? current.name}`,
    entityType: 'company',
    entityId: id,
    metadata: { fields: Object.keys(patch) },
  });
  return companyViewById(ctx.db, id);
}

/**
 * DELETE /api/companies/{id}: the company and everything of it (users and their sessions, roles,
 * projects and all their data) in the caller's transaction. Every company-owned table references
 * companies ON DELETE CASCADE, so one delete removes it all or, on any failure, nothing.
 */
export function deleteCompany(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'platform:admin');
  if (id === PLATFORM_COMPANY_ID) throw conflict('The platform company cannot be deleted');
  if (id === ctx.user.companyId) throw conflict('You cannot delete your own company');
  const company = companyViewById(ctx.db, id);
  const photoKeys = ctx.db
    .select({ filename: schema.photos.filename, sha256: schema.photos.sha256 })
    .from(schema.photos)
    .where(eq(schema.photos.companyId, id))
    .all()
    .flatMap((p) => (p.sha256 ? [p.filename, p.sha256] : [p.filename]));
  ctx.db.delete(companies).where(eq(companies.id, id)).run();
  recordActivity(ctx, {
    actionType: 'company_deleted',
    description: `Deleted company ${company.name} and all of its data`,
    entityType: 'company',
    entityId: id,
    metadata: { users: company.user_count, domain: company.domain },
  });
  return { id, deleted: { users: company.user_count }, photoKeys: [...new Set(photoKeys)] };
}

/** Of the storage keys a deleted company's photos used, those no remaining photo row refers to. */
export function unreferencedPhotoKeys(db: Db, keys: readonly string[]): string[] {
  if (!keys.length) return [];
  const still = new Set(
    db
      .select({ filename: schema.photos.filename, sha256: schema.photos.sha256 })
      .from(schema.photos)
      .where(or(inArray(schema.photos.filename, [...keys]), inArray(schema.photos.sha256, [...keys])))
      .all()
      .flatMap((p) => [p.filename, p.sha256]),
  );
  return keys.filter((k) => !still.has(k));
}
