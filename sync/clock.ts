/**
 * Device clock correction. A phone's clock can be hours or a year off; the server breaks real conflicts by
 * the corrected client time of each write, so the device adds its estimate of `server - device` to every
 * `clientTime` it sends.
 */

/**
 * Server clock minus device clock, estimated from one round trip: the server stamped `serverTime` somewhere
 * between the request leaving (`sentAt`) and the answer arriving (`receivedAt`), assumed at the midpoint.
 * Returns null when `serverTime` is missing or unreadable.
 */
export function estimateClockOffset(sentAt: number, receivedAt: number, serverTime: unknown): number | null {
  const server =
    typeof serverTime === 'number'
      ? serverTime
      : typeof serverTime === 'string'
        ? Date.parse(serverTime)
        : NaN;
  if (!Number.isFinite(server)) return null;
  return Math.round(server - (sentAt + receivedAt) / 2);
}

/** The time a write is stamped with: the device clock corrected by the last offset estimate (epoch ms). */
export function correctedTime(deviceNow: number, clockOffsetMs: number): number {
  return Math.max(0, Math.round(deviceNow + clockOffsetMs));
}
