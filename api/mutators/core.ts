import type { z } from 'zod';
import { newId } from '#shared/ids.ts';
import type { AnyDb, Conn } from '../db/database.ts';
import type { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import type { SqlConn } from '../db/sql.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import type { SessionUser } from '../context.ts';
import { forbidden, notFound, parseWith } from '../http.ts';
import { getRow, statements, type ActivityValues, type Scoped } from './statements.ts';

/**
 * Everything a mutator needs. REST handlers and sync push build one of these and call the same mutator
 * functions, so every rule lives in one place (DESIGN.md section 7). Mutators are Ops (ADR 027) and run
 * inside the caller's write transaction (`writeTx`): synchronously on SQLite.
 */
export interface MutationContext {
  /** The query builder of the transaction's connection. */
  db: AnyDb;
  /** Plain SQL on the same connection. */
  sql: SqlConn;
  user: SessionUser;
  now: Date;
  /** The device that made the change (sync) or 'server' (REST). */
  clientId: string;
  /** When the change was made on that device, epoch ms, already clamped by the caller. */
  clientTime: number;
  /** Set by sync push: the batch's version counter and activity rows, written once per batch (budget B2). */
  batch?: WriteBatch;
  /** Rows the caller has read in this transaction, for `lookupVisible` (see `withVisibleRows`). */
  primed?: Map<Scoped<unknown>, { id: string; userId: string; row: unknown }>;
  /** An id the caller has just read to be free in a table, for `idTaken` (see `withNewId`). */
  knownFree?: { table: string; id: string };
}

/**
 * What a push batch writes once instead of once per mutation (ADR 020): the company's version counter,
 * allocated in memory from the value read at the batch's start (the IMMEDIATE transaction keeps every other
 * writer out until the commit), and the activity rows. A mutation whose savepoint rolls back gives both back
 * through `mark`/`rollback`, so versions stay gap-free and a rejected mutation leaves no activity.
 */
export class WriteBatch {
  readonly activities: ActivityValues[] = [];

  lastVersion: number;

  constructor(
    readonly companyId: string,
    /** The counter as read at the batch's start. */
    private readonly readVersion: number,
  ) {
    this.lastVersion = readVersion;
  }

  mark(): { lastVersion: number; activities: number } {
    return { lastVersion: this.lastVersion, activities: this.activities.length };
  }

  rollback(mark: { lastVersion: number; activities: number }): void {
    this.lastVersion = mark.lastVersion;
    this.activities.length = mark.activities;
  }

  /** Writes the counter and the activities; call once, at the end of the batch's transaction. */
  *flush(c: SqlConn): Op<void> {
    const s = statements;
    if (this.lastVersion !== this.readVersion) {
      yield* io(c.run(s.setLastVersion, [this.lastVersion, this.companyId]));
    }
    yield* s.insertActivities(c, this.activities);
    this.activities.length = 0;
  }
}

/**
 * A mutation context with every field, always in the same order: every context then has one shape, so the
 * mutators' reads of it stay monomorphic (a context grown field by field, or spread, costs the push path a
 * fifth of its time in polymorphic lookups).
 */
export function mutationContext(
  c: Pick<MutationContext, 'db' | 'sql' | 'user' | 'now' | 'clientId' | 'clientTime'> & {
    batch?: WriteBatch;
  },
): MutationContext {
  return {
    db: c.db,
    sql: c.sql,
    user: c.user,
    now: c.now,
    clientId: c.clientId,
    clientTime: c.clientTime,
    batch: c.batch,
    primed: undefined,
    knownFree: undefined,
  };
}

/** A REST mutation in the transaction of `conn`. */
export function restContext(conn: Conn, user: SessionUser, now: Date): MutationContext {
  return mutationContext({
    db: conn.db,
    sql: conn.sql,
    user,
    now,
    clientId: 'server',
    clientTime: now.getTime(),
  });
}

export const nowIso = (ctx: MutationContext) => ctx.now.toISOString();

/** How far back a device's time is trusted to date a change (sync/SPEC.md W18). */
export const OCCURRED_WINDOW_MS = 90 * 24 * 3600_000;

/**
 * When the user made the change, for the dates people read on a record (its `createdAt`, a task's
 * `completedAt`, a decision's time): its device's corrected time (sync/SPEC.md W18), so a diary written
 * offline on Monday and sent on Wednesday says Monday. Never later than the server's clock, nor more than
 * OCCURRED_WINDOW_MS before it (a device clock that jumped back). A REST write happens now.
 */
export function occurredIso(ctx: MutationContext): string {
  const now = ctx.now.getTime();
  return new Date(Math.min(now, Math.max(ctx.clientTime, now - OCCURRED_WINDOW_MS))).toISOString();
}

/** Validates a mutator's input with its shared zod schema (strict: unknown keys are a 400). */
export const validate = parseWith;

export function requirePermission(ctx: MutationContext, key: string, message?: string): void {
  if (!ctx.user.permissions.has(key)) throw forbidden(message);
}

/** Bumps the company's sync version inside the current transaction and returns the new value. */
export function* nextVersion(ctx: MutationContext): Op<number> {
  if (ctx.batch) return ++ctx.batch.lastVersion;
  const version = yield* io(ctx.sql.get(statements.nextVersion, [ctx.user.companyId]));
  if (version === undefined) throw new Error(`Company ${ctx.user.companyId} is missing`);
  return version;
}

/** Sync columns for a write of `fields` (field -> [version, clientTime, clientId]). */
export function stampFields(
  ctx: MutationContext,
  version: number,
  fields: readonly string[],
  previous: Record<string, [number, number, string]> = {},
) {
  const fieldMeta = { ...previous };
  for (const f of fields) fieldMeta[f] = [version, ctx.clientTime, ctx.clientId];
  return { version, fieldMeta, updatedAt: nowIso(ctx), updatedBy: ctx.user.id };
}

export function* recordActivity(
  ctx: MutationContext,
  activity: {
    actionType: string;
    description: string;
    entityType?: string;
    entityId?: string;
    metadata?: Record<string, unknown>;
  },
): Op<void> {
  const values: ActivityValues = [
    newId(),
    ctx.user.id,
    ctx.user.companyId,
    activity.actionType,
    activity.description,
    activity.entityType ?? null,
    activity.entityId ?? null,
    activity.metadata === undefined || activity.metadata === null ? null : JSON.stringify(activity.metadata),
    // When it reached the server: a row's History orders its activities with its replaced values, which
    // are stamped on arrival too (W18 dates the row itself by the device).
    nowIso(ctx),
  ];
  if (ctx.batch) ctx.batch.activities.push(values);
  else yield* io(ctx.sql.run(statements.insertActivity, values));
}

export function* notify(
  ctx: MutationContext,
  n: {
    userId: string;
    title: string;
    message: string;
    type?: string;
    relatedEntityType?: string;
    relatedEntityId?: string;
  },
): Op<void> {
  yield* io(
    ctx.sql.run(statements.insertNotification, [
      newId(),
      n.userId,
      ctx.user.companyId,
      n.title,
      n.message,
      n.type ?? 'info',
      n.relatedEntityType ?? null,
      n.relatedEntityId ?? null,
      nowIso(ctx),
    ]),
  );
}

/**
 * Marks read every unread notification about a record: once a request is decided, nobody is left to act on
 * "Change order to review" or "Schedule change requested", and an approver who did not decide it was left
 * with an unread call to act on something already done. Call before notifying the decision.
 */
export function* settleNotificationsAbout(ctx: MutationContext, type: string, id: string): Op<void> {
  yield* io(ctx.sql.run(statements.readNotificationsAbout, [ctx.user.companyId, type, id]));
}

/** Users of the caller's company holding a permission (e.g. who approves schedule changes). */
export function* usersWithPermission(ctx: MutationContext, permission: string): Op<string[]> {
  return yield* io(ctx.sql.all(statements.usersWithPermission, [ctx.user.companyId, permission]));
}

/** What a visibility lookup reads through: a connection, with the rows a push has already read (if any). */
export interface Visibility {
  sql: SqlConn;
  primed?: MutationContext['primed'];
}

/**
 * Runs a prepared visibility lookup (`statements.ts`) for the row with this id: the variant scoped to the
 * user's assignments for a subcontractor, the company-wide one for everyone else.
 */
export function* lookupVisible<R>(
  c: Visibility,
  lookup: Scoped<R>,
  user: SessionUser,
  id: string,
): Op<R | undefined> {
  const held = c.primed?.get(lookup);
  if (held && held.id === id && held.userId === user.id) {
    // Used once: a later lookup in the same mutation may follow a write and must read the row again.
    c.primed!.delete(lookup);
    return held.row as R;
  }
  const stmt = isScopedToAssignments(user) ? lookup.assigned : lookup.company;
  return yield* getRow(c.sql, stmt, { id, company: user.companyId, user: user.id });
}

/**
 * Runs `body` with rows the caller has just read in this transaction and found visible to `user` (sync push
 * reads each mutation's row once, with its visibility, for the field decision: ADR 020). The first
 * `lookupVisible` of such a row in `body` answers from it instead of reading it again; whatever `body` did
 * not use is dropped when it returns.
 */
export function* withVisibleRows<T>(
  ctx: MutationContext,
  rows: readonly { lookup: Scoped<unknown>; id: string; row: unknown }[],
  body: () => Op<T>,
): Op<T> {
  ctx.primed = new Map(rows.map((r) => [r.lookup, { id: r.id, userId: ctx.user.id, row: r.row }]));
  try {
    return yield* body();
  } finally {
    ctx.primed = undefined;
  }
}

/**
 * Runs `body` knowing that no row of `table` has this id: the caller has just read so in this transaction
 * (sync push reads a create's id for SPEC W8). The first `idTaken` of that id in `body` answers from it
 * instead of reading again.
 */
export function* withNewId<T>(
  ctx: MutationContext,
  table: MirroredTable | string,
  id: string,
  body: () => Op<T>,
): Op<T> {
  ctx.knownFree = { table, id };
  try {
    return yield* body();
  } finally {
    ctx.knownFree = undefined;
  }
}

/** Whether any row of the table (any company, live or tombstoned) has this id: a create's id must be new. */
export function* idTaken(ctx: MutationContext, table: MirroredTable, id: string): Op<boolean> {
  const free = ctx.knownFree;
  if (free && free.table === table && free.id === id) {
    ctx.knownFree = undefined;
    return false;
  }
  return (yield* io(ctx.sql.get(statements.exists[table], [id]))) !== undefined;
}

/**
 * A live project the user may see, or 404 (also for another company's id: never reveal existence).
 */
export function* findVisibleProject(
  c: Visibility,
  user: SessionUser,
  id: string,
): Op<typeof schema.projects.$inferSelect> {
  const row = yield* lookupVisible(c, statements.project, user, id);
  if (!row) throw notFound('Project');
  return row;
}

/** Strips the sync bookkeeping that clients of the REST API do not need. */
export function publicRow<T extends { fieldMeta?: unknown; deletedAt?: unknown }>(row: T) {
  const { fieldMeta: _f, deletedAt: _d, ...rest } = row;
  return rest;
}

export type Input<S extends z.ZodType> = z.input<S>;

export const MIRRORED_TABLES = ['projects', 'tasks', 'project_logs', 'photos', 'schedule_changes'] as const;
export type MirroredTable = (typeof MIRRORED_TABLES)[number];

/** Tombstones rows of a mirrored table, each with its own new version so pull sends the deletion. */
export function* tombstone(
  ctx: MutationContext,
  table: keyof typeof statements.tombstone,
  ids: readonly string[],
): Op<void> {
  const stmt = statements.tombstone[table];
  const at = nowIso(ctx);
  for (const id of ids) {
    const version = yield* nextVersion(ctx);
    yield* io(ctx.sql.run(stmt, [at, version, at, ctx.user.id, id, ctx.user.companyId]));
  }
}

/**
 * Tombstones schedule changes that go with their task (or its project) and settles the notifications about
 * them: nobody is left to decide "Schedule change requested" about a task that is gone, and approvers kept
 * it unread for good. The one rule for `deleteTask` and `deleteProjectContents`.
 */
export function* deleteScheduleChanges(ctx: MutationContext, ids: readonly string[]): Op<void> {
  yield* tombstone(ctx, 'schedule_changes', ids);
  for (const id of ids) yield* settleNotificationsAbout(ctx, 'schedule_change', id);
}
