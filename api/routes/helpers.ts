import type { Context } from 'hono';
import type { AppEnv, SessionUser } from '../context.ts';
import { writeTx } from '../db/index.ts';
import { unauthorized } from '../http.ts';
import { restContext, type MutationContext } from '../mutators/core.ts';
import { syncNotifier } from '../sync/events.ts';

/** The signed-in user; the permission middleware has already refused anonymous callers. */
export function sessionUser(c: Context<AppEnv>): SessionUser {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}

/** Runs a mutator in one IMMEDIATE write transaction with a REST mutation context. */
export function mutate<T>(c: Context<AppEnv>, fn: (ctx: MutationContext) => T): T {
  const { db, now } = c.var.deps;
  const ctx = restContext(db, sessionUser(c), now());
  const result = writeTx(db, () => fn(ctx));
  syncNotifier(db).poke(ctx.user.companyId); // after the commit: devices listening pull (sync/SPEC.md L10)
  return result;
}
