import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { newId, PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { companyDomainFromName } from '#shared/rules/company-domain.ts';
import { CompanyCreateSchema, CompanyPatchSchema } from '#shared/schemas/rbac.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { badRequest, conflict, forbidden, notFound } from '../http.ts';
import { isRoot, validateAdminBody } from './admin.ts';
import { nowIso, recordActivity, requirePermission, type MutationContext } from './core.ts';

/** Companies (spec 02 sections 5 and 7): root manages every company; an admin sees only its own. */

const { companies } = schema;

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
    time_zone: row.timeZone,
    created_at: row.createdAt,
    is_active: row.isActive,
    user_count: count,
  };
}
export type CompanyView = ReturnType<typeof companyView>;

function* selectCompanies(c: Conn, where: SQL | undefined): Op<CompanyView[]> {
  const rows = yield* io(
    c.db
      .select({ company: companies, userCount })
      .from(companies)
      .where(where)
      .orderBy(asc(companies.createdAt), asc(companies.name))
      .all(),
  );
  return rows.map((r) => companyView(r.company, Number(r.userCount)));
}

/** Root sees every company (the platform one too); an admin only its own. */
export function* listCompanies(c: Conn, user: SessionUser): Op<CompanyView[]> {
  return yield* selectCompanies(c, isRoot(user) ? undefined : eq(companies.id, user.companyId));
}

function* companyViewById(c: Conn, id: string): Op<CompanyView> {
  const view = (yield* selectCompanies(c, eq(companies.id, id)))[0];
  if (!view) throw notFound('Company');
  return view;
}

function* assertDomainFree(c: Conn, domain: string, exceptId?: string): Op<void> {
  const taken = yield* io(
    c.db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.domain, domain), exceptId ? ne(companies.id, exceptId) : undefined))
      .get(),
  );
  if (taken) throw conflict('A company with this domain already exists', 'DOMAIN_TAKEN');
}

/** Only a suspended company is locked out: its users cannot sign in and their sessions stop working. */
const activeFor = (status: string) => status !== 'suspended';

/** POST /api/companies: a blank domain is generated from the name (shared/rules/company-domain.ts). */
export function* createCompany(ctx: MutationContext, input: unknown): Op<CompanyView> {
  requirePermission(ctx, 'platform:admin');
  const data = validateAdminBody(CompanyCreateSchema, input);
  const domain = data.domain ?? companyDomainFromName(data.name, ctx.now.getTime());
  yield* assertDomainFree(ctx, domain);
  const tier = data.settings.subscription_tier ?? 'basic';
  const id = newId();
  const at = nowIso(ctx);
  yield* io(
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
        timeZone: data.time_zone,
        createdAt: at,
        updatedAt: at,
      })
      .run(),
  );
  yield* recordActivity(ctx, {
    actionType: 'company_created',
    description: `Created company ${data.name}`,
    entityType: 'company',
    entityId: id,
  });
  return yield* companyViewById(ctx, id);
}

/**
 * PATCH /api/rbac/companies/{id}: settings are merged; a blank domain keeps the current one. Root changes
 * anything of any company; a company's admin changes only its own company's time zone (DECISIONS.md).
 */
export function* updateCompany(ctx: MutationContext, id: string, input: unknown): Op<CompanyView> {
  const root = isRoot(ctx.user);
  if (!root) {
    requirePermission(ctx, 'rbac:manage');
    if (id !== ctx.user.companyId) throw notFound('Company');
  }
  const patch = validateAdminBody(CompanyPatchSchema, input);
  if (!root) {
    const others = Object.entries(patch).filter(([k, v]) => k !== 'time_zone' && v !== undefined);
    if (others.length) throw forbidden('Only a platform administrator can change this company’s details');
  }
  const current = yield* io(ctx.db.select().from(companies).where(eq(companies.id, id)).get());
  if (!current) throw notFound('Company');
  if (id === PLATFORM_COMPANY_ID && patch.status !== undefined && patch.status !== 'active') {
    throw badRequest('The platform company must stay active', {
      status: 'The platform company must stay active',
    });
  }
  const set: Partial<typeof companies.$inferInsert> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.domain !== undefined && patch.domain !== current.domain) {
    yield* assertDomainFree(ctx, patch.domain, id);
    set.domain = patch.domain;
  }
  if (patch.status !== undefined) {
    set.status = patch.status;
    set.isActive = activeFor(patch.status);
  }
  if (patch.time_zone !== undefined) set.timeZone = patch.time_zone;
  if (patch.settings !== undefined) {
    set.settings = { ...current.settings, ...patch.settings };
    if (patch.settings.subscription_tier) set.planType = patch.settings.subscription_tier;
  }
  if (Object.keys(set).length) {
    set.updatedAt = nowIso(ctx);
    yield* io(ctx.db.update(companies).set(set).where(eq(companies.id, id)).run());
  }
  yield* recordActivity(ctx, {
    actionType: 'company_updated',
    description: `Updated company ${set.name ?? current.name}`,
    entityType: 'company',
    entityId: id,
    metadata: { fields: Object.keys(patch) },
  });
  return yield* companyViewById(ctx, id);
}

/**
 * DELETE /api/companies/{id}: the company and everything of it (users and their sessions, roles,
 * projects and all their data) in the caller's transaction. Every company-owned table references
 * companies ON DELETE CASCADE, so one delete removes it all or, on any failure, nothing.
 */
export function* deleteCompany(
  ctx: MutationContext,
  id: string,
): Op<{ id: string; deleted: { users: number }; photoKeys: string[] }> {
  requirePermission(ctx, 'platform:admin');
  if (id === PLATFORM_COMPANY_ID) throw conflict('The platform company cannot be deleted');
  if (id === ctx.user.companyId) throw conflict('You cannot delete your own company');
  const company = yield* companyViewById(ctx, id);
  const photoKeys = (yield* io(
    ctx.db
      .select({ filename: schema.photos.filename, sha256: schema.photos.sha256 })
      .from(schema.photos)
      .where(eq(schema.photos.companyId, id))
      .all(),
  )).flatMap((p) => (p.sha256 ? [p.filename, p.sha256] : [p.filename]));
  yield* io(ctx.db.delete(companies).where(eq(companies.id, id)).run());
  yield* recordActivity(ctx, {
    actionType: 'company_deleted',
    description: `Deleted company ${company.name} and all of its data`,
    entityType: 'company',
    entityId: id,
    metadata: { users: company.user_count, domain: company.domain },
  });
  return { id, deleted: { users: company.user_count }, photoKeys: [...new Set(photoKeys)] };
}

/** Of the storage keys a deleted company's photos used, those no remaining photo row refers to. */
export function* unreferencedPhotoKeys(c: Conn, keys: readonly string[]): Op<string[]> {
  if (!keys.length) return [];
  const rows = yield* io(
    c.db
      .select({ filename: schema.photos.filename, sha256: schema.photos.sha256 })
      .from(schema.photos)
      .where(or(inArray(schema.photos.filename, [...keys]), inArray(schema.photos.sha256, [...keys])))
      .all(),
  );
  const still = new Set(rows.flatMap((p) => [p.filename, p.sha256]));
  return keys.filter((k) => !still.has(k));
}
