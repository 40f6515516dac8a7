import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { sessionUser } from './helpers.ts';

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

/** The company's active users, by name; never passwords or hashes. */
function activeUsers(db: Db, user: SessionUser) {
  return db
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
    .all()
    .map((u) => ({ ...u, name: displayName(u) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const userRoutes = new Hono<AppEnv>()
  // Spec 02 section 6: the assignee choices. Everyone active in the company can be assigned.
  .get('/managers', (c) =>
    c.json(activeUsers(c.var.deps.db, sessionUser(c)).map(({ id, name }) => ({ id, name }))),
  )
  .get('/', (c) => c.json(activeUsers(c.var.deps.db, sessionUser(c))));
