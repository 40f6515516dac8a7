/**
 * The client's address for the sign-in throttle (README "Limits"): the socket's peer, or, behind
 * `hops` trusted proxies (TRUST_PROXY_HOPS), the address the outermost of them saw. Each proxy appends the
 * address it received the request from to X-Forwarded-For, so with n proxies that is the n-th entry from
 * the right; entries further left were written by the client itself and are never trusted. A request that
 * passed fewer proxies than configured (it reached the server some other way) is taken by its peer.
 */
export function forwardedClient(peer: string, forwardedFor: string | undefined, hops: number): string {
  if (hops <= 0 || !forwardedFor) return peer;
  const chain = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const seen = chain[chain.length - hops];
  // Bounded: the throttle keeps a count per address.
  return seen ? seen.slice(0, 64) : peer;
}
