import crypto from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { RoleKind } from '#shared/enums.ts';
import { kindMayHold, permissionFlags } from '#shared/permissions.ts';
import { SIGNED_OUT_COOKIE } from '#shared/sign-out.ts';
import type { AppDeps, AppEnv, SessionUser } from '../context.ts';
import type { Conn, Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, valueStmt } from '../db/sql.ts';

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

export interface UserRow {
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

export interface SessionRow extends UserRow {
  sid: string;
  sess: string;
  expire: string;
}

const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, u.name, u.role, u.role_id, u.company_id,
    c.name AS company_name, c.time_zone AS company_time_zone, u.must_change_password, u.is_active, c.is_active AS company_active`;

// Plain SQL constants, prepared once per connection (`sqliteConn`): the session lookup runs on every request.
const SESSION = rowsStmt<SessionRow>(
  `SELECT s.sid, s.sess, s.expire, ${USER_COLUMNS}
   FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
   WHERE s.sid = ?`,
);
const PERMISSIONS = valueStmt<string>(
  `SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = ?`,
);
const TOUCH = rowsStmt(`UPDATE sessions SET sess = ? WHERE sid = ?`);
const REMOVE = rowsStmt(`DELETE FROM sessions WHERE sid = ?`);
const INSERT = rowsStmt(`INSERT INTO sessions (sid, sess, expire, user_id) VALUES (?, ?, ?, ?)`);

/**
 * Sessions one user may hold at once (a phone, a tablet and a desktop, each signed in again now and then):
 * a sign-in beyond it ends that user's sessions that expire first. Without a cap every sign-in added a row
 * for as long as the session could live (30 days for field roles), however often it came.
 */
export const MAX_SESSIONS_PER_USER = 20;
const TRIM = rowsStmt(
  `DELETE FROM sessions WHERE user_id = ? AND sid NOT IN
     (SELECT sid FROM sessions WHERE user_id = ? ORDER BY expire DESC, sid DESC LIMIT ${MAX_SESSIONS_PER_USER})`,
);
const PURGE_EXPIRED = rowsStmt('DELETE FROM sessions WHERE expire < ?');

/**
 * Deletes the sessions past their absolute expiry; their number. A dead session was removed only when its
 * token came back, which most never do. Run by the server's hourly retention pass (`startSyncRetention`,
 * started in api/serve.ts).
 */
export function purgeExpiredSessions(database: Database, now: Date): Promise<number> {
  return database.writeTx(null, (c) => io(c.sql.run(PURGE_EXPIRED, [now.toISOString()])));
}

/**
 * The names of the permissions a user of role `roleId`, of kind `kind` (users.role), holds: none without a
 * role, and never one its kind may not hold (`kindMayHold`), whatever a role row lists.
 */
export function* rolePermissions(c: Conn, roleId: number | null, kind: string): Op<Set<string>> {
  if (roleId === null) return new Set();
  const names = yield* io(c.sql.all(PERMISSIONS, [roleId]));
  return new Set(names.filter((name) => kindMayHold(kind, name)));
}

export function permissionsOf(deps: AppDeps, roleId: number | null, kind: string): Promise<Set<string>> {
  return deps.database.read((c) => rolePermissions(c, roleId, kind));
}

/** A stored session with its user and company, or undefined. */
export function* sessionRow(c: Conn, sid: string): Op<SessionRow | undefined> {
  return yield* io(c.sql.get(SESSION, [sid]));
}

/** Removes a stored session (unknown ids are ignored). Call inside a write transaction. */
export function* removeSession(c: Conn, sid: string): Op<void> {
  yield* io(c.sql.run(REMOVE, [sid]));
}

/** Stores a session's new state (its last activity). Call inside a write transaction. */
export function* touchSession(c: Conn, sid: string, sess: string): Op<void> {
  yield* io(c.sql.run(TOUCH, [sess, sid]));
}

/**
 * Stores a new session, removing the caller's previous one (`previousSid`) first. Call inside a write
 * transaction.
 */
export function* insertSession(
  c: Conn,
  session: { sid: string; sess: string; expire: string; userId: string; previousSid: string | null },
): Op<void> {
  if (session.previousSid !== null) yield* removeSession(c, session.previousSid);
  yield* io(c.sql.run(INSERT, [session.sid, session.sess, session.expire, session.userId]));
  yield* io(c.sql.run(TRIM, [session.userId, session.userId]));
}

function toSessionUser(row: UserRow, sid: string, permissions: Set<string>): SessionUser {
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
    permissions,
    sessionId: sid,
  };
}

/**
 * The signed-in user of this request, or null; expired sessions and deactivated users are removed. A
 * request carrying `SIGNED_OUT_COOKIE` comes from a device whose user signed out without reaching the
 * server: its session ends here, and both cookies are deleted.
 */
export async function loadSessionUser(c: Context<AppEnv>, deps: AppDeps): Promise<SessionUser | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (getCookie(c, SIGNED_OUT_COOKIE) !== undefined) {
    if (token) await deps.database.writeTx(null, (conn) => removeSession(conn, hashToken(token)));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    deleteCookie(c, SIGNED_OUT_COOKIE, { path: '/' });
    return null;
  }
  return token ? readSession(deps, hashToken(token)) : null;
}

/**
 * The user of a stored session id, or null when it is unknown, expired or its user may not sign in.
 * `touch: false` checks without counting as activity (an open event stream does not keep a session alive).
 * Its writes (removing a dead session, touching a live one) are each a write transaction of their own.
 */
export async function readSession(
  deps: AppDeps,
  sid: string,
  options: { touch?: boolean } = {},
): Promise<SessionUser | null> {
  const { database } = deps;
  const found = await database.read(function* (c) {
    const row = yield* sessionRow(c, sid);
    return row && { row, permissions: yield* rolePermissions(c, row.role_id, row.role) };
  });
  if (!found) return null;
  const { row, permissions } = found;
  const now = deps.now().getTime();
  const sess = JSON.parse(row.sess) as { lastSeenAt: string; idleMs: number };
  const idleEnd = Date.parse(sess.lastSeenAt) + sess.idleMs;
  if (now >= Date.parse(row.expire) || now >= idleEnd || !row.is_active || !row.company_active) {
    await database.writeTx(null, (c) => removeSession(c, sid));
    return null;
  }
  if (options.touch !== false && now - Date.parse(sess.lastSeenAt) > TOUCH_EVERY_MS) {
    const touched = JSON.stringify({ ...sess, lastSeenAt: new Date(now).toISOString() });
    await database.writeTx(null, (c) => touchSession(c, sid, touched));
  }
  return toSessionUser(row, sid, permissions);
}

/**
 * Starts a new session (a new token at every sign-in), sets its cookie and returns the stored id. `first`
 * runs in the same write transaction, before it (a password change ends the old sessions there).
 */
export async function startSession(
  c: Context<AppEnv>,
  deps: AppDeps,
  user: { id: string; companyId: string; role: RoleKind },
  first?: (conn: Conn) => Op<void>,
): Promise<string> {
  const previous = getCookie(c, SESSION_COOKIE);
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
  const session = {
    sid,
    sess: JSON.stringify(sess),
    expire: new Date(now.getTime() + absoluteMs).toISOString(),
    userId: user.id,
    previousSid: previous ? hashToken(previous) : null,
  };
  await deps.database.writeTx(null, function* (conn) {
    if (first) yield* first(conn);
    yield* insertSession(conn, session);
  });
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.env.PUBLIC_ORIGIN.startsWith('https:'),
    path: '/',
    maxAge: Math.floor(absoluteMs / 1000),
  });
  return sid;
}

export async function endSession(c: Context<AppEnv>, deps: AppDeps): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await deps.database.writeTx(null, (conn) => removeSession(conn, hashToken(token)));
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
