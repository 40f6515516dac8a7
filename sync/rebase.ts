import { listOf, mergeSetEdit } from '#shared/set-fields.ts';
import type { Mutation } from '#shared/sync-protocol.ts';
import { mirrorTable, type AnyRow, type OutboxEntry, type ShadowRow, type SyncDb } from './db.ts';

/**
 * The row a mutation leaves behind, as the device shows it until the server's answer comes back. A create
 * over an existing row merges (a replayed create after a reset), a patch of a missing row does nothing (the
 * row was deleted under it; the server will reject the patch), a delete removes the row. A patch of a set
 * field sent with its base (a log's `images`, SPEC W20) is merged into the row's list as the server will
 * merge it, so a pulled photo of another device stays on screen under this device's pending edit.
 */
export function applyMutation(
  row: AnyRow | null,
  m: Pick<Mutation, 'op' | 'rowId' | 'data' | 'clientTime' | 'baseValues'>,
): AnyRow | null {
  const at = new Date(m.clientTime).toISOString();
  switch (m.op) {
    case 'create':
      return { createdAt: at, ...row, ...m.data, updatedAt: at, id: m.rowId, version: row?.version ?? 0 };
    case 'patch':
      return row ? { ...row, ...patchOf(row, m), updatedAt: at, id: row.id, version: row.version } : null;
    case 'delete':
      return null;
  }
}

/** A patch's fields as they land on `row`: its set fields merged (W20), the others as sent. */
function patchOf(row: AnyRow, m: Pick<Mutation, 'data' | 'baseValues'>): Record<string, unknown> {
  if (!m.baseValues) return m.data;
  const data = { ...m.data };
  for (const [field, base] of Object.entries(m.baseValues)) {
    if (Array.isArray(data[field]) && Array.isArray(base)) {
      data[field] = mergeSetEdit(listOf(row[field]), listOf(base), listOf(data[field]));
    }
  }
  return data;
}

/** Pending outbox entries of one row, in queue order. Runs inside the caller's transaction. */
export async function pendingFor(db: SyncDb, table: string, rowId: string): Promise<OutboxEntry[]> {
  const entries = await db.outbox.where('rowId').equals(rowId).toArray();
  return entries.filter((e) => e.table === table).sort((a, b) => a.id - b.id);
}

/**
 * Rows (or keys) per batch of IndexedDB requests issued from one task (SPEC C17). Each batch is issued from
 * the success callback of the previous one, so the main thread's share of a batch (structured clone and one
 * IPC per row, about 70 us per row on a slow phone-class core) stays far under 50 ms and input is handled
 * between batches.
 */
export const APPLY_SLICE = 200;

/**
 * The pending outbox entries of some rows (any order). Runs inside the caller's transaction. A small outbox
 * is read whole in one request; otherwise each row is one index lookup, all issued at once: `anyOf` would
 * walk a cursor, one round trip to IndexedDB per key (SPEC C19).
 */
export async function pendingForRows(
  db: SyncDb,
  rowIds: readonly string[],
  queued?: number,
): Promise<OutboxEntry[]> {
  if (rowIds.length === 0) return [];
  const size = queued ?? (await db.outbox.count());
  if (size === 0) return [];
  const wanted = new Set(rowIds);
  if (size <= rowIds.length) return (await db.outbox.toArray()).filter((e) => wanted.has(e.rowId));
  const ids = [...wanted];
  const found: OutboxEntry[] = [];
  for (let i = 0; i < ids.length; i += APPLY_SLICE) {
    const lists = await Promise.all(
      ids.slice(i, i + APPLY_SLICE).map((id) => db.outbox.where('rowId').equals(id).toArray()),
    );
    found.push(...lists.flat());
  }
  return found;
}

/**
 * Recomputes a row with unsent changes as `shadow + pending mutations` and stores it; drops the shadow once
 * nothing is pending. Runs inside the caller's rw transaction (mirror table, outbox, shadows).
 */
export async function rebaseRow(db: SyncDb, table: string, rowId: string): Promise<void> {
  const shadow = await db.shadows.get([table, rowId]);
  if (!shadow) return;
  const pending = await pendingFor(db, table, rowId);
  let row: AnyRow | null = shadow.row ? { ...shadow.row } : null;
  for (const m of pending) row = applyMutation(row, m);
  const t = mirrorTable(db, table);
  if (row) await t.put(row);
  else await t.delete(rowId);
  if (pending.length === 0) await db.shadows.delete([table, rowId]);
}

/** Remembers a row's server state before its first unsent change (no-op when one is already kept). */
export async function keepShadow(
  db: SyncDb,
  table: ShadowRow['table'],
  row: AnyRow | undefined,
  rowId: string,
) {
  if (await db.shadows.get([table, rowId])) return;
  await db.shadows.put({ table, id: rowId, version: row?.version ?? 0, row: row ? { ...row } : null });
}
