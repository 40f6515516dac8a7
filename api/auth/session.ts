import crypto from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { RoleKind } from '#shared/enums.ts';
import { permissionFlags } from '#shared/permissions.ts';
import type { AppDeps, AppEnv, SessionUser } from '../context.ts';

export const SESSION_COOKIE = 'sc_session';
/** Idle sessions are touched at most this often, so reads do not turn into a write per request. */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Field roles keep a long session (a crew phone stays offline for days); admins get a short one. */
export function sessionLifetimes(deps: AppDeps, role: RoleKind): { idleMs: number; absoluteMs: number } {
  const e = deps.env;
  return role === 'admin' || role === 'root'
    ? { idleMs: e.SESSION_TTL_ADMIN_IDLE_MS, absoluteMs: e.SESSION_TTL_ADMIN_ABSOLUTE_MS }
    : { idleMs: e.SESSION_TTL_FIELD_IDLE_MS, absoluteMs: e.SESSION_TTL_FIELD_ABSOLUTE_MS };
}

interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  role: RoleKind;
  role_id: number | null;
  company_id: string;
  company_name: string;
  company_time_zone: string;
  must_change_password: number;
  is_active: number;
  company_active: number;
}

interface SessionRow extends UserRow {
  sid: string;
  sess: string;
  expire: string;
}

function statements(deps: AppDeps) {
  const sqlite = deps.db.$client;
  const userColumns = `u.id, u.email, u.first_name, u.last_name, u.name, u.role, u.role_id, u.company_id,
    c.name AS company_name, c.time_zone AS company_time_zone, u.must_change_password, u.is_active, c.is_active AS company_active`;
  return {
    session: sqlite.prepare<[string], SessionRow>(
      `SELECT s.sid, s.sess, s.expire, ${userColumns}
       FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
       WHERE s.sid = ?`,
    ),
    permissions: sqlite.prepare<[number], { name: string }>(
      `SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = ?`,
    ),
    touch: sqlite.prepare<[string, string]>(`UPDATE sessions SET sess = ? WHERE sid = ?`),
    remove: sqlite.prepare<[string]>(`DELETE FROM sessions WHERE sid = ?`),
    insert: sqlite.prepare<[string, string, string, string]>(
      `INSERT INTO sessions (sid, sess, expire, user_id) VALUES (?, ?, ?, ?)`,
    ),
  };
}

const cache = new WeakMap<AppDeps, ReturnType<typeof statements>>();
function stmts(deps: AppDeps) {
  let s = cache.get(deps);
  if (!s) cache.set(deps, (s = statements(deps)));
  return s;
}

export function permissionsOf(deps: AppDeps, roleId: number | null): Set<string> {
  if (roleId === null) return new Set();
  return new Set(
    stmts(deps)
      .permissions.all(roleId)
      .map((r) => r.name),
  );
}

function toSessionUser(deps: AppDeps, row: UserRow, sid: string): SessionUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    name: row.name,
    role: row.role,
    roleId: row.role_id,
    companyId: row.company_id,
    companyName: row.company_name,
    companyTimeZone: row.company_time_zone,
    mustChangePassword: row.must_change_password === 1,
    permissions: permissionsOf(deps, row.role_id),
    sessionId: sid,
  };
}

/** The signed-in user of this request, or null; expired sessions and deactivated users are removed. */
export function loadSessionUser(c: Context<AppEnv>, deps: AppDeps): SessionUser | null {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? readSession(deps, hashToken(token)) : null;
}

/**
 * The user of a stored session id, or null when it is unknown, expired or its user may not sign in.
 * `touch: false` checks without counting as activity (an open event stream does not keep a session alive).
 */
export function readSession(
  deps: AppDeps,
  sid: string,
  options: { touch?: boolean } = {},
): SessionUser | null {
  const s = stmts(deps);
  const row = s.session.get(sid);
  if (!row) return null;
  const now = deps.now().getTime();
  const sess = JSON.parse(row.sess) as { lastSeenAt: string; idleMs: number };
  const idleEnd = Date.parse(sess.lastSeenAt) + sess.idleMs;
  if (now >= Date.parse(row.expire) || now >= idleEnd || !row.is_active || !row.company_active) {
    s.remove.run(sid);
    return null;
  }
  if (options.touch !== false && now - Date.parse(sess.lastSeenAt) > TOUCH_EVERY_MS) {
    s.touch.run(JSON.stringify({ ...sess, lastSeenAt: new Date(now).toISOString() }), sid);
  }
  return toSessionUser(deps, row, sid);
}

/** Starts a new session (a new token at every sign-in), sets its cookie and returns the stored id. */
export function startSession(
  c: Context<AppEnv>,
  deps: AppDeps,
  user: { id: string; companyId: string; role: RoleKind },
): string {
  const previous = getCookie(c, SESSION_COOKIE);
  if (previous) stmts(deps).remove.run(hashToken(previous));
  const token = crypto.randomBytes(32).toString('base64url');
  const now = deps.now();
  const { idleMs, absoluteMs } = sessionLifetimes(deps, user.role);
  const sess = {
    userId: user.id,
    companyId: user.companyId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    idleMs,
  };
  const sid = hashToken(token);
  stmts(deps).insert.run(
    sid,
    JSON.stringify(sess),
    new Date(now.getTime() + absoluteMs).toISOString(),
    user.id,
  );
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.env.PUBLIC_ORIGIN.startsWith('https:'),
    path: '/',
    maxAge: Math.floor(absoluteMs / 1000),
  });
  return sid;
}

export function endSession(c: Context<AppEnv>, deps: AppDeps): void {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) stmts(deps).remove.run(hashToken(token));
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

export function userPayload(user: SessionUser) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    name: user.name,
    role: user.role,
    roleId: user.roleId,
    companyId: user.companyId,
    companyName: user.companyName,
    companyTimeZone: user.companyTimeZone,
    mustChangePassword: user.mustChangePassword,
    permissions: permissionFlags(user.permissions),
    grants: [...user.permissions].sort(),
  };
}
