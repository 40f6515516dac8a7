import type { Context } from 'hono';
import type { AppEnv, SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import type { Op } from '../db/op.ts';
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
 * Runs a mutator (an Op, ADR 027) in one write transaction with a REST mutation context: IMMEDIATE on
 * SQLite, where it runs straight through; under the company's row lock on PostgreSQL.
 */
export async function mutate<T>(c: Context<AppEnv>, fn: (ctx: MutationContext) => Op<T>): Promise<T> {
  const { database, now } = c.var.deps;
  const user = sessionUser(c);
  const at = now();
  const result = await database.writeTx(user.companyId, (conn) => fn(restContext(conn, user, at)));
  syncNotifier(database).poke(user.companyId); // after the commit: devices listening pull (sync/SPEC.md L10)
  return result;
}

/** Runs a read (an Op) outside a write transaction. */
export function read<T>(c: Context<AppEnv>, op: (conn: Conn) => Op<T>): Promise<T> {
  return c.var.deps.database.read(op);
}
