import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { seesColleagueEmails } from '../db/scope.ts';
import { read, sessionUser } from './helpers.ts';
import { pageOfArray, pageRequest, sendPage } from './paging.ts';

const { users } = schema;

/** The name shown for a user: its name, else first plus last name, else its email. */
export function displayName(u: {
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
}) {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return u.name || full || u.email;
}

/**
 * The company's active users, by name; never passwords or hashes. Crew and subcontractors read their
 * colleagues' names only, as on their devices (one rule: `seesColleagueEmails`, sync/SPEC.md L12).
 */
function* activeUsers(c: Conn, user: SessionUser) {
  const emails = seesColleagueEmails(user);
  const rows = yield* io(
    c.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: users.role,
      })
      .from(users)
      .where(and(eq(users.companyId, user.companyId), eq(users.isActive, true)))
      .all(),
  );
  return rows
    .map((u) => {
      const email = emails || u.id === user.id ? u.email : null;
      return { ...u, email, name: displayName({ ...u, email: email ?? 'Team member' }) };
    })
    .sort((a, b) => byNameThenId(keyOf(a), keyOf(b)));
}

const keyOf = (u: { name: string; id: string }) => [u.name, u.id];
/** The directory's order: by name, the id breaking ties (so pages never overlap). */
function byNameThenId(a: unknown[], b: unknown[]): number {
  const [an, ai] = a as [string, string];
  const [bn, bi] = b as [string, string];
  return an.localeCompare(bn) || (ai < bi ? -1 : ai > bi ? 1 : 0);
}

type DirectoryUser = ReturnType<typeof activeUsers> extends Op<(infer U)[]> ? U : never;

/** The directory, paged like every list (README "API"); it is small, so it is paged in memory. */
async function directoryPage<T>(c: Context<AppEnv>, present: (u: DirectoryUser) => T) {
  const page = pageRequest(c);
  const user = sessionUser(c);
  const rows = pageOfArray(page, await read(c, (conn) => activeUsers(conn, user)), keyOf, byNameThenId);
  return sendPage(c, page, rows, keyOf, present);
}

export const userRoutes = new Hono<AppEnv>()
  // Spec 02 section 6: the assignee choices. Everyone active in the company can be assigned.
  .get('/managers', (c) => directoryPage(c, ({ id, name }) => ({ id, name })))
  .get('/', (c) => directoryPage(c, (u) => u));
