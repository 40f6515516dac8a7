/**
 * Password-guess throttling for sign-in and change-password (DESIGN.md section 5), decided before any hash
 * is computed. A try is counted as a failure the moment it is allowed (a reservation), so a concurrent burst
 * cannot outrun the count; a try with the right password gives its reservation back.
 *
 * Within a sliding 15-minute window:
 * - one account from one address: 10 failures block that pair until the oldest leaves the window;
 * - one address, whatever the accounts: 30 failures block the address the same way;
 * - one account from anywhere: no lockout, so an attacker cannot lock the owner out of their own devices.
 *   From the 10th failure on, each further try waits 1 s after the previous one, doubling with every
 *   failure up to 60 s; the owner signs in after at most that wait.
 * A success clears the account's failures and those of the pair it came from.
 *
 * State is in memory, one process (a shared store is a later issue). Keys whose failures all left the
 * window are swept at most once a minute, and each map keeps at most `maxKeys` keys (the least recently
 * failed are dropped), so random emails cannot grow it without bound.
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_PAIR_FAILURES = 10;
export const MAX_IP_FAILURES = 30;
/** Failures of one account (from any address) after which each try is delayed. */
export const SLOW_DOWN_AFTER = 10;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;

export type Attempt =
  | { allowed: false; retryAfter: number }
  | {
      allowed: true;
      /** The password was right: the try does not count as a failure. */
      succeed(): void;
    };

export class LoginLimiter {
  private readonly account = new Map<string, number[]>();
  private readonly pair = new Map<string, number[]>();
  private readonly ip = new Map<string, number[]>();
  private lastSweep: number;
  private readonly maxKeys: number;

  constructor(
    private readonly now: () => number = Date.now,
    options: { maxKeys?: number } = {},
  ) {
    this.lastSweep = now();
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  private recent(map: Map<string, number[]>, key: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    const times = map.get(key);
    if (!times) return [];
    const kept = times.filter((t) => t > cutoff);
    if (kept.length === 0) map.delete(key);
    else if (kept.length !== times.length) map.set(key, kept);
    return kept;
  }

  private record(map: Map<string, number[]>, key: string, t: number): void {
    const times = this.recent(map, key);
    // Re-inserted so the map's order is least recently failed first, the one dropped past maxKeys.
    map.delete(key);
    map.set(key, [...times, t]);
    if (map.size > this.maxKeys) map.delete(map.keys().next().value!);
  }

  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const cutoff = now - WINDOW_MS;
    for (const map of [this.account, this.pair, this.ip]) {
      for (const [key, times] of map) if (!(times[times.length - 1]! > cutoff)) map.delete(key);
    }
  }

  /** Milliseconds until `max` failures no longer fill the window, or 0. */
  private blockedFor(map: Map<string, number[]>, key: string, max: number): number {
    const times = this.recent(map, key);
    return times.length >= max ? times[times.length - max]! + WINDOW_MS - this.now() : 0;
  }

  private delayFor(account: string): number {
    const times = this.recent(this.account, account);
    if (times.length < SLOW_DOWN_AFTER) return 0;
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (times.length - SLOW_DOWN_AFTER), MAX_DELAY_MS);
    return times[times.length - 1]! + delay - this.now();
  }

  /** Decides a try by `account` from `address`; an allowed try counts as a failure until it succeeds. */
  attempt(account: string, address: string): Attempt {
    this.sweep();
    const pairKey = `${account}\n${address}`;
    const wait = Math.max(
      this.blockedFor(this.pair, pairKey, MAX_PAIR_FAILURES),
      this.blockedFor(this.ip, address, MAX_IP_FAILURES),
      this.delayFor(account),
    );
    if (wait > 0) return { allowed: false, retryAfter: Math.max(1, Math.ceil(wait / 1000)) };
    const t = this.now();
    this.record(this.account, account, t);
    this.record(this.pair, pairKey, t);
    this.record(this.ip, address, t);
    let settled = false;
    return {
      allowed: true,
      succeed: () => {
        if (settled) return;
        settled = true;
        this.account.delete(account);
        this.pair.delete(pairKey);
        const times = this.ip.get(address);
        const i = times?.lastIndexOf(t) ?? -1;
        if (times && i >= 0) times.splice(i, 1);
        if (times?.length === 0) this.ip.delete(address);
      },
    };
  }

  /** Keys held across the maps (tests, diagnostics). */
  size(): number {
    return this.account.size + this.pair.size + this.ip.size;
  }
}
