import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AnyRow } from '#sync/db.ts';
import { applyMutation } from '#sync/rebase.ts';

interface Overlay {
  data: Record<string, unknown>;
  /** The rows the screen showed when the write committed; undefined while it is still in flight. */
  committedOver?: unknown;
}

export interface OptimisticRows<R extends AnyRow> {
  /** The live query's rows with the in-flight patches drawn over them (the same array when there are none). */
  rows: R[] | undefined;
  /**
   * Shows `data` on row `id` at once while `write` (the local write of that patch) commits. A failed
   * write takes the patch off again and rejects as it did; the caller says so to the user.
   */
  patch: (id: string, data: Record<string, unknown>, write: Promise<unknown>) => Promise<void>;
}

/**
 * A patch drawn over a live query's rows from the moment the user saves, instead of after the local
 * transaction commits and the live query reads the table again (DESIGN.md section 11, budget B7: that is
 * two IndexedDB round trips and a render later). The patch stays drawn until the live query answers with
 * rows read after the commit (which hold it), so the value never flickers back; the merge is the sync
 * module's own `applyMutation`, the rule the write itself applies.
 */
export function useOptimisticRows<R extends AnyRow>(live: R[] | undefined): OptimisticRows<R> {
  const [overlays, setOverlays] = useState<ReadonlyMap<string, Overlay>>(() => new Map());
  const latest = useRef(live);
  latest.current = live;

  // A committed patch is dropped once the live query has answered again.
  useEffect(() => {
    if (![...overlays.values()].some((o) => o.committedOver !== undefined && o.committedOver !== live))
      return;
    setOverlays((current) => {
      const next = new Map(current);
      for (const [id, o] of current)
        if (o.committedOver !== undefined && o.committedOver !== latest.current) next.delete(id);
      return next;
    });
  }, [live, overlays]);

  const rows = useMemo(() => {
    if (!live || overlays.size === 0) return live;
    return live.map((row) => {
      const o = overlays.get(row.id);
      if (!o || (o.committedOver !== undefined && o.committedOver !== live)) return row;
      const next = applyMutation(row, {
        op: 'patch',
        rowId: row.id,
        data: o.data,
        clientTime: Date.now(),
      });
      return (next ?? row) as R;
    });
  }, [live, overlays]);

  const patch = useCallback(async (id: string, data: Record<string, unknown>, write: Promise<unknown>) => {
    const overlay: Overlay = { data };
    setOverlays((current) => new Map(current).set(id, overlay));
    const settle = (committed: boolean) =>
      setOverlays((current) => {
        // A later save of the same row replaced this one: that one decides.
        if (current.get(id) !== overlay) return current;
        const next = new Map(current);
        if (committed) next.set(id, { data, committedOver: latest.current ?? null });
        else next.delete(id);
        return next;
      });
    try {
      await write;
    } catch (err) {
      settle(false);
      throw err;
    }
    settle(true);
  }, []);

  return { rows, patch };
}
