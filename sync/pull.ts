import { MIRROR_TABLES, READONLY_MIRRORS, mirrorTable, readMeta, type AnyRow, type SyncDb } from './db.ts';
import { APPLY_SLICE, pendingForRows, rebaseRow } from './rebase.ts';
import type { PulledChange } from '#shared/sync-protocol.ts';

const KNOWN_TABLES = new Set<string>([...MIRROR_TABLES, ...READONLY_MIRRORS]);

/**
 * Hands the main thread back to the browser for input and rendering (SPEC C17): `scheduler.yield()` where
 * the browser has it (the continuation keeps its priority), else a macrotask.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** How to apply a pull page: where the cursor goes and what else to store with it. */
export interface ApplyPageOptions {
  /** The server's cursor after this page. */
  cursor: number;
  /** New clock offset estimate, stored with the cursor. */
  clockOffsetMs?: number | null;
  /**
   * First page after a reset: empty the mirrors (in this same transaction) before applying, and mark the
   * device as not downloaded until a page reaches the end (SPEC C21).
   */
  clear?: boolean;
  /** Device time, stored as lastSyncedAt when `final` is set. */
  now: number;
  /** The last page of a pull: the device is now up to date. */
  final?: boolean;
  /**
   * Changes the event stream carried (SPEC C24): the page is what a pull from `from` answers, so it is
   * applied only while the stored cursor is at least `from` (nothing between them is missing) and below
   * `cursor` (it brings something); otherwise nothing is written and the result is false.
   */
  from?: number;
}

/** Sync-only fields the server might include in `data`; the device does not keep them. */
function serverRowOf(change: PulledChange & { deleted: false }): AnyRow {
  const { fieldMeta: _f, deletedAt: _d, ...data } = change.data;
  return { ...data, id: change.id, version: change.version };
}

/**
 * Applies one pull page in ONE Dexie transaction: rows go in with `bulkPut` in slices of `APPLY_SLICE`
 * (SPEC C17), a change never moves a row back in time (an incoming version older than the one held is
 * skipped; an equal one is taken, since a push acknowledgement records the version before its data
 * arrives), tombstones delete the row, rows with unsent changes get the pulled state as their new base and
 * the pending mutations re-applied on top, and the cursor advances in the same transaction, so a crash never
 * leaves a page half applied.
 */
export async function applyPullPage(
  db: SyncDb,
  changes: readonly PulledChange[],
  options: ApplyPageOptions,
): Promise<boolean> {
  const byTable = new Map<string, Map<string, PulledChange>>();
  let lowest = Infinity;
  for (const c of changes) {
    if (!KNOWN_TABLES.has(c.table)) continue;
    let m = byTable.get(c.table);
    if (!m) byTable.set(c.table, (m = new Map()));
    const prev = m.get(c.id);
    if (!prev || prev.version < c.version) m.set(c.id, c);
    if (c.version < lowest) lowest = c.version;
  }
  const mirrors = [...MIRROR_TABLES, ...READONLY_MIRRORS].map((t) => mirrorTable(db, t));
  return db.transaction('rw', [...mirrors, db.outbox, db.shadows, db.meta], async () => {
    const meta = await readMeta(db);
    if (options.from !== undefined && (meta.cursor < options.from || meta.cursor >= options.cursor))
      return false;
    if (options.clear) {
      for (const t of mirrors) await t.clear();
      // Shadows keep the last server state of rows with unsent changes; after a reset that state is gone
      // too: the pending mutations are re-applied on nothing, then on whatever this pull brings.
      await db.shadows.toCollection().modify((s) => {
        s.row = null;
        s.version = 0;
      });
    }
    // Only a pull raises a held row's version, and it stores its cursor in the same transaction, so no held
    // row is newer than the stored cursor: a page entirely above it (every page of a normal pull, L2) cannot
    // hold an older change, and the read of what is held (half the cost of a first download) is skipped.
    const readHeld = !options.clear && lowest <= meta.cursor;
    const rebase: [string, string][] = [];
    const queued = await db.outbox.count();
    // Writes are pipelined: a slice is written while the next one is prepared, and that one is issued from
    // the callback of the write before it, so neither the main thread nor IndexedDB waits for the other. The
    // page's first write goes out as a one-row request ahead of the rest of its slice: its callback issues
    // the second slice while the first is still being written.
    const inFlight: Promise<unknown>[] = [];
    const write = async <T>(rows: T[], issue: (part: T[]) => Promise<unknown>) => {
      const parts = inFlight.length === 0 && rows.length > 1 ? [rows.slice(0, 1), rows.slice(1)] : [rows];
      for (const part of parts) {
        const request = issue(part);
        // Awaited below (or the transaction fails with it); never an unhandled rejection meanwhile.
        request.catch(() => {});
        inFlight.push(request);
      }
      while (inFlight.length > 1) await inFlight.shift();
    };
    for (const [table, incoming] of byTable) {
      const t = mirrorTable(db, table);
      const ids = [...incoming.keys()];
      const pendingIds = new Set(
        queued === 0
          ? []
          : (await pendingForRows(db, ids, queued)).filter((e) => e.table === table).map((e) => e.rowId),
      );
      const deletes: string[] = [];
      // Tombstones of rows the held copy was not read for: most are of rows this device never had or has
      // already deleted (its own deletes coming back after a push). A read costs IndexedDB a fraction of a
      // delete (Chromium runs each delete as a range delete with a cursor), so only held rows are deleted.
      const unread: string[] = [];
      for (let i = 0; i < ids.length; i += APPLY_SLICE) {
        const slice = ids.slice(i, i + APPLY_SLICE);
        const held = readHeld ? await t.bulkGet(slice) : [];
        const shadows = pendingIds.size
          ? await db.shadows.bulkGet(slice.map((id) => [table, id] as [string, string]))
          : [];
        const puts: AnyRow[] = [];
        for (let k = 0; k < slice.length; k++) {
          const change = incoming.get(slice[k]!)!;
          const shadow = shadows[k];
          const heldVersion = shadow ? shadow.version : (held[k]?.version ?? -1);
          if (change.version < heldVersion) continue;
          if (pendingIds.has(change.id)) {
            await db.shadows.put({
              table: table as (typeof MIRROR_TABLES)[number],
              id: change.id,
              version: change.version,
              row: change.deleted ? null : serverRowOf(change),
            });
            rebase.push([table, change.id]);
          } else if (change.deleted) {
            // After a clear nothing is held: there is nothing to delete.
            if (!readHeld) {
              if (!options.clear) unread.push(change.id);
            } else if (held[k]) deletes.push(change.id);
          } else puts.push(serverRowOf(change));
        }
        if (puts.length) await write(puts, (part) => t.bulkPut(part));
      }
      for (let i = 0; i < unread.length; i += APPLY_SLICE) {
        const slice = unread.slice(i, i + APPLY_SLICE);
        const held = await t.bulkGet(slice);
        slice.forEach((id, k) => held[k] && deletes.push(id));
      }
      for (let i = 0; i < deletes.length; i += APPLY_SLICE)
        await write(deletes.slice(i, i + APPLY_SLICE), (part) => t.bulkDelete(part));
    }
    await Promise.all(inFlight);
    if (options.clear) {
      // Rows created on this device and still unsent were cleared with the mirrors: rebuild every row
      // that has a pending mutation, not only the ones this page touched.
      const pending = await db.outbox.toArray();
      for (const e of pending) rebase.push([e.table, e.rowId]);
    }
    const seen = new Set<string>();
    for (const [table, id] of rebase) {
      const key = `${table}\u0000${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await rebaseRow(db, table, id);
    }
    await db.meta.put({
      ...meta,
      cursor: options.cursor,
      clockOffsetMs: options.clockOffsetMs ?? meta.clockOffsetMs,
      // A cleared mirror is a download that starts again: it is complete once a page reaches the end (C21).
      lastSyncedAt: options.final ? options.now : options.clear ? null : meta.lastSyncedAt,
      downloadedRows: (options.clear ? 0 : (meta.downloadedRows ?? 0)) + changes.length,
    });
    return true;
  });
}
