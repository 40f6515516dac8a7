import { newId } from '#shared/ids.ts';
import type { Conn, Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt, valueStmt } from '../db/sql.ts';

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
 * The rule is `waitFor`, one function, over the failures of the account, the pair and the address. Where they
 * are kept is the limiter's: `LoginLimiter` keeps them in memory, for the one process of an SQLite server;
 * `DatabaseLoginLimiter` keeps them in the database (ADR 028), so that several API processes on one
 * PostgreSQL see each other's tries. In memory, keys whose failures all left the window are swept at most
 * once a minute, and each map keeps at most `maxKeys` keys (the least recently failed are dropped), so random
 * emails cannot grow it without bound; in the database, rows past the window are deleted at most once a
 * minute per process.
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
      succeed(): Promise<void>;
    };

/** Decides sign-in tries; an allowed try counts as a failure until it succeeds. */
export interface SignInThrottle {
  attempt(account: string, address: string): Promise<Attempt>;
}

/** Failure times (epoch ms, oldest first) within the window of the account, the pair and the address. */
export interface Failures {
  account: readonly number[];
  pair: readonly number[];
  address: readonly number[];
}

/** The throttle's rule: how long a try must wait (ms), 0 when it may go ahead. */
export function waitFor(f: Failures, now: number): number {
  const blocked = (times: readonly number[], max: number) =>
    times.length >= max ? times[times.length - max]! + WINDOW_MS - now : 0;
  let delay = 0;
  if (f.account.length >= SLOW_DOWN_AFTER) {
    const step = Math.min(FIRST_DELAY_MS * 2 ** (f.account.length - SLOW_DOWN_AFTER), MAX_DELAY_MS);
    delay = f.account[f.account.length - 1]! + step - now;
  }
  return Math.max(blocked(f.pair, MAX_PAIR_FAILURES), blocked(f.address, MAX_IP_FAILURES), delay);
}

/** An allowed try: its reservation stays a failure unless `succeed` gives it back (once). */
function allowed(giveBack: () => void | Promise<void>): Attempt {
  let settled = false;
  return {
    allowed: true,
    succeed: async () => {
      if (settled) return;
      settled = true;
      await giveBack();
    },
  };
}

const refusal = (wait: number): Attempt => ({
  allowed: false,
  retryAfter: Math.max(1, Math.ceil(wait / 1000)),
});

export class LoginLimiter implements SignInThrottle {
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

  /** Decides a try by `account` from `address`; an allowed try counts as a failure until it succeeds. */
  attempt(account: string, address: string): Promise<Attempt> {
    return Promise.resolve(this.attemptNow(account, address));
  }

  private attemptNow(account: string, address: string): Attempt {
    this.sweep();
    const pairKey = `${account}\n${address}`;
    const wait = waitFor(
      {
        account: this.recent(this.account, account),
        pair: this.recent(this.pair, pairKey),
        address: this.recent(this.ip, address),
      },
      this.now(),
    );
    if (wait > 0) return refusal(wait);
    const t = this.now();
    this.record(this.account, account, t);
    this.record(this.pair, pairKey, t);
    this.record(this.ip, address, t);
    return allowed(() => {
      this.account.delete(account);
      this.pair.delete(pairKey);
      const times = this.ip.get(address);
      const i = times?.lastIndexOf(t) ?? -1;
      if (times && i >= 0) times.splice(i, 1);
      if (times?.length === 0) this.ip.delete(address);
    });
  }

  /** Keys held across the maps (tests, diagnostics). */
  size(): number {
    return this.account.size + this.pair.size + this.ip.size;
  }
}

interface FailureRow {
  id: string;
  account: string;
  address: string;
  at: number;
  counts_for_account: number;
  counts_for_pair: number;
}

// Every reservation of every process goes through this one lock (PostgreSQL): a read of the counts and the
// insert of the try are one step, so a burst spread over processes cannot outrun the count. The transaction
// is a few index reads; the password hash is computed after it. SQLite's write lock does the same.
const RESERVE_LOCK = valueStmt<unknown>('SELECT 1', 'SELECT pg_advisory_xact_lock(727273)');
const RECENT = rowsStmt<FailureRow>(
  `SELECT id, account, address, at, counts_for_account, counts_for_pair FROM sign_in_failures
   WHERE (account = @account OR address = @address) AND at > @cutoff ORDER BY at, id`,
);
const RESERVE = rowsStmt(
  'INSERT INTO sign_in_failures (id, account, address, at, counts_for_account, counts_for_pair) VALUES (?, ?, ?, ?, 1, 1)',
);
const CLEAR_ACCOUNT = rowsStmt('UPDATE sign_in_failures SET counts_for_account = 0 WHERE account = ?');
const CLEAR_PAIR = rowsStmt(
  'UPDATE sign_in_failures SET counts_for_pair = 0 WHERE account = ? AND address = ?',
);
const GIVE_BACK = rowsStmt('DELETE FROM sign_in_failures WHERE id = ?');
const SWEEP = rowsStmt('DELETE FROM sign_in_failures WHERE at <= ?');

/** The failures the rule counts for a try, from the rows of the account or the address in the window. */
function* recentFailures(c: Conn, account: string, address: string, now: number): Op<Failures> {
  const rows = yield* io(c.sql.all(RECENT, { account, address, cutoff: now - WINDOW_MS }));
  const ofAccount = rows.filter((r) => r.account === account);
  return {
    account: ofAccount.filter((r) => r.counts_for_account === 1).map((r) => r.at),
    pair: ofAccount.filter((r) => r.address === address && r.counts_for_pair === 1).map((r) => r.at),
    address: rows.filter((r) => r.address === address).map((r) => r.at),
  };
}

/** The throttle with its failures in the database, shared by every API process on it (ADR 028). */
export class DatabaseLoginLimiter implements SignInThrottle {
  private lastSweep = 0;

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async attempt(account: string, address: string): Promise<Attempt> {
    const now = this.now();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.database.writeTx(null, (c) => io(c.sql.run(SWEEP, [now - WINDOW_MS])));
    }
    const id = newId();
    const wait = await this.database.writeTx(null, function* (c) {
      yield* io(c.sql.get(RESERVE_LOCK));
      const wait = waitFor(yield* recentFailures(c, account, address, now), now);
      if (wait <= 0) yield* io(c.sql.run(RESERVE, [id, account, address, now]));
      return wait;
    });
    if (wait > 0) return refusal(wait);
    return allowed(() =>
      this.database.writeTx(null, function* (c) {
        yield* io(c.sql.run(CLEAR_ACCOUNT, [account]));
        yield* io(c.sql.run(CLEAR_PAIR, [account, address]));
        yield* io(c.sql.run(GIVE_BACK, [id]));
      }),
    );
  }
}
