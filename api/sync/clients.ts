import type { SessionUser } from '../context.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, type SqlConn } from '../db/sql.ts';
import { HttpError } from '../http.ts';

export interface SyncClient {
  userId: string;
  companyId: string;
  lastMutationId: number;
  scopeHash: string | null;
  /** When the client last pushed, or pulled (refreshed at most once a day, SPEC R5). */
  lastSeenAt: string;
}

/**
 * Devices that never pushed one user keeps at most (SPEC R6): a pull with a new client id made a row each
 * time, bounded only by R5's 90 days. Forgetting one costs that device a fresh download (L9), never a change.
 */
export const MAX_IDLE_CLIENTS_PER_USER = 20;

export const clientStatements = {
  get: rowsStmt<SyncClient>(
    `SELECT user_id AS "userId", company_id AS "companyId", last_mutation_id AS "lastMutationId",
       scope_hash AS "scopeHash", last_seen_at AS "lastSeenAt" FROM sync_clients WHERE client_id = ?`,
  ),
  insert: rowsStmt(
    `INSERT INTO sync_clients (client_id, user_id, company_id, last_mutation_id, created_at, last_seen_at)
     VALUES (?, ?, ?, 0, ?, ?)`,
  ),
  setScope: rowsStmt('UPDATE sync_clients SET scope_hash = ?, last_seen_at = ? WHERE client_id = ?'),
  seen: rowsStmt('UPDATE sync_clients SET last_seen_at = ? WHERE client_id = ?'),
  trimIdle: rowsStmt(
    `DELETE FROM sync_clients WHERE user_id = ? AND last_mutation_id = 0 AND client_id NOT IN
       (SELECT client_id FROM sync_clients WHERE user_id = ? AND last_mutation_id = 0
        ORDER BY last_seen_at DESC, client_id DESC LIMIT ${MAX_IDLE_CLIENTS_PER_USER})`,
  ),
};

export const clientBound = () =>
  new HttpError(403, 'CLIENT_BOUND', 'This device id belongs to another account; sign in again to sync');

/** The client's row if it belongs to the caller, undefined if unknown, 403 if it belongs to someone else. */
export function* findClient(c: SqlConn, user: SessionUser, clientId: string): Op<SyncClient | undefined> {
  const client = yield* io(c.get(clientStatements.get, [clientId]));
  if (client && (client.userId !== user.id || client.companyId !== user.companyId)) throw clientBound();
  return client;
}

/**
 * SPEC P5: the first push or pull with a client id binds it to the signed-in user and company; a client id
 * bound to anyone else is refused, so one account can never read or advance another's queue.
 * Call inside a write transaction.
 */
export function* bindClient(c: SqlConn, user: SessionUser, clientId: string, at: string): Op<SyncClient> {
  const existing = yield* findClient(c, user, clientId);
  if (existing) return existing;
  yield* io(c.run(clientStatements.insert, [clientId, user.id, user.companyId, at, at]));
  yield* io(c.run(clientStatements.trimIdle, [user.id, user.id]));
  return { userId: user.id, companyId: user.companyId, lastMutationId: 0, scopeHash: null, lastSeenAt: at };
}
