/**
 * How long the first render waits for the first screen's chunk, already on its way. Rendered before it
 * arrives, the app shows its loading fallback and React then keeps that on screen for at least 300 ms (its
 * Suspense reveal throttle): on /login the form came ~260 ms after its chunk. Past this, render anyway.
 */
export const FIRST_SCREEN_WAIT_MS = 400;

/**
 * The same wait when the page came with its screen already painted (ADR 029): there the fallback would
 * replace a screen the user already sees, so the app waits for the chunk far longer before showing it.
 */
export const PREPAINTED_WAIT_MS = 10_000;

/**
 * Runs `render` once the first screen's chunk (`firstScreen`, null when none was asked for early) is in,
 * has failed, or `waitMs` has passed, whichever comes first. A chunk that fails is the route's to report.
 */
export function renderWhenFirstScreenReady(
  firstScreen: Promise<unknown> | null,
  render: () => void,
  waitMs = FIRST_SCREEN_WAIT_MS,
): void {
  if (!firstScreen) {
    render();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    render();
  };
  const timer = setTimeout(once, waitMs);
  firstScreen.then(once, once);
}
