import { Dexie, type ObservabilitySet } from 'dexie';

/** The primary keys a committed write touched, or 'all' when Dexie does not name them one by one. */
export type TableChange = readonly string[] | 'all';

interface RangeNode {
  d?: number;
  from?: unknown;
  to?: unknown;
  l?: RangeNode | null;
  r?: RangeNode | null;
}

/** The single keys of a Dexie range set, or null when it holds a range (a clear, a range delete). */
function keysOf(node: RangeNode | null | undefined, out: string[]): string[] | null {
  if (!node || !node.d) return out;
  if (keysOf(node.l, out) === null) return null;
  if (typeof node.from !== 'string' || node.from !== node.to) return null;
  out.push(node.from);
  return keysOf(node.r, out);
}

/**
 * Calls `onChange` after every committed write to `table` of `db`, in this tab or another (Dexie's
 * `storagemutated` event, the one its live queries use), with the primary keys written: a screen patches
 * what it holds from those rows instead of reading the whole table again. Dexie names the keys of writes of
 * fewer than 50 rows; bigger writes (a pull page), clears and range deletes come as 'all'.
 * Returns the unsubscribe function.
 */
export function watchTable(db: Dexie, table: string, onChange: (change: TableChange) => void): () => void {
  const part = `idb://${db.name}/${table}/`;
  const listener = (parts: ObservabilitySet) => {
    if (!(part in parts)) return;
    const keys = keysOf(parts[part] as RangeNode, []);
    onChange(keys ?? 'all');
  };
  Dexie.on('storagemutated', listener);
  return () => Dexie.on.storagemutated.unsubscribe(listener);
}
