import { PushRequestSchema } from '#shared/push-schemas.ts';
import {
  MIN_SCHEMA_VERSION,
  SCHEMA_VERSION,
  type MutationResult,
  type PushResponse,
} from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import { HttpError, parseWith } from '../http.ts';
import { isBusy, type Conn, type Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, savepoint, valueStmt } from '../db/sql.ts';
import { mutationContext, WriteBatch, type MutationContext } from '../mutators/core.ts';
import { bulkInsert } from '../db/bulk-insert.ts';
import { applyMutation } from './apply.ts';
import { bindClient } from './clients.ts';
import { syncNotifier } from './events.ts';
import { clampClientTime } from './lww.ts';

/** A push answer other than 200 that carries fields beyond `{message, code}` (SPEC P2, P4). */
export type PushRefusal =
  | { status: 426; body: { message: string; code: 'SCHEMA_TOO_OLD'; minSchemaVersion: number } }
  | { status: 409; body: { message: string; code: 'OUT_OF_ORDER'; expectedMutationId: number } };

export type PushAnswer = { status: 200; body: PushResponse } | PushRefusal;

export const unavailable = () =>
  new HttpError(503, 'SYNC_UNAVAILABLE', 'The server is busy; try again shortly', undefined, {
    'Retry-After': '1',
  });

const S = {
  stored: valueStmt<string>('SELECT result FROM sync_mutations WHERE client_id = ? AND mutation_id = ?'),
  acknowledge: rowsStmt('DELETE FROM sync_mutations WHERE client_id = ? AND mutation_id < ?'),
  store: bulkInsert<[string, number, string, string]>(
    'INSERT INTO sync_mutations (client_id, mutation_id, result, created_at)',
    4,
  ),
  advance: rowsStmt('UPDATE sync_clients SET last_mutation_id = ?, last_seen_at = ? WHERE client_id = ?'),
  lastVersion: valueStmt<number>('SELECT last_version FROM companies WHERE id = ?'),
};

/** Reads the schema version before the body's shape: an old client may not speak the current one (P2). */
export function checkSchemaVersion(body: unknown): PushRefusal | undefined {
  const version =
    typeof body === 'object' && body !== null
      ? (body as { schemaVersion?: unknown }).schemaVersion
      : undefined;
  if (typeof version !== 'number' || !Number.isInteger(version)) return undefined;
  if (version < MIN_SCHEMA_VERSION) {
    return {
      status: 426,
      body: {
        message: 'This app is too old to sync; reload it to update',
        code: 'SCHEMA_TOO_OLD',
        minSchemaVersion: MIN_SCHEMA_VERSION,
      },
    };
  }
  if (version > SCHEMA_VERSION) {
    throw new HttpError(400, 'SCHEMA_UNKNOWN', `The server speaks sync schema ${SCHEMA_VERSION} at most`);
  }
  return undefined;
}

/**
 * SPEC P14: no device can have pulled a version the company has not reached yet. A base version above it is
 * a claim to have seen edits that do not exist, which would win every field under W1 (a).
 */
function checkBaseVersion(m: { baseVersion: number | null }, lastVersion: number): void {
  if (m.baseVersion !== null && m.baseVersion > lastVersion) {
    throw new HttpError(
      400,
      'BASE_VERSION_AHEAD',
      `The base version ${m.baseVersion} is ahead of the server (${lastVersion}); pull and try again`,
    );
  }
}

/**
 * SPEC R2: a replay whose stored result is gone. The server knows it processed the mutation, not how; a
 * rejection keeps it in front of the user (C5) and rebuilds the device's row from server state (C11),
 * where an invented `applied` could leave a change on the device the server never took.
 */
const resultExpired = (id: number): MutationResult => ({
  id,
  status: 'rejected',
  code: 'RESULT_EXPIRED',
  message: 'This change was received long ago and its outcome is no longer known; check the item',
});

/**
 * A stored result (SPEC P3) in its compact form (ADR 020): a plain `applied` is its version alone, anything
 * else the whole result. Rows stored before (whole results, id included) still read back as they were.
 */
const storedForm = (r: MutationResult): string =>
  r.status === 'applied' && r.version !== undefined && r.code === undefined && r.conflicts === undefined
    ? String(r.version)
    : JSON.stringify(r);

function fromStored(id: number, text: string): MutationResult {
  const value = JSON.parse(text) as number | MutationResult;
  return typeof value === 'number' ? { id, status: 'applied', version: value } : { ...value, id };
}

/** New mutations per savepoint while none is rejected (see `applyNew` in `push`). */
const SAVEPOINT_GROUP = 16;

const isPermanent = (err: unknown): err is HttpError =>
  err instanceof HttpError && err.status >= 400 && err.status < 500;

/**
 * POST /api/sync/push (sync/SPEC.md P1-P13): validates the batch, then applies its new mutations in one
 * IMMEDIATE transaction, each in its own savepoint, through the REST mutators, storing every result and
 * advancing the client's last mutation id in the same transaction. On SQLite the transaction runs straight
 * through, from its start to its commit; on PostgreSQL under the company's row lock (ADR 027).
 */
export async function push(
  database: Database,
  user: SessionUser,
  body: unknown,
  now: Date,
): Promise<PushAnswer> {
  const refusal = checkSchemaVersion(body);
  if (refusal) return refusal;
  const request = parseWith(PushRequestSchema, body);
  let answer: PushAnswer;
  try {
    answer = await database.writeTx(user.companyId, (conn) => pushBatch(conn, user, request, now));
  } catch (err) {
    if (err instanceof HttpError) throw err; // 403 CLIENT_BOUND
    if (!isBusy(err)) console.error(`sync push failed: ${err instanceof Error ? err.message : String(err)}`);
    throw unavailable();
  }
  if (answer.status === 200 && answer.body.results.length > 0) syncNotifier(database).poke(user.companyId);
  return answer;
}

export type PushRequest = ReturnType<typeof PushRequestSchema.parse>;
type Pushed = PushRequest['mutations'][number];

/** The push transaction's body, everything between BEGIN and COMMIT: an Op, so it runs on either database. */
export function* pushBatch(conn: Conn, user: SessionUser, request: PushRequest, now: Date): Op<PushAnswer> {
  const { sql } = conn;
  const at = now.toISOString();
  const contextOf = (m: Pushed, batch: WriteBatch): MutationContext =>
    mutationContext({
      db: conn.db,
      sql: conn.sql,
      user,
      now,
      clientId: request.clientId,
      clientTime: clampClientTime(m.clientTime, now),
      batch,
    });
  function* applyOne(m: Pushed, batch: WriteBatch): Op<MutationResult> {
    checkBaseVersion(m, batch.lastVersion);
    return yield* applyMutation(contextOf(m, batch), m);
  }
  /**
   * New mutations in groups of SAVEPOINT_GROUP under one savepoint each; a rejection inside a group rolls
   * the group back and runs it again one savepoint per mutation, the one that answers the rejection (P8).
   * A group where everything applies, what devices send, pays 2 statements instead of 2 per mutation; a
   * group holding a rejection runs twice (ADR 020, round 4).
   */
  function* applyNew(pending: readonly Pushed[], batch: WriteBatch): Op<MutationResult[]> {
    const results: MutationResult[] = [];
    for (let start = 0; start < pending.length; start += SAVEPOINT_GROUP) {
      const group = pending.slice(start, start + SAVEPOINT_GROUP);
      const mark = batch.mark();
      try {
        const applied = yield* savepoint(sql, function* () {
          const out: MutationResult[] = [];
          for (const m of group) out.push(yield* applyOne(m, batch));
          return out;
        });
        results.push(...applied);
        continue;
      } catch (err) {
        batch.rollback(mark);
        if (!isPermanent(err)) throw err; // P9: the whole batch rolls back
      }
      for (const m of group) {
        const one = batch.mark();
        try {
          results.push(yield* savepoint(sql, () => applyOne(m, batch)));
        } catch (err) {
          batch.rollback(one);
          if (!isPermanent(err)) throw err;
          results.push({ id: m.id, status: 'rejected', code: err.code, message: err.message });
        }
      }
    }
    return results;
  }
  const client = yield* bindClient(sql, user, request.clientId, at);
  const last = client.lastMutationId;
  // P4: new ids continue last + 1 without gaps; checked for the whole batch before anything runs.
  let expected = last + 1;
  let previous = 0;
  for (const m of request.mutations) {
    if (m.id <= previous || (m.id > last && m.id !== expected)) {
      return {
        status: 409,
        body: {
          message: 'Mutations must be sent in order',
          code: 'OUT_OF_ORDER',
          expectedMutationId: expected,
        },
      } satisfies PushRefusal;
    }
    previous = m.id;
    if (m.id === expected) expected++;
  }
  // R1: the device sends its queue oldest first and drops what was answered, so everything below the
  // batch's first id has reached it and will never be replayed, unless it says it has stored less: a
  // device that stores answers behind its sends replays those it had not stored when it was cut off.
  if (request.mutations.length > 0) {
    const first = request.mutations[0]!.id;
    const below = request.acknowledged === undefined ? first : Math.min(first, request.acknowledged + 1);
    yield* io(sql.run(S.acknowledge, [request.clientId, below]));
  }
  const results: MutationResult[] = [];
  // Ids are ascending (checked above): the replays come first, then the new mutations.
  const pending: Pushed[] = [];
  for (const m of request.mutations) {
    if (m.id > last) {
      pending.push(m);
      continue;
    }
    // P3: the stored answer of the first application, never a second application.
    const stored = yield* io(sql.get(S.stored, [request.clientId, m.id]));
    results.push(stored !== undefined ? fromStored(m.id, stored) : resultExpired(m.id));
  }
  let lastMutationId = last;
  if (pending.length > 0) {
    // Versions are counted in memory and the counter, activities and results written once (ADR 020).
    const lastVersion = yield* io(sql.get(S.lastVersion, [user.companyId]));
    const batch = new WriteBatch(user.companyId, lastVersion ?? 0);
    const applied = yield* applyNew(pending, batch);
    yield* batch.flush(sql);
    yield* S.store(
      sql,
      applied.map((r) => [request.clientId, r.id, storedForm(r), at]),
    );
    results.push(...applied);
    lastMutationId = pending[pending.length - 1]!.id;
  }
  yield* io(sql.run(S.advance, [lastMutationId, at, request.clientId]));
  return { status: 200, body: { lastMutationId, results } } satisfies PushAnswer;
}
