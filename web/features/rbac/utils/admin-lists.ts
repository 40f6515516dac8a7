import { PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import type { AdminCompany, AdminPermission, AdminRole, AdminUser } from '../hooks/use-admin-data.ts';

/** How many permission names a role card shows before '+N more' (spec 02 section 9). */
export const ROLE_CARD_PERMISSIONS = 5;

export interface CompanyGroup {
  companyId: string;
  companyName: string;
  users: AdminUser[];
}

/** The Users tab's sections (spec 02 section 2): one per company, by company name, users by name. */
export function groupUsersByCompany(users: readonly AdminUser[]): CompanyGroup[] {
  const groups = new Map<string, CompanyGroup>();
  for (const user of users) {
    let group = groups.get(user.company_id);
    if (!group) {
      group = { companyId: user.company_id, companyName: user.company_name, users: [] };
      groups.set(user.company_id, group);
    }
    group.users.push(user);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });
  for (const group of groups.values()) {
    group.users.sort((a, b) => byName(a.name ?? a.email, b.name ?? b.email));
  }
  return [...groups.values()].sort((a, b) => byName(a.companyName, b.companyName));
}

/** 'Sam Lee' or, for a user with no name, the email. */
export const userDisplayName = (user: Pick<AdminUser, 'name' | 'email'>) => user.name?.trim() || user.email;

export interface RolePermissionSummary {
  count: number;
  shown: string[];
  /** How many more the '+N more' badge stands for (0: no badge). */
  more: number;
}

/** A role card's permission badges: the count, the first five names, and '+N more' (spec 02 section 2). */
export function rolePermissionSummary(
  role: Pick<AdminRole, 'permissions'>,
  permissionsById: ReadonlyMap<number, AdminPermission>,
): RolePermissionSummary {
  const names = role.permissions.map((id) => permissionsById.get(id)?.name ?? `#${id}`);
  const shown = names.slice(0, ROLE_CARD_PERMISSIONS);
  return { count: names.length, shown, more: names.length - shown.length };
}

/** Spec 02 section 6: a platform role reads '(Platform)', any other '(Standard)'. */
export const roleScopeLabel = (role: Pick<AdminRole, 'company_id'>) =>
  role.company_id === PLATFORM_COMPANY_ID ? '(Platform)' : '(Standard)';

/** A role as the role choices show it: 'Crew Member (Standard)'. */
export const roleLabel = (role: Pick<AdminRole, 'name' | 'company_id'>) =>
  `${role.name} ${roleScopeLabel(role)}`;

/**
 * The roles a user of `companyId` may be given: templates and that company's own roles. The Platform
 * Administrator role only for the platform company's users, and never offered to a non-root admin
 * (spec 02 section 5; the server refuses it too).
 */
export function grantableRoles(
  roles: readonly AdminRole[],
  companyId: string,
  callerIsRoot: boolean,
): AdminRole[] {
  return roles.filter((r) => {
    if (r.kind === 'root') return callerIsRoot && companyId === PLATFORM_COMPANY_ID;
    return r.company_id === null || r.company_id === companyId;
  });
}

export interface PermissionCategory {
  category: string;
  permissions: AdminPermission[];
}

/** The catalogue grouped by category, categories in the catalogue's own order. */
export function permissionsByCategory(permissions: readonly AdminPermission[]): PermissionCategory[] {
  const groups = new Map<string, AdminPermission[]>();
  for (const p of permissions) {
    const list = groups.get(p.category) ?? [];
    list.push(p);
    groups.set(p.category, list);
  }
  return [...groups].map(([category, list]) => ({ category, permissions: list }));
}

/** The Companies tab with 'Only show companies with users' on or off. */
export function visibleCompanies(companies: readonly AdminCompany[], onlyWithUsers: boolean): AdminCompany[] {
  return onlyWithUsers ? companies.filter((c) => c.user_count > 0) : [...companies];
}

/** 'professional' -> 'Professional' (the spec's value lists are lowercase words). */
export const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
