import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * "Now" for what a user reads: today, overdue, due in N days, this week. A phone's clock can be days off;
 * the sync engine measures server minus device time on every pull (sync/clock.ts) and stamps writes with
 * the corrected time, so the screens' days follow the same correction (DECISIONS.md "What 'today' is"):
 * otherwise a crew whose phone is 3 days behind works from the wrong day's list.
 *
 * Offsets under a minute are taken as none: a round trip's estimate moves by milliseconds on every pull,
 * and only a whole-minute error can move a day.
 */
let offsetMs = 0;
const listeners = new Set<() => void>();

const SIGNIFICANT_MS = 60_000;

/** The device's latest estimate of server minus device time (ms), from its sync state. */
export function setServerClockOffset(ms: number | null | undefined): void {
  const next = typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) >= SIGNIFICANT_MS ? ms : 0;
  // Both are 0 or at least a minute off: a change under a minute is no change.
  if (Math.abs(next - offsetMs) < SIGNIFICANT_MS) return;
  offsetMs = next;
  for (const l of listeners) l();
}

/** Now by the server's clock as far as this device knows (its own clock until a first pull says otherwise). */
export function appNow(): Date {
  return new Date(Date.now() + offsetMs);
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const currentOffset = () => offsetMs;

/**
 * `appNow()`, moved on every `intervalMs` (a screen rolls over to a new day by itself) and when the
 * correction changes. `fixed` (tests) is returned as is.
 */
export function useAppNow(fixed?: Date, intervalMs = 60_000): Date {
  const offset = useSyncExternalStore(subscribe, currentOffset, currentOffset);
  const [state, setState] = useState(() => ({ at: fixed ?? appNow(), offset }));
  // A new correction moves "now" at once (an update during render, as React allows for derived state).
  if (!fixed && state.offset !== offset) setState({ at: appNow(), offset });
  useEffect(() => {
    if (fixed) return;
    const timer = setInterval(() => setState({ at: appNow(), offset: currentOffset() }), intervalMs);
    return () => clearInterval(timer);
  }, [fixed, intervalMs]);
  return fixed ?? state.at;
}
