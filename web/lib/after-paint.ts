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
