import { and, eq, notInArray } from 'drizzle-orm';
import { ROLE_KINDS } from '#shared/enums.ts';
import { PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { PERMISSIONS, ROLE_TEMPLATES } from '#shared/permissions.ts';
import type { Conn } from '../database.ts';
import { connOf } from '../database.ts';
import { writeTx, type Db } from '../index.ts';
import { io, runSync, type Op } from '../op.ts';
import { valueStmt } from '../sql.ts';
import { companies, permissions, rolePermissions, roles } from '../schema/index.ts';

/*
 * Written directly, not through the mutators: the platform company, the permission catalogue and the
 * template roles are what the mutators' own checks stand on (createCompany and createRole need a root
 * user, who needs the platform company and the root role first), and the upsert must repair drift in
 * place on every start, which no create mutator does.
 */

/** Upserts the permission catalogue and the five template roles; safe to run on every start. */
export function seedRbac(db: Db): void {
  writeTx(db, () => applyRbac(db));
}

export function applyRbac(db: Db): void {
  runSync(upsertRbac(connOf(db)));
}

// The template roles have fixed keys; PostgreSQL's identity sequence must hand out keys above them.
const PG_ROLE_KEYS_ABOVE = valueStmt<number>(
  `SELECT setval(pg_get_serial_sequence('roles', 'id'), GREATEST((SELECT max(id) FROM roles), 1))`,
);

/** `seedRbac`'s upserts, on either database (ADR 027); call inside a write transaction. */
export function* upsertRbac({ db, sql }: Conn): Op<void> {
  yield* io(
    db
      .insert(companies)
      .values({
        id: PLATFORM_COMPANY_ID,
        name: 'SiteCommand Platform',
        domain: 'sitecommand.test',
        settings: { type: 'platform', subscription_tier: 'enterprise' },
        planType: 'enterprise',
      })
      .onConflictDoNothing({ target: companies.id })
      .run(),
  );

  for (const p of PERMISSIONS) {
    const cut = p.key.indexOf(':');
    const row = {
      name: p.key,
      resourceType: p.key.slice(0, cut),
      action: p.key.slice(cut + 1),
      category: p.category,
      description: p.description,
    };
    yield* io(
      db.insert(permissions).values(row).onConflictDoUpdate({ target: permissions.name, set: row }).run(),
    );
  }

  for (const kind of ROLE_KINDS) {
    const t = ROLE_TEMPLATES[kind];
    const row = {
      id: t.id,
      name: t.name,
      description: t.description,
      companyId: kind === 'root' ? PLATFORM_COMPANY_ID : null,
      isTemplate: true,
      kind,
    };
    yield* io(db.insert(roles).values(row).onConflictDoUpdate({ target: roles.id, set: row }).run());
  }
  if (sql.dialect === 'postgres') yield* io(sql.get(PG_ROLE_KEYS_ABOVE));

  const known = yield* io(db.select({ id: permissions.id, name: permissions.name }).from(permissions).all());
  const permissionIds = new Map(known.map((p) => [p.name, p.id]));
  for (const kind of ROLE_KINDS) {
    const t = ROLE_TEMPLATES[kind];
    const wanted = t.permissions.map((key) => {
      const id = permissionIds.get(key);
      if (id === undefined) throw new Error(`Permission ${key} missing after upsert`);
      return id;
    });
    yield* io(
      db
        .delete(rolePermissions)
        .where(and(eq(rolePermissions.roleId, t.id), notInArray(rolePermissions.permissionId, wanted)))
        .run(),
    );
    yield* io(
      db
        .insert(rolePermissions)
        .values(wanted.map((permissionId) => ({ roleId: t.id, permissionId })))
        .onConflictDoNothing()
        .run(),
    );
  }
}
