/**
 * Sign-in throttling, checked before any password hash is computed (DESIGN.md section 5):
 * 10 consecutive failures for one account, or 30 from one address, within 15 minutes block further tries
 * until the oldest failure leaves the window. A success clears the account's count.
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_ACCOUNT_FAILURES = 10;
export const MAX_IP_FAILURES = 30;

export class LoginLimiter {
  private readonly account = new Map<string, number[]>();
  private readonly ip = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  private recent(map: Map<string, number[]>, key: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    const times = (map.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length) map.set(key, times);
    else map.delete(key);
    return times;
  }

  /** Seconds to wait before another try, or 0 when a try is allowed. */
  retryAfter(email: string, address: string): number {
    const waits: number[] = [];
    for (const [map, key, max] of [
      [this.account, email, MAX_ACCOUNT_FAILURES],
      [this.ip, address, MAX_IP_FAILURES],
    ] as const) {
      const times = this.recent(map, key);
      if (times.length >= max) waits.push((times[times.length - max]! + WINDOW_MS - this.now()) / 1000);
    }
    return waits.length ? Math.max(1, Math.ceil(Math.max(...waits))) : 0;
  }

  fail(email: string, address: string): void {
    const t = this.now();
    this.account.set(email, [...this.recent(this.account, email), t]);
    this.ip.set(address, [...this.recent(this.ip, address), t]);
  }

  succeed(email: string): void {
    this.account.delete(email);
  }
}
