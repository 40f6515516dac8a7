import { MIRROR_TABLES, READONLY_MIRRORS, mirrorTable, readMeta, type AnyRow, type SyncDb } from './db.ts';
import { rebaseRow } from './rebase.ts';
import type { PulledChange } from '#shared/sync-protocol.ts';

/** Rows written per `bulkPut` call (DESIGN.md section 12: chunks of about 1,000). */
export const PUT_CHUNK = 1000;

const KNOWN_TABLES = new Set<string>([...MIRROR_TABLES, ...READONLY_MIRRORS]);

/** How to apply a pull page: where the cursor goes and what else to store with it. */
export interface ApplyPageOptions {
  /** The server's cursor after this page. */
  cursor: number;
  /** New clock offset estimate, stored with the cursor. */
  clockOffsetMs?: number | null;
  /** First page after a reset: empty the mirrors (in this same transaction) before applying. */
  clear?: boolean;
  /** Device time, stored as lastSyncedAt when `final` is set. */
  now: number;
  /** The last page of a pull: the device is now up to date. */
  final?: boolean;
}

/** Sync-only fields the server might include in `data`; the device does not keep them. */
function serverRowOf(change: PulledChange & { deleted: false }): AnyRow {
  const { fieldMeta: _f, deletedAt: _d, ...data } = change.data;
  return { ...data, id: change.id, version: change.version };
}

/**
 * Applies one pull page in ONE Dexie transaction: rows go in with `bulkPut` in chunks of ~1,000, a change
 * never moves a row back in time (an incoming version older than the one held is skipped; an equal one is
 * taken, since a push acknowledgement records the version before its data arrives), tombstones delete the
 * row, rows with unsent changes get the pulled state as their new base and the pending mutations re-applied
 * on top, and the cursor advances in the same transaction, so a crash never leaves a page half applied.
 */
export async function applyPullPage(
  db: SyncDb,
  changes: readonly PulledChange[],
  options: ApplyPageOptions,
): Promise<void> {
  const byTable = new Map<string, Map<string, PulledChange>>();
  for (const c of changes) {
    if (!KNOWN_TABLES.has(c.table)) continue;
    let m = byTable.get(c.table);
    if (!m) byTable.set(c.table, (m = new Map()));
    const prev = m.get(c.id);
    if (!prev || prev.version < c.version) m.set(c.id, c);
  }
  const mirrors = [...MIRROR_TABLES, ...READONLY_MIRRORS].map((t) => mirrorTable(db, t));
  await db.transaction('rw', [...mirrors, db.outbox, db.shadows, db.meta], async () => {
    const meta = await readMeta(db);
    if (options.clear) {
      for (const t of mirrors) await t.clear();
      // Shadows keep the last server state of rows with unsent changes; after a reset that state is gone
      // too: the pending mutations are re-applied on nothing, then on whatever this pull brings.
      await db.shadows.toCollection().modify((s) => {
        s.row = null;
        s.version = 0;
      });
    }
    const rebase: [string, string][] = [];
    const queued = await db.outbox.count();
    for (const [table, incoming] of byTable) {
      const t = mirrorTable(db, table);
      const ids = [...incoming.keys()];
      const pendingIds = new Set(
        queued === 0
          ? []
          : (await db.outbox.where('rowId').anyOf(ids).toArray())
              .filter((e) => e.table === table)
              .map((e) => e.rowId),
      );
      const puts: AnyRow[] = [];
      const deletes: string[] = [];
      for (let i = 0; i < ids.length; i += PUT_CHUNK) {
        const chunk = ids.slice(i, i + PUT_CHUNK);
        const held = await t.bulkGet(chunk);
        const shadows = pendingIds.size
          ? await db.shadows.bulkGet(chunk.map((id) => [table, id] as [string, string]))
          : [];
        for (let k = 0; k < chunk.length; k++) {
          const change = incoming.get(chunk[k]!)!;
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
          } else if (change.deleted) deletes.push(change.id);
          else puts.push(serverRowOf(change));
        }
      }
      for (let i = 0; i < puts.length; i += PUT_CHUNK) await t.bulkPut(puts.slice(i, i + PUT_CHUNK));
      if (deletes.length) await t.bulkDelete(deletes);
    }
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
      lastSyncedAt: options.final ? options.now : meta.lastSyncedAt,
    });
  });
}
