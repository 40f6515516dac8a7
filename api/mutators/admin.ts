import { inArray, eq, asc } from 'drizzle-orm';
import type { z } from 'zod';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { HttpError, notFound, validationError } from '../http.ts';

/**
 * What the RBAC administration mutators (roles.ts, users.ts, companies.ts; spec 02 sections 2, 3, 5 and 7
 * "Access control"; DESIGN.md section 6) share. Access comes from the role only: "root" is whoever holds
 * `platform:admin`, never an email pattern (DECISIONS.md). Company admins (`rbac:manage`) manage their own
 * company's users; everything of another company answers 404. Responses use the spec's snake_case fields.
 */

const { companies, permissions, rolePermissions } = schema;

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
  // A schema's own full sentence; a fragment ('must not contain ...') gets its field's name in front below.
  const sentence = /^[A-Z]/.test(first?.message ?? '');
  if (first && sentence && (first.code === 'custom' || first.message.endsWith(' is required'))) {
    throw new HttpError(400, error.code, first.message, error.fields);
  }
  throw error;
}

export const isRoot = (user: SessionUser) => user.permissions.has('platform:admin');

export function* permissionIdsByRole(c: Conn, roleIds: readonly number[]): Op<Map<number, number[]>> {
  const byRole = new Map<number, number[]>(roleIds.map((id) => [id, []]));
  if (!roleIds.length) return byRole;
  const rows = yield* io(
    c.db
      .select()
      .from(rolePermissions)
      .where(inArray(rolePermissions.roleId, [...roleIds]))
      .orderBy(asc(rolePermissions.permissionId))
      .all(),
  );
  for (const r of rows) byRole.get(r.roleId)?.push(r.permissionId);
  return byRole;
}

export function* permissionNames(c: Conn, ids: readonly number[]): Op<Set<string>> {
  if (!ids.length) return new Set();
  const rows = yield* io(
    c.db
      .select({ name: permissions.name })
      .from(permissions)
      .where(inArray(permissions.id, [...ids]))
      .all(),
  );
  return new Set(rows.map((r) => r.name));
}

export function* assertCompanyExists(c: Conn, id: string): Op<void> {
  const row = yield* io(c.db.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).get());
  if (!row) throw notFound('Company');
}
