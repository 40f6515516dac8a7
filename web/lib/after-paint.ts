/** How long the engine waits for a frame at most: a page opened in the background paints no frames. */
export const AFTER_PAINT_LIMIT_MS = 1_000;

/**
 * Runs `fn` once the browser has painted the next frame and then had a quiet moment (or after `limitMs`
 * when no frame comes, in a hidden tab). Work that the first screen does not need (the sync engine, its
 * event stream, the first pull) starts here rather than competing with that screen's first paint.
 * Returns a cancel function.
 */
export function afterPaint(fn: () => void, limitMs = AFTER_PAINT_LIMIT_MS): () => void {
  let done = false;
  const timers: (() => void)[] = [];
  const run = () => {
    if (done) return;
    done = true;
    for (const t of timers) t();
    fn();
  };
  const w = typeof window === 'undefined' ? undefined : window;
  const fallback = setTimeout(run, limitMs);
  timers.push(() => clearTimeout(fallback));
  if (w?.requestAnimationFrame) {
    // requestAnimationFrame runs just before the frame is drawn; a task queued from it runs after.
    const frame = w.requestAnimationFrame(() => {
      const next = setTimeout(() => {
        if (done) return;
        if (w.requestIdleCallback) {
          const idle = w.requestIdleCallback(run, { timeout: 200 });
          timers.push(() => w.cancelIdleCallback(idle));
        } else run();
      }, 0);
      timers.push(() => clearTimeout(next));
    });
    timers.push(() => w.cancelAnimationFrame(frame));
  }
  return () => {
    done = true;
    for (const t of timers) t();
  };
}

/**
 * Runs `fn` once the page has shown its first content (the browser's first-contentful-paint entry), or
 * after `limitMs` when none comes. A frame's requestAnimationFrame can run well before that paint reaches
 * the screen while the page is still loading, so work meant to follow the first paint waits for the entry
 * itself where the browser reports it, and for the next frame (afterPaint) where it does not.
 */
export function afterFirstContentfulPaint(fn: () => void, limitMs = AFTER_PAINT_LIMIT_MS): () => void {
  const perf = typeof performance === 'undefined' ? undefined : performance;
  const supported =
    typeof PerformanceObserver !== 'undefined' &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
  if (!supported || !perf) return afterPaint(fn, limitMs);
  if (perf.getEntriesByName('first-contentful-paint').length > 0) return afterPaint(fn, limitMs);
  let cancelNext: (() => void) | null = null;
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    stop();
    cancelNext = afterPaint(fn, limitMs);
  });
  const fallback = setTimeout(() => {
    stop();
    fn();
  }, limitMs);
  const stop = () => {
    observer.disconnect();
    clearTimeout(fallback);
  };
  observer.observe({ type: 'paint', buffered: true });
  return () => {
    stop();
    cancelNext?.();
  };
}
