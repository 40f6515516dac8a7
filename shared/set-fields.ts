import type { SyncTable } from './sync-protocol.ts';

/**
 * Fields decided as sets rather than by last writer wins when devices change them concurrently
 * (sync/SPEC.md W20): a log's photos. Two crew members who each add a photo to the same diary entry
 * offline both keep it. A patch of one of these fields carries, in the mutation's `baseValues`, the list the
 * user's edit started from, so the server can tell what the device added and removed.
 */
export const SET_FIELDS: Partial<Record<SyncTable, readonly string[]>> = {
  project_logs: ['images'],
};

/** Whether `field` of `table` is decided as a set (W20). */
export function isSetField(table: SyncTable, field: string): boolean {
  return SET_FIELDS[table]?.includes(field) ?? false;
}

/**
 * SPEC W20: an edit of a set field, replayed on the value the server holds now. What the device added
 * (in `yours`, not in `base`) is added and what it removed (in `base`, not in `yours`) is removed; the rest
 * is the current value as it stands, so an item someone else added or removed meanwhile stays added or
 * removed. The current order is kept and the device's additions follow in its order; an item already there
 * (both devices added the same photo) is not repeated. When the current value is still the base (nobody
 * else changed it) the device's list is the result as sent, its order included.
 */
export function mergeSetEdit(
  current: readonly string[],
  base: readonly string[],
  yours: readonly string[],
): string[] {
  if (current.length === base.length && current.every((v, i) => v === base[i])) return [...yours];
  const before = new Set(base);
  const after = new Set(yours);
  const merged = current.filter((v) => !(before.has(v) && !after.has(v)));
  const present = new Set(merged);
  for (const v of yours) {
    if (before.has(v) || present.has(v)) continue;
    merged.push(v);
    present.add(v);
  }
  return merged;
}

/** A stored list field as a list (null or a non-list reads as empty). */
export function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
