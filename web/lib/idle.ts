/**
 * Runs `fn` when the main thread is idle, or after `timeoutMs` at the latest (soon after, where the browser
 * has no idle callbacks); returns a cancel.
 */
export function whenIdle(fn: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 50);
  return () => clearTimeout(id);
}
