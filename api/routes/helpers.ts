import type { Context } from 'hono';
import type { AppEnv, SessionUser } from '../context.ts';
import { connOf, type Conn } from '../db/database.ts';
import { writeTx } from '../db/index.ts';
import { runSync, type Op } from '../db/op.ts';
import { unauthorized } from '../http.ts';
import { restContext, type MutationContext } from '../mutators/core.ts';
import { syncNotifier } from '../sync/events.ts';

/** The signed-in user; the permission middleware has already refused anonymous callers. */
export function sessionUser(c: Context<AppEnv>): SessionUser {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}

/**
 * Runs a mutator (an Op, ADR 027) in one IMMEDIATE write transaction with a REST mutation context; on SQLite
 * it runs straight through, inside the transaction.
 */
export function mutate<T>(c: Context<AppEnv>, fn: (ctx: MutationContext) => Op<T>): T {
  const { db, now } = c.var.deps;
  const ctx = restContext(db, sessionUser(c), now());
  const result = writeTx(db, () => runSync(fn(ctx)));
  syncNotifier(db).poke(ctx.user.companyId); // after the commit: devices listening pull (sync/SPEC.md L10)
  return result;
}

/** Runs a read (an Op) on the app's database connection, outside a write transaction. */
export function read<T>(c: Context<AppEnv>, op: (conn: Conn) => Op<T>): T {
  return runSync(op(connOf(c.var.deps.db)));
}
