import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ChangePasswordSchema, LoginSchema } from '#shared/schemas/auth.ts';
import type { RoleKind } from '#shared/enums.ts';
import type { AppEnv } from '../context.ts';
import { HttpError, jsonBody, unauthorized } from '../http.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { eventStreams } from '../sync/events.ts';
import { endSession, readSession, startSession, userPayload } from '../auth/session.ts';

const INVALID = () => new HttpError(401, 'INVALID_CREDENTIALS', 'Invalid credentials');
const rateLimited = (message: string, seconds: number) =>
  new HttpError(429, 'RATE_LIMITED', message, undefined, { 'Retry-After': String(seconds) });

function clientAddress(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

interface LoginRow {
  id: string;
  password: string | null;
  role: RoleKind;
  company_id: string;
  is_active: number;
  company_active: number;
}

export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const deps = c.var.deps;
    const { email, password } = await jsonBody(c, LoginSchema);
    const attempt = deps.loginLimiter.attempt(email, clientAddress(c));
    if (!attempt.allowed)
      throw rateLimited('Too many sign-in attempts. Try again later.', attempt.retryAfter);
    const row = deps.db.$client
      .prepare<[string], LoginRow>(
        `SELECT u.id, u.password, u.role, u.company_id, u.is_active, c.is_active AS company_active
         FROM users u JOIN companies c ON c.id = u.company_id WHERE u.email = ?`,
      )
      .get(email);
    // Unknown emails are verified against a dummy hash so both failures cost the same time.
    const ok = await verifyPassword(row?.password ?? (await dummyPasswordHash()), password);
    // A wrong password keeps its reservation as the counted failure.
    if (!row || !row.password || !ok) throw INVALID();
    attempt.succeed();
    if (!row.is_active || !row.company_active) {
      throw new HttpError(
        403,
        'ACCOUNT_DISABLED',
        'This account is deactivated. Contact your administrator.',
      );
    }
    const user = readSession(
      deps,
      startSession(c, deps, { id: row.id, companyId: row.company_id, role: row.role }),
    );
    if (!user) throw new Error('A new session could not be read back');
    return c.json(userPayload(user));
  })
  .post('/logout', (c) => {
    const user = c.var.user;
    endSession(c, c.var.deps);
    if (user) eventStreams(c.var.deps.db).closeSession(user.sessionId);
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
    const attempt = deps.loginLimiter.attempt(user.email.toLowerCase(), clientAddress(c));
    if (!attempt.allowed)
      throw rateLimited('Too many password attempts. Try again later.', attempt.retryAfter);
    const stored = deps.db.$client
      .prepare<[string], { password: string | null }>('SELECT password FROM users WHERE id = ?')
      .get(user.id);
    if (!stored?.password || !(await verifyPassword(stored.password, body.currentPassword))) {
      throw new HttpError(400, 'INVALID_PASSWORD', 'Current password is incorrect', {
        currentPassword: 'Current password is incorrect',
      });
    }
    attempt.succeed();
    const hashed = await hashPassword(body.newPassword);
    const sqlite = deps.db.$client;
    sqlite
      .transaction(() => {
        sqlite
          .prepare('UPDATE users SET password = ?, must_change_password = 0, updated_at = ? WHERE id = ?')
          .run(hashed, deps.now().toISOString(), user.id);
        // Every session signed in with the old password ends, this one included: the caller carries on
        // under a new token (a token seen before the change is worth nothing after it).
        sqlite.prepare('DELETE FROM sessions WHERE user_id = ?').run(user.id);
        startSession(c, deps, { id: user.id, companyId: user.companyId, role: user.role });
      })
      .immediate();
    eventStreams(deps.db).closeUser(user.id);
    return c.json({ ok: true });
  });
