import type { PermissionFlags } from '#shared/permissions.ts';
import { isAdmin, type SessionUser } from '#web/lib/session-user.ts';

/**
 * The screens the app serves when signed in (spec 01/02 section 2), each behind the permission flag its
 * menu item uses. The route table, the route guards and the sign-in redirect all read this one list.
 */
export const APP_SCREENS = [
  { path: '/dashboard', flag: 'dashboard' },
  // The full list behind Recent Activity's 'View all' (DECISIONS.md).
  { path: '/activity', flag: 'dashboard' },
  { path: '/projects', flag: 'projects' },
  { path: '/tasks', flag: 'tasks' },
  { path: '/project-health', flag: 'projectHealth' },
  { path: '/schedule', flag: 'schedule' },
  { path: '/photos', flag: 'photos' },
  { path: '/logs', flag: 'logs' },
  { path: '/crew', flag: 'crew' },
  { path: '/subs', flag: 'subs' },
  { path: '/rbac', flag: 'rbacAdmin' },
  { path: '/rbac-admin', flag: 'rbacAdmin' },
] as const satisfies readonly { path: string; flag: keyof PermissionFlags }[];

export type AppScreenPath = (typeof APP_SCREENS)[number]['path'];

/** The query parameter of /login that holds where to go after sign-in. */
export const NEXT_PARAM = 'next';

/** Whether `pathname` is a screen of the signed-in app (a trailing slash is tolerated). */
export function isAppPath(pathname: string): boolean {
  return appScreenPath(pathname) !== null;
}

/** The screen at `pathname` (a trailing slash allowed), or null for any other address. */
export function appScreenPath(pathname: string): AppScreenPath | null {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return APP_SCREENS.find((s) => s.path === p)?.path ?? null;
}

/** The screen a signed-in user sees at `pathname`: '/' is the Dashboard (spec 01 section 2). */
export function signedInScreenAt(pathname: string): AppScreenPath | null {
  return pathname === '/' ? '/dashboard' : appScreenPath(pathname);
}

/** The sign-in address that comes back to `location` (path, query and hash of an app screen) afterwards. */
export function loginPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  const back = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  return `/login?${new URLSearchParams({ [NEXT_PARAM]: back }).toString()}`;
}

const PARSE_BASE = 'https://app.invalid';

/**
 * Where to go after sign-in, read from /login's query string: only a path of this app's own screens on
 * this origin, never another site (no open redirect: `//evil.example`, `https://...`, `/\evil`, or a
 * `javascript:` address all give null).
 */
export function returnPathFrom(search: string): string | null {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(next, PARSE_BASE);
  } catch {
    return null;
  }
  if (url.origin !== PARSE_BASE || !isAppPath(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Whether the user may open the screen behind `flag`: the same flag that shows its menu item, so a typed
 * address opens exactly what the menu offers (RBAC Admin also for admins, as on the mobile menu).
 */
export function canOpenScreen(
  user: Pick<SessionUser, 'permissions' | 'role'>,
  flag: keyof PermissionFlags,
): boolean {
  return user.permissions?.[flag] === true || (flag === 'rbacAdmin' && isAdmin(user));
}
