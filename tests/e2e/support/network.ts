import type { BrowserContext, Page, Route } from '@playwright/test';

/**
 * What a browser logs for a request that could not go out: expected while the device is offline. The
 * second is the service worker's script fetch, when the network drops as the worker registers (the app
 * tries again once it is back: `nextRegisterTry`).
 */
export const OFFLINE_NOISE =
  /Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED|NETWORK_CHANGED|NAME_NOT_RESOLVED)|An unknown error occurred when fetching the script/;

const abortApi = (route: Route) => route.abort('internetdisconnected');

/**
 * The device loses its connection. Playwright's setOffline does not cover the service worker's own
 * fetches (DESIGN.md section 12), so the API is aborted by route as well. Neither holds for a page that is
 * closing (its last code runs after its DevTools session is gone): a test whose claim depends on that
 * cuts the network at `support/cuttable-proxy.ts` too.
 */
export async function cutNetwork(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/api/**', abortApi);
  // setOffline keeps an open event stream open, which would carry changes in (SPEC L16); the app closes
  // it when the page hears `offline`, which an emulated loss of the network does not always fire.
  for (const page of context.pages())
    await page.evaluate(() => window.dispatchEvent(new Event('offline'))).catch(() => {});
}

/** The connection returns; pages of an offline context may not fire `online`, so it is fired in each. */
export async function restoreNetwork(context: BrowserContext, pages: Page[] = []): Promise<void> {
  await context.unroute('**/api/**', abortApi);
  await context.setOffline(false);
  for (const page of pages) await page.evaluate(() => window.dispatchEvent(new Event('online')));
}
