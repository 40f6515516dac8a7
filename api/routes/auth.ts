import { Hono, type Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ChangePasswordSchema, LoginSchema } from '#shared/schemas/auth.ts';
import type { RoleKind } from '#shared/enums.ts';
import type { AppEnv } from '../context.ts';
import { HttpError, jsonBody, unauthorized } from '../http.ts';
import { forwardedClient } from '../auth/client-address.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { eventStreams } from '../sync/events.ts';
import { endSession, readSession, startSession, userPayload } from '../auth/session.ts';
import type { Conn } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, valueStmt } from '../db/sql.ts';
import { read } from './helpers.ts';

const INVALID = () => new HttpError(401, 'INVALID_CREDENTIALS', 'Invalid credentials');
const rateLimited = (message: string, seconds: number) =>
  new HttpError(429, 'RATE_LIMITED', message, undefined, { 'Retry-After': String(seconds) });

function clientAddress(c: Context<AppEnv>): string {
  let peer: string;
  try {
    peer = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    peer = 'unknown';
  }
  return forwardedClient(peer, c.req.header('x-forwarded-for'), c.var.deps.env.TRUST_PROXY_HOPS);
}

interface LoginRow {
  id: string;
  password: string | null;
  role: RoleKind;
  company_id: string;
  is_active: number;
  company_active: number;
}

const LOGIN_ROW = rowsStmt<LoginRow>(
  `SELECT u.id, u.password, u.role, u.company_id, u.is_active, c.is_active AS company_active
   FROM users u JOIN companies c ON c.id = u.company_id WHERE u.email = ?`,
);
const STORED_PASSWORD = valueStmt<string | null>('SELECT password FROM users WHERE id = ?');
const SET_PASSWORD = rowsStmt(
  'UPDATE users SET password = ?, must_change_password = 0, updated_at = ? WHERE id = ?',
);
const END_USER_SESSIONS = rowsStmt('DELETE FROM sessions WHERE user_id = ?');

/** The account signing in with `email`, with whether it and its company may sign in. */
function* loginRow(c: Conn, email: string): Op<LoginRow | undefined> {
  return yield* io(c.sql.get(LOGIN_ROW, [email]));
}

/** A user's stored password hash: null when it has none, undefined when the user is unknown. */
function* storedPassword(c: Conn, userId: string): Op<string | null | undefined> {
  return yield* io(c.sql.get(STORED_PASSWORD, [userId]));
}

/** Stores a user's new password hash and ends every session of theirs. Call inside a write transaction. */
function* setPassword(c: Conn, userId: string, hashed: string, at: string): Op<void> {
  yield* io(c.sql.run(SET_PASSWORD, [hashed, at, userId]));
  yield* io(c.sql.run(END_USER_SESSIONS, [userId]));
}

export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const deps = c.var.deps;
    const { email, password } = await jsonBody(c, LoginSchema);
    const attempt = await deps.loginLimiter.attempt(email, clientAddress(c));
    if (!attempt.allowed)
      throw rateLimited('Too many sign-in attempts. Try again later.', attempt.retryAfter);
    const row = await read(c, (conn) => loginRow(conn, email));
    // Unknown emails are verified against a dummy hash so both failures cost the same time.
    const ok = await verifyPassword(row?.password ?? (await dummyPasswordHash()), password);
    // A wrong password keeps its reservation as the counted failure.
    if (!row || !row.password || !ok) throw INVALID();
    await attempt.succeed();
    if (!row.is_active || !row.company_active) {
      throw new HttpError(
        403,
        'ACCOUNT_DISABLED',
        'This account is deactivated. Contact your administrator.',
      );
    }
    const user = await readSession(
      deps,
      await startSession(c, deps, { id: row.id, companyId: row.company_id, role: row.role }),
    );
    if (!user) throw new Error('A new session could not be read back');
    return c.json(userPayload(user));
  })
  .post('/logout', async (c) => {
    const user = c.var.user;
    await endSession(c, c.var.deps);
    if (user) eventStreams(c.var.deps.database).closeSession(user.sessionId);
    return c.json({ ok: true });
  })
  .get('/user', (c) => {
    const user = c.var.user;
    if (!user) throw unauthorized();
    return c.json(userPayload(user));
  })
  .post('/change-password', async (c) => {
    const deps = c.var.deps;
    const user = c.var.user;
    if (!user) throw unauthorized();
    const body = await jsonBody(c, ChangePasswordSchema);
    // A guess of the current password is a guess at the account: same budget as sign-in (a stolen session
    // must not guess freely), keyed by the account's email so both routes share it.
    const attempt = await deps.loginLimiter.attempt(user.email.toLowerCase(), clientAddress(c));
    if (!attempt.allowed)
      throw rateLimited('Too many password attempts. Try again later.', attempt.retryAfter);
    const stored = await read(c, (conn) => storedPassword(conn, user.id));
    if (!stored || !(await verifyPassword(stored, body.currentPassword))) {
      throw new HttpError(400, 'INVALID_PASSWORD', 'Current password is incorrect', {
        currentPassword: 'Current password is incorrect',
      });
    }
    await attempt.succeed();
    const hashed = await hashPassword(body.newPassword);
    // Every session signed in with the old password ends, this one included: the caller carries on under
    // a new token (a token seen before the change is worth nothing after it). One write transaction.
    const at = deps.now().toISOString();
    await startSession(c, deps, { id: user.id, companyId: user.companyId, role: user.role }, (conn) =>
      setPassword(conn, user.id, hashed, at),
    );
    eventStreams(deps.database).closeUser(user.id);
    return c.json({ ok: true });
  });
