import type { Mutation, MutationResult } from '#shared/sync-protocol.ts';
import {
  MIRROR_TABLES,
  mirrorTable,
  readMeta,
  type AnyRow,
  type OutboxEntry,
  type ShadowRow,
  type SyncDb,
  type SyncIssue,
} from './db.ts';
import { nameOfRecord } from './issues.ts';
import { applyMutation, pendingForRows, rebaseRow } from './rebase.ts';

/** The wire form of an outbox entry (the queue bookkeeping stays on the device). */
export function toWire(e: OutboxEntry): Mutation {
  return {
    id: e.id,
    op: e.op,
    table: e.table,
    rowId: e.rowId,
    data: e.data,
    baseVersion: e.baseVersion,
    clientTime: e.clientTime,
    // Only where a patch of a set field has one (SPEC W20): every other mutation keeps its shape.
    ...(e.baseValues === undefined ? {} : { baseValues: e.baseValues }),
  };
}

/** What storing push answers writes. Not `meta`: the pull that follows a push reads it meanwhile. */
function answerTables(db: SyncDb) {
  return [...MIRROR_TABLES.map((t) => mirrorTable(db, t)), db.outbox, db.shadows, db.syncIssues];
}

function rwTables(db: SyncDb) {
  return [...answerTables(db), db.meta];
}

/**
 * What the pusher already holds of the queue: `after`, every entry queued after the batch up to `upTo`
 * (seq), as read. Entries never change once queued and only the pusher removes them, so what is still
 * queued for the batch's rows is known from these and one read of the entries above `upTo`, instead of a
 * look per row.
 */
export interface QueueKnown {
  after: readonly OutboxEntry[];
  upTo: number;
}

/** Entries above `upTo` read in one request at most this many; beyond it the queue is looked up per row. */
const QUEUE_TAIL_READ = 500;

/**
 * The name of a refused change's record as the device has it now (it may be gone once the pull brings a
 * deletion), else from the change's own data. Read only for the rare answer that becomes an entry.
 */
async function nameOnDevice(db: SyncDb, e: OutboxEntry): Promise<string | null> {
  return nameOfRecord(e.table, await mirrorTable(db, e.table).get(e.rowId)) ?? nameOfRecord(e.table, e.data);
}

/** The parents a change may point at, by the field that holds their id. */
const PARENT_FIELDS = { projectId: 'projects', taskId: 'tasks' } as const;

/** `SyncIssue.refNames`: the names of the change's project and task on this device now, or undefined. */
async function parentNamesOnDevice(db: SyncDb, e: OutboxEntry): Promise<Record<string, string> | undefined> {
  const names: Record<string, string> = {};
  for (const [field, table] of Object.entries(PARENT_FIELDS)) {
    const id = e.data?.[field];
    if (typeof id !== 'string') continue;
    const name = nameOfRecord(table, await mirrorTable(db, table).get(id));
    if (name) names[id] = name;
  }
  return Object.keys(names).length ? names : undefined;
}

/**
 * Settles a pushed batch in ONE Dexie transaction (SPEC C4, C5). Applied and partially applied mutations
 * leave the outbox and are folded into the row's server shadow, so recomputing the row later keeps them;
 * the row's `version` stays the one last pulled (C3), and the pull brings the server's exact row, conflict
 * losers included. A partially applied mutation also leaves a `conflict` entry in `syncIssues` naming the
 * fields it lost. A rejected mutation leaves the outbox for `syncIssues` with its full payload, code and
 * message, and its row is recomputed without it, so the device stops showing a change the server refused.
 * Entries without a result stay queued. Returns how many entries left the outbox.
 */
export async function applyPushResults(
  db: SyncDb,
  batch: readonly OutboxEntry[],
  results: readonly MutationResult[],
  now: number,
  queue?: QueueKnown,
): Promise<number> {
  const byId = new Map(results.map((r) => [r.id, r]));
  const answered = batch.filter((e) => e.seq !== undefined && byId.has(e.id));
  if (answered.length === 0) return 0;
  // A few requests per step, whatever the batch size: every request costs a round trip to the IndexedDB
  // backend, and the next batch's answers wait behind this transaction (DESIGN.md 12, SPEC C19).
  return db.transaction('rw', answerTables(db), async () => {
    // The answered entries are a run of the queue: one read of that key range says which are still queued.
    let lo = Infinity;
    let hi = -Infinity;
    for (const e of answered) {
      lo = Math.min(lo, e.seq!);
      hi = Math.max(hi, e.seq!);
    }
    const range = () => db.outbox.where(':id').between(lo, hi, true, true);
    const queued = new Set(await range().primaryKeys());
    const settled = answered.filter((e) => queued.has(e.seq!));
    if (settled.length === queued.size) await range().delete();
    else await db.outbox.bulkDelete(settled.map((e) => e.seq!));

    const keyOf = (e: { table: string; rowId: string }) => `${e.table}\u0000${e.rowId}`;
    const rows = new Map<string, { table: string; rowId: string; rejected: boolean }>();
    const issues: SyncIssue[] = [];
    for (const e of settled) {
      const row = rows.get(keyOf(e)) ?? { table: e.table, rowId: e.rowId, rejected: false };
      rows.set(keyOf(e), row);
      const result = byId.get(e.id)!;
      if (result.status === 'rejected') {
        row.rejected = true;
        issues.push({
          kind: 'mutation',
          mutation: e,
          code: result.code ?? 'REJECTED',
          message: result.message ?? 'The server refused this change',
          recordName: await nameOnDevice(db, e),
          refNames: await parentNamesOnDevice(db, e),
          createdAt: now,
        });
      } else if (result.status === 'partially_applied') {
        issues.push({
          kind: 'conflict',
          mutation: e,
          code: 'PARTIALLY_APPLIED',
          message: 'Someone else changed some of these fields later; their values were kept',
          conflicts: result.conflicts ?? [],
          recordName: await nameOnDevice(db, e),
          createdAt: now,
        });
      }
    }
    if (issues.length) await db.syncIssues.bulkAdd(issues);

    const touched = [...rows.values()];
    const remaining = new Map<string, OutboxEntry[]>();
    // What stays queued of the batch itself: its unanswered entries and answered ones not settled.
    const settledSeqs = new Set(settled.map((e) => e.seq!));
    const inBatch = new Set(batch.map((e) => e.seq));
    const known =
      queue && [...queued].every((seq) => settledSeqs.has(seq) || inBatch.has(seq))
        ? {
            entries: [
              ...batch.filter((e) => !settledSeqs.has(e.seq!) && (!byId.has(e.id) || queued.has(e.seq!))),
              ...queue.after,
            ],
            above: Math.max(queue.upTo, ...batch.map((e) => e.seq ?? 0)),
          }
        : undefined;
    for (const e of await stillQueued(
      db,
      touched.map((r) => r.rowId),
      known,
    )) {
      if (!rows.has(keyOf(e))) continue;
      const list = remaining.get(keyOf(e)) ?? [];
      list.push(e);
      remaining.set(keyOf(e), list);
    }
    // A row with nothing left queued loses its shadow, unread, unless a refusal means rebuilding it.
    const reread = touched.filter((r) => r.rejected || remaining.has(keyOf(r)));
    const dropShadows: [string, string][] = touched
      .filter((r) => !r.rejected && !remaining.has(keyOf(r)))
      .map((r) => [r.table, r.rowId]);
    const shadowList = reread.length
      ? await db.shadows.bulkGet(reread.map((r) => [r.table, r.rowId] as [string, string]))
      : [];
    const shadows = new Map<string, ShadowRow>();
    reread.forEach((r, i) => {
      const shadow = shadowList[i];
      if (shadow) shadows.set(keyOf(r), { ...shadow });
    });
    for (const e of settled) {
      if (byId.get(e.id)!.status === 'rejected') continue;
      const shadow = shadows.get(keyOf(e));
      if (shadow) shadow.row = applyMutation(shadow.row, e);
    }

    const keepShadows: ShadowRow[] = [];
    const puts = new Map<string, AnyRow[]>();
    const deletes = new Map<string, string[]>();
    for (const r of reread) {
      const shadow = shadows.get(keyOf(r));
      if (!shadow) continue;
      const pending = (remaining.get(keyOf(r)) ?? []).sort((a, b) => a.id - b.id);
      if (pending.length) keepShadows.push(shadow);
      else dropShadows.push([r.table, r.rowId]);
      // Without a rejection the visible row already is `shadow + every mutation`: only a refused change
      // makes the row differ from what the device shows.
      if (!r.rejected) continue;
      let row: AnyRow | null = shadow.row ? { ...shadow.row } : null;
      for (const m of pending) row = applyMutation(row, m);
      if (row) puts.set(r.table, [...(puts.get(r.table) ?? []), row]);
      else deletes.set(r.table, [...(deletes.get(r.table) ?? []), r.rowId]);
    }
    if (keepShadows.length) await db.shadows.bulkPut(keepShadows);
    // A shadow exists only while its row has a change queued (C11): once the outbox is empty every shadow
    // goes, in one request instead of a delete per row (each its own range delete in Chromium).
    if (dropShadows.length > 1 && keepShadows.length === 0 && (await db.outbox.count()) === 0)
      await db.shadows.clear();
    else if (dropShadows.length) await db.shadows.bulkDelete(dropShadows);
    for (const [table, list] of puts) await mirrorTable(db, table).bulkPut(list);
    for (const [table, ids] of deletes) await mirrorTable(db, table).bulkDelete(ids);
    return settled.length;
  });
}

/**
 * The queued entries of some rows (any order; the caller filters by table), from what the pusher holds
 * (`known`: every queued entry up to `above`) and one read of the entries above it; a look per row when
 * nothing is known or the entries above are many. Runs inside the caller's transaction.
 */
async function stillQueued(
  db: SyncDb,
  rowIds: readonly string[],
  known: { entries: readonly OutboxEntry[]; above: number } | undefined,
): Promise<OutboxEntry[]> {
  if (!known || rowIds.length === 0) return pendingForRows(db, rowIds);
  // One request: a read capped one past the limit says both what is above and whether it is too much.
  const tail = await db.outbox
    .where(':id')
    .above(known.above)
    .limit(QUEUE_TAIL_READ + 1)
    .toArray();
  if (tail.length > QUEUE_TAIL_READ) return pendingForRows(db, rowIds);
  const wanted = new Set(rowIds);
  return [...known.entries, ...tail].filter((e) => wanted.has(e.rowId));
}

/**
 * Answers a 409 OUT_OF_ORDER. `expected` above the head of the queue: the server already has the entries
 * below it (their answers were lost), so they leave the queue and count as applied; the pull brings their
 * outcome. `expected` below the head: the server lost mutations this device no longer holds (a restored
 * backup), so the queue is renumbered from `expected`, keeping its order, and nothing queued is dropped.
 * Returns false when there was nothing to fix (the caller then reports a protocol error).
 */
export async function resolveOutOfOrder(db: SyncDb, expected: number): Promise<boolean> {
  return db.transaction('rw', rwTables(db), async () => {
    const queue = await db.outbox.orderBy('seq').toArray();
    const head = queue[0];
    if (!head || head.id === expected) return false;
    const meta = await readMeta(db);
    if (expected > head.id) {
      const done = queue.filter((e) => e.id < expected);
      for (const e of done) {
        const shadow = await db.shadows.get([e.table, e.rowId]);
        if (shadow) await db.shadows.put({ ...shadow, row: applyMutation(shadow.row, e) });
        await db.outbox.delete(e.seq!);
      }
      for (const e of done) await rebaseRow(db, e.table, e.rowId);
      if (meta.nextMutationId < expected) await db.meta.put({ ...meta, nextMutationId: expected });
      return true;
    }
    const renumbered = queue.map((e, i) => ({ ...e, id: expected + i }));
    await db.outbox.bulkDelete(queue.map((e) => e.seq!));
    await db.outbox.bulkAdd(renumbered);
    await db.meta.put({ ...meta, nextMutationId: expected + queue.length });
    return true;
  });
}
