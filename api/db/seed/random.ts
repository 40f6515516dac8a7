/** Deterministic helpers for the demo: a seeded generator (same demo on every run) and time units. */

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export function at<T>(items: readonly T[], i: number): T {
  const v = items[((i % items.length) + items.length) % items.length];
  if (v === undefined) throw new Error('at(): empty list');
  return v;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function makeRng(seed: number): Rng {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => at(items, Math.floor(next() * items.length)),
    chance: (p) => next() < p,
  };
}

export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
export const iso = (ms: number) => new Date(ms).toISOString();
export const shortDate = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

// ---------------------------------------------------------------------------------------------------------
// Static demo content
// ---------------------------------------------------------------------------------------------------------
