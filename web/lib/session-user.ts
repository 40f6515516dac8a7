import type { PermissionFlags } from '#shared/permissions.ts';
import type { RoleKind } from '#shared/enums.ts';
import { zoneOrDefault } from '#shared/rules/time-zone.ts';

/** The body of GET /api/auth/user (api/auth/session.ts `userPayload`). */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  role: RoleKind;
  roleId: number | null;
  companyId: string;
  companyName: string | null;
  /** The company's IANA time zone: what "today" means on this device (shared/rules/dates.ts). */
  companyTimeZone: string;
  mustChangePassword: boolean;
  permissions: PermissionFlags;
  grants: string[];
}

/** The signed-in user, possibly the remembered copy used while the server cannot be reached. */
export interface CurrentUser extends SessionUser {
  /** True when this is the remembered user of a cold start without network. */
  offline?: boolean;
}

/** localStorage key of the last signed-in user, for a cold start with no network (DESIGN.md section 12). */
export const LAST_USER_KEY = 'sitecommand:last-user';

const FIELDS = [
  'id',
  'email',
  'firstName',
  'lastName',
  'name',
  'role',
  'roleId',
  'companyId',
  'companyName',
  'companyTimeZone',
  'mustChangePassword',
  'permissions',
  'grants',
] as const;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function rememberUser(user: SessionUser): void {
  const picked: Record<string, unknown> = {};
  for (const k of FIELDS) picked[k] = user[k];
  try {
    storage()?.setItem(LAST_USER_KEY, JSON.stringify(picked));
  } catch {
    // storage full or denied: the offline cold start is then unavailable, nothing else breaks
  }
}

/** The remembered user as stored, if it has the fields a session needs; its zone not yet checked. */
function readRemembered(): Partial<SessionUser> | null {
  try {
    const raw = storage()?.getItem(LAST_USER_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SessionUser>;
    if (typeof parsed.id !== 'string' || typeof parsed.companyId !== 'string' || !parsed.permissions)
      return null;
    return parsed;
  } catch {
    return null;
  }
}

/**
 * Whether this device remembers a signed-in user. Cheaper than `rememberedUser()`, for the page's start:
 * checking the remembered zone builds the first `Intl.DateTimeFormat` of the page, which loads the
 * browser's locale data (about 15 ms, 60 ms on a phone-class core) before the first paint.
 */
export function hasRememberedUser(): boolean {
  return readRemembered() !== null;
}

export function rememberedUser(): SessionUser | null {
  const parsed = readRemembered();
  if (!parsed) return null;
  // A user remembered before companies had zones reads as UTC until the server answers again.
  return { ...parsed, companyTimeZone: zoneOrDefault(parsed.companyTimeZone) } as SessionUser;
}

/**
 * The id of the user this browser is signed in as, as the last sign-in or session check of any of its
 * tabs wrote it; null when none is (signed out). Shared by every tab, unlike a tab's own session state.
 */
export function rememberedUserId(): string | null {
  return readRemembered()?.id ?? null;
}

export function forgetUser(): void {
  try {
    storage()?.removeItem(LAST_USER_KEY);
  } catch {
    // ignore
  }
}

/** Initials of a user: first letters of first and last name, else of the name or email. */
export function initialsOf(user: Pick<SessionUser, 'firstName' | 'lastName' | 'name' | 'email'>): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first || last) return `${first?.[0] ?? ''}${last?.[0] ?? ''}`.toUpperCase();
  const parts = (user.name ?? user.email ?? '').trim().split(/\s+/).filter(Boolean);
  return parts
    .slice(0, 2)
    .map((p) => p[0])
    .join('')
    .toUpperCase();
}

/** The first name, else the name, else the email. */
export function displayFirstName(user: Pick<SessionUser, 'firstName' | 'name' | 'email'>): string {
  return user.firstName?.trim() || user.name?.trim() || user.email;
}

/** Spec 02 section 2: the mobile menu shows RBAC Admin only to admins (company or platform). */
export function isAdmin(user: Pick<SessionUser, 'role'>): boolean {
  return user.role === 'admin' || user.role === 'root';
}
