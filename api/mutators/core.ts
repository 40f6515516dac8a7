import type { z } from 'zod';
import { newId } from '#shared/ids.ts';
import type { Db } from '../db/index.ts';
import type { schema } from '../db/index.ts';
import { isScopedToAssignments } from '../db/scope.ts';
import type { SessionUser } from '../context.ts';
import { forbidden, notFound, parseWith } from '../http.ts';
import { statements, type ActivityValues, type Scoped } from './statements.ts';

/**
 * Everything a mutator needs. REST handlers and sync push build one of these and call the same mutator
 * functions, so every rule lives in one place (DESIGN.md section 7). Mutators are synchronous and run
 * inside the caller's write transaction (`writeTx`).
 */
export interface MutationContext {
  db: Db;
  user: SessionUser;
  now: Date;
  /** The device that made the change (sync) or 'server' (REST). */
  clientId: string;
  /** When the change was made on that device, epoch ms, already clamped by the caller. */
  clientTime: number;
  /** Set by sync push: the batch's version counter and activity rows, written once per batch (budget B2). */
  batch?: WriteBatch;
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
  flush(db: Db): void {
    const s = statements(db);
    if (this.lastVersion !== this.readVersion) s.setLastVersion.run(this.lastVersion, this.companyId);
    s.insertActivities(this.activities);
    this.activities.length = 0;
  }
}

export function restContext(db: Db, user: SessionUser, now: Date): MutationContext {
  return { db, user, now, clientId: 'server', clientTime: now.getTime() };
}

export const nowIso = (ctx: MutationContext) => ctx.now.toISOString();

/** Validates a mutator's input with its shared zod schema (strict: unknown keys are a 400). */
export const validate = parseWith;

export function requirePermission(ctx: MutationContext, key: string, message?: string): void {
  if (!ctx.user.permissions.has(key)) throw forbidden(message);
}

/** Bumps the company's sync version inside the current transaction and returns the new value. */
export function nextVersion(ctx: MutationContext): number {
  if (ctx.batch) return ++ctx.batch.lastVersion;
  const version = statements(ctx.db).nextVersion.get(ctx.user.companyId);
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

export function recordActivity(
  ctx: MutationContext,
  activity: {
    actionType: string;
    description: string;
    entityType?: string;
    entityId?: string;
    metadata?: Record<string, unknown>;
  },
): void {
  const values: ActivityValues = [
    newId(),
    ctx.user.id,
    ctx.user.companyId,
    activity.actionType,
    activity.description,
    activity.entityType ?? null,
    activity.entityId ?? null,
    activity.metadata === undefined || activity.metadata === null ? null : JSON.stringify(activity.metadata),
    nowIso(ctx),
  ];
  if (ctx.batch) ctx.batch.activities.push(values);
  else statements(ctx.db).insertActivity.run(...values);
}

export function notify(
  ctx: MutationContext,
  n: {
    userId: string;
    title: string;
    message: string;
    type?: string;
    relatedEntityType?: string;
    relatedEntityId?: string;
  },
): void {
  statements(ctx.db).insertNotification.run(
    newId(),
    n.userId,
    ctx.user.companyId,
    n.title,
    n.message,
    n.type ?? 'info',
    n.relatedEntityType ?? null,
    n.relatedEntityId ?? null,
    nowIso(ctx),
  );
}

/** Users of the caller's company holding a permission (e.g. who approves schedule changes). */
export function usersWithPermission(ctx: MutationContext, permission: string): string[] {
  return statements(ctx.db).usersWithPermission.all(ctx.user.companyId, permission);
}

/**
 * Runs a prepared visibility lookup (`statements.ts`) for the row with this id: the variant scoped to the
 * user's assignments for a subcontractor, the company-wide one for everyone else.
 */
export function lookupVisible<R>(lookup: Scoped<R>, user: SessionUser, id: string): R | undefined {
  const held = primed.get(lookup);
  if (held && held.id === id && held.userId === user.id) {
    // Used once: a later lookup in the same mutation may follow a write and must read the row again.
    primed.delete(lookup);
    return held.row as R;
  }
  const stmt = isScopedToAssignments(user) ? lookup.assigned : lookup.company;
  return stmt.get({ id, company: user.companyId, user: user.id });
}

const primed = new Map<Scoped<unknown>, { id: string; userId: string; row: unknown }>();

/**
 * Runs `fn` with rows the caller has just read in this transaction and found visible to `user` (sync push
 * reads each mutation's row once, with its visibility, for the field decision: ADR 020). The first
 * `lookupVisible` of such a row in `fn` answers from it instead of reading it again; whatever `fn` did not
 * use is dropped when it returns, so nothing outlives the synchronous call.
 */
export function withVisibleRows<T>(
  rows: readonly { lookup: Scoped<unknown>; id: string; row: unknown }[],
  user: SessionUser,
  fn: () => T,
): T {
  for (const r of rows) primed.set(r.lookup, { id: r.id, userId: user.id, row: r.row });
  try {
    return fn();
  } finally {
    primed.clear();
  }
}

/** Ids the caller has just read to be free in a table, for `idTaken` (see `withNewId`). */
let knownFree: { table: string; id: string } | undefined;

/**
 * Runs `fn` knowing that no row of `table` has this id: the caller has just read so in this transaction
 * (sync push reads a create's id for SPEC W8). The first `idTaken` of that id in `fn` answers from it
 * instead of reading again; nothing outlives the synchronous call.
 */
export function withNewId<T>(table: MirroredTable | string, id: string, fn: () => T): T {
  knownFree = { table, id };
  try {
    return fn();
  } finally {
    knownFree = undefined;
  }
}

/** Whether any row of the table (any company, live or tombstoned) has this id: a create's id must be new. */
export function idTaken(ctx: MutationContext, table: MirroredTable, id: string): boolean {
  if (knownFree && knownFree.table === table && knownFree.id === id) {
    knownFree = undefined;
    return false;
  }
  return statements(ctx.db).exists[table].get(id) !== undefined;
}

/**
 * A live project the user may see, or 404 (also for another company's id: never reveal existence).
 */
export function findVisibleProject(
  db: Db,
  user: SessionUser,
  id: string,
): typeof schema.projects.$inferSelect {
  const s = statements(db);
  const row = lookupVisible(s.project, user, id);
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
export function tombstone(ctx: MutationContext, table: MirroredTable, ids: readonly string[]): void {
  const stmt = statements(ctx.db).tombstone[table];
  const at = nowIso(ctx);
  for (const id of ids) stmt.run(at, nextVersion(ctx), at, ctx.user.id, id, ctx.user.companyId);
}
