import { listOf, mergeSetEdit } from '#shared/set-fields.ts';
import { MAX_CLOCK_AHEAD_MS, type FieldConflict } from '#shared/sync-protocol.ts';

/** field -> [version, clientTime, clientId] of its last write (DESIGN.md section 4). */
export type FieldMeta = Record<string, [number, number, string]>;

/** A value that was overwritten because the incoming write was later (SPEC W1 c): kept in the history. */
export interface Overwrite {
  field: string;
  previous: unknown;
  previousClientId: string | null;
}

export interface FieldDecision {
  /** The fields to write, with the client's values. */
  winners: Record<string, unknown>;
  /** The fields that lost: the server value stays (SPEC W4). */
  lost: (FieldConflict & { keptClientId: string | null })[];
  overwritten: Overwrite[];
}

/** SPEC W2: a device's time, already corrected by its measured offset, never later than now + 60 s. */
export function clampClientTime(clientTime: number, now: Date): number {
  return Math.min(clientTime, now.getTime() + MAX_CLOCK_AHEAD_MS);
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Per-field last writer wins (SPEC W1-W4). A field is written when the server has not changed it since
 * the client's base version, when its last write was this client's own, or when the client's (clamped)
 * time is later than the stored one; otherwise the server value is kept. Equal times keep the server value,
 * so the outcome depends only on the stored meta and the incoming mutation, never on who asks.
 *
 * A set field sent with the list its edit started from (`bases`, SPEC W20) is not decided by time: the
 * edit is merged into the current list and always written. The merge is neither a loss nor an overwrite,
 * so it leaves no conflict entry and announces nothing (W4, W5, W11): every photo either device added is
 * in the result, and a photo that is not was removed by someone who had it on screen, which that edit's own
 * activity records in the row's History. Recording the device's unmerged list as 'replaced' would offer to
 * Restore, and notify about, a photo another person took out on purpose (or one deleted from the gallery,
 * which the log mutator would leave out again anyway); the device learns the result from its next pull.
 */
export function decideFields(
  current: Record<string, unknown>,
  meta: FieldMeta,
  patch: Record<string, unknown>,
  baseVersion: number | null,
  clientId: string,
  clientTime: number,
  bases?: Readonly<Record<string, readonly string[]>>,
): FieldDecision {
  const base = baseVersion ?? 0;
  const decision: FieldDecision = { winners: {}, lost: [], overwritten: [] };
  for (const [field, value] of Object.entries(patch)) {
    const started = bases?.[field];
    if (started && Array.isArray(value)) {
      decision.winners[field] = mergeSetEdit(listOf(current[field]), started, listOf(value));
      continue;
    }
    const stamp = meta[field];
    if (!stamp || stamp[0] <= base || stamp[2] === clientId) {
      decision.winners[field] = value;
    } else if (clientTime > stamp[1]) {
      decision.winners[field] = value;
      if (!same(current[field], value)) {
        decision.overwritten.push({ field, previous: current[field] ?? null, previousClientId: stamp[2] });
      }
    } else if (!same(current[field], value)) {
      decision.lost.push({ field, kept: current[field] ?? null, yours: value, keptClientId: stamp[2] });
    }
  }
  return decision;
}

/** The client that created a row: the author of its oldest field stamp (SPEC W8). */
export function creatorOf(meta: FieldMeta): string | null {
  let oldest: [number, number, string] | undefined;
  for (const stamp of Object.values(meta)) if (!oldest || stamp[0] < oldest[0]) oldest = stamp;
  return oldest?.[2] ?? null;
}
