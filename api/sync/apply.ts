import type { z } from 'zod';
import { newId } from '#shared/ids.ts';
import { ChangeOrderDecisionSchema } from '#shared/schemas/change-order.ts';
import { LogPatchSchema } from '#shared/schemas/log.ts';
import { ProjectPatchSchema } from '#shared/schemas/project.ts';
import { ScheduleChangePatchSchema } from '#shared/schemas/schedule-change.ts';
import { TaskPatchSchema } from '#shared/schemas/task.ts';
import { isSetField } from '#shared/set-fields.ts';
import type { Mutation, MutationResult, SyncTable } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import { io, type Op } from '../db/op.ts';
import { rawStmt, rowsStmt, type SqlConn, type Stmt } from '../db/sql.ts';
import { HttpError, badRequest, forbidden, notFound } from '../http.ts';
import { isScopedToAssignments, scopeWhere } from '../db/scope.ts';
import {
  findVisibleProject,
  nowIso,
  validate,
  withNewId,
  withVisibleRows,
  type MutationContext,
} from '../mutators/core.ts';
import {
  assertChangeOrderPending,
  createChangeOrder,
  decideChangeOrder,
  findVisibleChangeOrder,
} from '../mutators/change-orders.ts';
import { createCommunication } from '../mutators/communications.ts';
import { findVisibleLog, createLog, deleteLog, updateLog } from '../mutators/logs.ts';
import { createPhoto, deletePhoto, reusableBlob, type PhotoBlob } from '../mutators/photos.ts';
import { createProject, deleteProject, updateProject } from '../mutators/projects.ts';
import {
  assertDecidedAsSeen,
  createScheduleChange,
  findVisibleScheduleChange,
  updateScheduleChange,
} from '../mutators/schedule-changes.ts';
import {
  statements as mutatorStatements,
  type Scoped,
  type Statements as MutatorStatements,
} from '../mutators/statements.ts';
import { createTask, deleteTask, findVisibleTask, updateTask } from '../mutators/tasks.ts';
import { notifyReplacedValue } from './conflicts.ts';
import { creatorOf, decideFields, type FieldMeta } from './lww.ts';
import { ENTITY_NAME, wireColumns } from './tables.ts';

/**
 * One pushed mutation through the REST mutators (sync/SPEC.md P7): the sync layer only adds what REST has
 * no notion of — per-field last-writer-wins, tombstone answers, replay of a device's own create — and then
 * calls the same function the REST route calls, inside the push transaction.
 */

type Row = Record<string, unknown> & { version: number; fieldMeta: FieldMeta };

interface TableOps {
  create: (ctx: MutationContext, input: Record<string, unknown>) => Op<{ version: number }>;
  update?: (ctx: MutationContext, id: string, patch: Record<string, unknown>) => Op<{ version: number }>;
  /**
   * The schema `update` validates its patch with (the REST PATCH body's). A pushed patch is checked with it
   * whole, before the field decision: a field that loses is stored as the conflict's 'yours' and shown to
   * users, so it must be a value the route would have taken (SPEC P8).
   */
  patchSchema?: z.ZodType;
  /** The live row the user may see (404 otherwise), with its field meta. */
  findVisible?: (c: MutationContext, user: SessionUser, id: string) => Op<Row>;
  /** The prepared lookup the table's mutators find a visible row with (`lookupVisible`): push hands it the
   *  row it has already read, so each mutation reads its row once (ADR 020). Optional: without it the
   *  mutator reads the row again, which is only slower. */
  lookup?: (s: MutatorStatements) => Scoped<unknown>;
  remove?: (ctx: MutationContext, id: string) => Op<unknown>;
  /** The route permission of a patch, checked before the field decision so a patch that loses every field
   *  is still refused to a role that could not have made it. */
  updatePermission?: readonly string[];
  /** A rule about the stored row that no field decision may override (SPEC W13, W19), checked before it. */
  beforePatch?: (
    ctx: MutationContext,
    row: Record<string, unknown>,
    meta: FieldMeta,
    m: Mutation,
  ) => Op<void> | void;
  /** Fields of `data` naming a parent row: a deleted parent rejects the mutation (SPEC W7). */
  parents: Partial<Record<string, SyncTable>>;
  /** Server-owned fields dropped from `data` (SPEC P7), besides the ones every table has. */
  ignoredOnCreate: readonly string[];
  ignoredOnPatch: readonly string[];
}

const SERVER_FIELDS = [
  'id',
  'companyId',
  'createdAt',
  'updatedAt',
  'updatedBy',
  'version',
  'deletedAt',
  'fieldMeta',
];

const SHA256 = /^[0-9a-f]{64}$/;

const OPS: Record<SyncTable, TableOps> = {
  projects: {
    create: createProject,
    lookup: (s) => s.project,
    update: updateProject,
    patchSchema: ProjectPatchSchema,
    findVisible: findVisibleProject,
    remove: deleteProject,
    updatePermission: ['projects:update'],
    parents: {},
    ignoredOnCreate: [],
    ignoredOnPatch: [],
  },
  tasks: {
    create: createTask,
    lookup: (s) => s.task,
    update: updateTask,
    patchSchema: TaskPatchSchema,
    findVisible: findVisibleTask,
    remove: deleteTask,
    updatePermission: ['tasks:update'],
    parents: { projectId: 'projects' },
    ignoredOnCreate: ['completedAt'],
    ignoredOnPatch: ['completedAt'],
  },
  project_logs: {
    create: createLog,
    lookup: (s) => s.log,
    update: updateLog,
    patchSchema: LogPatchSchema,
    findVisible: findVisibleLog,
    remove: deleteLog,
    updatePermission: ['logs:update'],
    parents: { projectId: 'projects' },
    ignoredOnCreate: [],
    ignoredOnPatch: [],
  },
  photos: {
    create: createSyncedPhoto,
    lookup: (s) => s.photo,
    remove: deletePhoto,
    parents: { projectId: 'projects' },
    ignoredOnCreate: ['filename', 'blobStatus', 'mimeType', 'sizeBytes'],
    ignoredOnPatch: [],
  },
  schedule_changes: {
    create: createScheduleChange,
    lookup: (s) => s.scheduleChange,
    update: updateScheduleChange,
    patchSchema: ScheduleChangePatchSchema,
    findVisible: findVisibleScheduleChange,
    updatePermission: ['schedule_changes:create', 'schedule_changes:approve'],
    beforePatch: assertDecidedAsSeen,
    parents: { taskId: 'tasks' },
    ignoredOnCreate: ['status', 'decidedBy', 'decidedAt'],
    ignoredOnPatch: ['decidedBy', 'decidedAt'],
  },
  // SPEC W15: raised from any device of a role that sees the project; REST has no edit or delete of them.
  communications: {
    create: createCommunication,
    parents: { projectId: 'projects' },
    ignoredOnCreate: ['fromUserId', 'fromEmail', 'fromName', 'toUserId', 'toEmail', 'attachments'],
    ignoredOnPatch: [],
  },
  // SPEC W15-W17: requested pending by anyone who sees the project; a patch is a decision, approvers only.
  change_orders: {
    create: createChangeOrder,
    update: decideChangeOrder,
    patchSchema: ChangeOrderDecisionSchema,
    findVisible: findVisibleChangeOrder,
    updatePermission: ['change_orders:approve'],
    beforePatch: assertChangeOrderPending,
    parents: { projectId: 'projects' },
    ignoredOnCreate: ['requestedBy', 'status', 'approvedBy', 'approvedAt', 'reason', 'attachments'],
    ignoredOnPatch: ['requestedBy', 'approvedBy', 'approvedAt'],
  },
};

interface Stored {
  companyId: string;
  deletedAt: string | null;
  version: number;
  fieldMeta: string;
}

interface FullRow {
  companyId: string;
  deletedAt: string | null;
  version: number;
  fieldMeta: FieldMeta;
  /** The row as a device sees it (camelCase, JSON decoded, no field meta or tombstone). */
  row: Record<string, unknown>;
  /** Whether the user may see it live (`api/db/scope.ts`), read in the same statement. */
  visible: boolean;
  /** The row as drizzle maps it, for the mutators' visibility lookup when it is visible. */
  record: Record<string, unknown>;
}

const LOOKUP = Object.fromEntries(
  (Object.keys(OPS) as SyncTable[]).map((table) => [
    table,
    rowsStmt<Stored>(
      `SELECT company_id AS "companyId", deleted_at AS "deletedAt", version, field_meta AS "fieldMeta"
       FROM ${table} WHERE id = ?`,
    ),
  ]),
) as Record<SyncTable, Stmt<Stored>>;

/**
 * The whole row by id in one read, with whether the user may see it: what the field decision needs and what
 * the mutator's own visibility lookup would return (ADR 020). Read positionally (raw): this runs once per
 * pushed mutation, and naming 20 columns per row was a fifth of the read's cost.
 */
function fullReader(table: SyncTable) {
  const cols = wireColumns(table);
  const read = (scoped: boolean) =>
    rawStmt(
      `SELECT deleted_at, field_meta, (${scopeWhere(table, scoped, 'live')}), ${cols.select}
       FROM ${table} WHERE id = @id`,
    );
  const variants = { company: read(false), assigned: read(true) };
  const json = new Set(cols.json);
  const booleans = new Set(cols.booleans);
  const decoders = cols.keys.map((key) =>
    json.has(key) ? ('json' as const) : booleans.has(key) ? ('boolean' as const) : ('plain' as const),
  );
  const FIRST = 3; // deleted_at, field_meta and the visibility come first
  return function* full(c: SqlConn, id: string, user: SessionUser): Op<FullRow | undefined> {
    const stmt = isScopedToAssignments(user) ? variants.assigned : variants.company;
    const found = yield* io(c.get(stmt, { id, company: user.companyId, user: user.id }));
    if (!found) return undefined;
    const data: Record<string, unknown> = {};
    for (let i = 0; i < decoders.length; i++) {
      const v = found[FIRST + i];
      const kind = decoders[i];
      data[cols.keys[i]!] =
        kind === 'plain' ? v : kind === 'boolean' ? v === 1 : typeof v === 'string' ? JSON.parse(v) : v;
    }
    const fieldMeta = JSON.parse(found[1] as string) as FieldMeta;
    const deletedAt = found[0] as string | null;
    return {
      companyId: data.companyId as string,
      deletedAt,
      version: data.version as number,
      fieldMeta,
      row: data,
      // A condition reads 1 in SQLite and true in PostgreSQL.
      visible: found[2] === 1 || found[2] === true,
      record: { ...data, fieldMeta, deletedAt },
    };
  };
}

const FULL = Object.fromEntries((Object.keys(OPS) as SyncTable[]).map((t) => [t, fullReader(t)])) as Record<
  SyncTable,
  ReturnType<typeof fullReader>
>;

const INSERT_CONFLICT = rowsStmt(
  `INSERT INTO sync_conflicts (id, company_id, table_name, row_id, field, kept_value, overwritten_value,
     kept_client_id, overwritten_client_id, user_id, mutation_id, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);

type Primed = { lookup: Scoped<unknown>; id: string; row: unknown };

/** A row read by `full` that the mutator may take as its visibility lookup's answer. */
function primed(ctx: MutationContext, table: SyncTable, id: string, stored: FullRow): Primed[] {
  const lookup = OPS[table].lookup;
  if (!lookup || !stored.visible) return [];
  return [{ lookup: lookup(mutatorStatements), id, row: stored.record }];
}

const rowDeleted = (table: SyncTable) =>
  new HttpError(409, 'ROW_DELETED', `This ${ENTITY_NAME[table].toLowerCase()} was deleted`);
const parentDeleted = (table: SyncTable) =>
  new HttpError(409, 'PARENT_DELETED', `Its ${ENTITY_NAME[table].toLowerCase()} was deleted`);
const unsupported = (m: Mutation) =>
  new HttpError(
    400,
    'UNSUPPORTED_OP',
    `A ${m.op} of ${ENTITY_NAME[m.table].toLowerCase()}s cannot be synced`,
  );

function withoutServerFields(data: Record<string, unknown>, ignored: readonly string[]) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (!SERVER_FIELDS.includes(k) && !ignored.includes(k)) out[k] = v;
  }
  return out;
}

/** Longest list a base may hold: far above what a log keeps (MAX_LOG_IMAGES), so any real list fits. */
const MAX_BASE_ITEMS = 1000;

const badBase = (message: string) =>
  new HttpError(400, 'VALIDATION_FAILED', `BaseValues: ${message}`, { baseValues: message });

/**
 * SPEC W20: the lists a patch's set fields started from. Each must name a set field the patch changes
 * and be a list of strings; anything else is a device bug, rejected (P8) rather than guessed at. Not
 * checked against what the row ever held: a wrong base only changes what counts as this device's own
 * additions and removals, and every addition still goes through the mutator's reference check.
 */
function setFieldBases(
  m: Mutation,
  patch: Record<string, unknown>,
): Record<string, readonly string[]> | undefined {
  if (m.baseValues === undefined) return undefined;
  const bases: Record<string, readonly string[]> = {};
  for (const [field, value] of Object.entries(m.baseValues)) {
    if (!isSetField(m.table, field) || !(field in patch)) {
      throw badBase(`${field} is not a list field this change sets`);
    }
    if (
      !Array.isArray(value) ||
      value.length > MAX_BASE_ITEMS ||
      !value.every((v): v is string => typeof v === 'string')
    ) {
      throw badBase(`${field} must be a list of at most ${MAX_BASE_ITEMS} addresses`);
    }
    bases[field] = value;
  }
  return bases;
}

/**
 * A parent id of the caller's company that is tombstoned rejects the mutation (SPEC W7). Returns the
 * parents read, for the mutator's own check that the user may see them.
 */
function* checkParents(ctx: MutationContext, ops: TableOps, fields: Record<string, unknown>): Op<Primed[]> {
  const read: Primed[] = [];
  for (const [field, parent] of Object.entries(ops.parents)) {
    const id = fields[field];
    if (typeof id !== 'string' || !parent) continue;
    const stored = yield* FULL[parent](ctx.sql, id, ctx.user);
    if (!stored || stored.companyId !== ctx.user.companyId) continue;
    if (stored.deletedAt) throw parentDeleted(parent);
    read.push(...primed(ctx, parent, id, stored));
  }
  return read;
}

/**
 * Photo creates of the sync lane (SPEC P12): the row comes first, addressed by the hash of its bytes, and
 * the bytes follow on their own (PUT /api/sync/blobs/{sha256}). Bytes the company already has make the
 * new row present at once, pointing at the same stored file.
 */
function* createSyncedPhoto(ctx: MutationContext, input: Record<string, unknown>) {
  const { sha256, ...rest } = input;
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) {
    const message =
      sha256 === undefined ? 'Sha256 is required' : 'Sha256 must be 64 lowercase hex characters';
    throw new HttpError(400, 'VALIDATION_FAILED', message, { sha256: message });
  }
  const present = yield* reusableBlob(ctx, ctx.user, sha256);
  const blob: PhotoBlob = present
    ? { sha256, mimeType: present.mimeType, sizeBytes: present.sizeBytes, blobStatus: 'present' }
    : { sha256, mimeType: null, sizeBytes: null, blobStatus: 'pending' };
  return yield* createPhoto(ctx, { ...rest, filename: present?.filename ?? sha256 }, blob);
}

function* applyCreate(ctx: MutationContext, m: Mutation, ops: TableOps): Op<MutationResult> {
  const existing = yield* io(ctx.sql.get(LOOKUP[m.table], [m.rowId]));
  if (existing) {
    // SPEC W8: this device's own create, sent again (its answer was lost before the id was acknowledged).
    const own = existing.companyId === ctx.user.companyId;
    if (own && creatorOf(JSON.parse(existing.fieldMeta) as FieldMeta) === ctx.clientId) {
      if (existing.deletedAt) throw rowDeleted(m.table);
      return { id: m.id, status: 'applied', version: existing.version };
    }
    throw new HttpError(
      409,
      'CONFLICT',
      `A ${ENTITY_NAME[m.table].toLowerCase()} with this id already exists`,
    );
  }
  const input = { ...withoutServerFields(m.data, ops.ignoredOnCreate), id: m.rowId };
  const parents = yield* checkParents(ctx, ops, input);
  // The read above found the id free: the mutator's own check that it is new answers from that (ADR 020).
  const row = yield* withNewId(ctx, m.table, m.rowId, () =>
    withVisibleRows(ctx, parents, () => ops.create(ctx, input)),
  );
  return { id: m.id, status: 'applied', version: row.version };
}

function* applyPatch(
  ctx: MutationContext,
  m: Mutation,
  ops: TableOps,
  mutationId: number,
): Op<MutationResult> {
  const { update, findVisible } = ops;
  if (!update || !findVisible) throw unsupported(m);
  const stored = yield* FULL[m.table](ctx.sql, m.rowId, ctx.user);
  if (!stored || stored.companyId !== ctx.user.companyId) throw notFound(ENTITY_NAME[m.table]);
  if (stored.deletedAt) throw rowDeleted(m.table);
  if (ops.updatePermission && !ops.updatePermission.some((p) => ctx.user.permissions.has(p))) {
    throw forbidden();
  }
  const before = ops.beforePatch?.(ctx, stored.row, stored.fieldMeta, m);
  if (before) yield* before;
  const patch = withoutServerFields(m.data, ops.ignoredOnPatch);
  if (ops.patchSchema) validate(ops.patchSchema, patch);
  const { winners, lost, overwritten } = decideFields(
    stored.row,
    stored.fieldMeta,
    patch,
    m.baseVersion,
    ctx.clientId,
    ctx.clientTime,
    setFieldBases(m, patch),
  );
  let version = stored.version;
  const own = primed(ctx, m.table, m.rowId, stored);
  if (Object.keys(winners).length > 0) {
    const parents = yield* checkParents(ctx, ops, winners);
    // The mutator checks visibility (subcontractor scope) and the fine-grained rules itself.
    const row = yield* withVisibleRows(ctx, [...own, ...parents], () => update(ctx, m.rowId, winners));
    version = row.version;
  } else {
    // Nothing to write, but a row the user may not see must still answer as missing.
    yield* withVisibleRows(ctx, own, () => findVisible(ctx, ctx.user, m.rowId));
  }
  const record = (
    field: string,
    kept: unknown,
    overwrittenValue: unknown,
    keptClient: string | null,
    lostClient: string | null,
  ) =>
    io(
      ctx.sql.run(INSERT_CONFLICT, [
        newId(),
        ctx.user.companyId,
        m.table,
        m.rowId,
        field,
        JSON.stringify(kept ?? null),
        JSON.stringify(overwrittenValue ?? null),
        keptClient,
        lostClient,
        ctx.user.id,
        mutationId,
        nowIso(ctx),
      ]),
    );
  for (const c of lost) yield* record(c.field, c.kept, c.yours, c.keptClientId, ctx.clientId);
  const fieldMeta = stored.fieldMeta;
  for (const o of overwritten) {
    yield* record(o.field, winners[o.field], o.previous, ctx.clientId, o.previousClientId);
    yield* notifyReplacedValue(ctx, {
      table: m.table,
      rowId: m.rowId,
      row: { ...stored.row, ...winners },
      field: o.field,
      previous: o.previous,
      value: winners[o.field],
      previousClientId: o.previousClientId,
      previousStampVersion: fieldMeta[o.field]?.[0] ?? null,
      rowVersionBefore: stored.version,
      rowUpdatedBy: typeof stored.row.updatedBy === 'string' ? stored.row.updatedBy : null,
    });
  }
  if (lost.length === 0) return { id: m.id, status: 'applied', version };
  return {
    id: m.id,
    status: 'partially_applied',
    version,
    conflicts: lost.map(({ field, kept, yours }) => ({ field, kept, yours })),
  };
}

function* applyDelete(ctx: MutationContext, m: Mutation, ops: TableOps): Op<MutationResult> {
  const { remove } = ops;
  if (!remove) throw unsupported(m);
  const stored = yield* FULL[m.table](ctx.sql, m.rowId, ctx.user);
  if (!stored || stored.companyId !== ctx.user.companyId) throw notFound(ENTITY_NAME[m.table]);
  // SPEC W6: deleting what is already deleted changes nothing and is not an error.
  if (stored.deletedAt) return { id: m.id, status: 'applied', version: stored.version };
  yield* withVisibleRows(ctx, primed(ctx, m.table, m.rowId, stored), () => remove(ctx, m.rowId));
  const after = yield* io(ctx.sql.get(LOOKUP[m.table], [m.rowId]));
  return { id: m.id, status: 'applied', version: after?.version ?? stored.version };
}

/**
 * Applies one mutation in the caller's transaction (and savepoint). Permanent failures surface as a 4xx
 * HttpError, which the caller turns into a `rejected` result (SPEC P8); anything else propagates.
 */
export function* applyMutation(ctx: MutationContext, m: Mutation): Op<MutationResult> {
  const ops = OPS[m.table];
  if (m.data.id !== undefined && m.data.id !== m.rowId) {
    throw badRequest('Data id must match rowId', { id: 'must match rowId' });
  }
  if (m.op !== 'patch' && m.baseValues !== undefined) throw badBase('only a patch carries them');
  switch (m.op) {
    case 'create':
      return yield* applyCreate(ctx, m, ops);
    case 'patch':
      return yield* applyPatch(ctx, m, ops, m.id);
    case 'delete':
      return yield* applyDelete(ctx, m, ops);
  }
}
