import { expect, test, type APIRequestContext, type ConsoleMessage, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'sitecommand-demo';

export interface WatchOptions {
  /** Offline tests: failed requests (net::ERR_*) are expected, not errors of the app. */
  allowNetworkErrors?: boolean;
}

/**
 * Records the page's console errors into `problems`, except those `expected` says the test itself causes,
 * and its uncaught errors with the page's address, name and stack: a message alone (once just "r", from
 * the minified build) cannot be traced to its code.
 */
export function recordProblems(
  page: Page,
  problems: string[],
  expected: (msg: ConsoleMessage) => boolean = () => false,
) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || expected(msg)) return;
    problems.push(`${page.url()}: ${msg.text()} (${msg.location().url ?? ''})`);
  });
  page.on('pageerror', (err) =>
    problems.push(`pageerror at ${page.url()}: ${err.name}: ${err.message}\n${err.stack ?? ''}`),
  );
}

/**
 * Collects console errors, uncaught exceptions and CSP violations of a page (and of pages opened later in
 * its context when called for them too). A 401 from the auth endpoints is the signed-out state, not an error.
 */
export async function watchPage(page: Page, options: WatchOptions = {}) {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  recordProblems(page, problems, (msg) => {
    const text = msg.text();
    if (/status of 401/.test(text) && /\/api\/auth\//.test(msg.location().url ?? '')) return true;
    return !!options.allowNetworkErrors && /net::ERR_|Failed to fetch/.test(text) && !/CSP/.test(text);
  });
  return {
    problems,
    /** Asserts nothing went wrong so far. */
    expectClean() {
      expect(problems, 'console errors, page errors or CSP violations').toEqual([]);
    },
  };
}

/** Signs in through the sign-in screen and waits for the shell. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
}

/**
 * Signs in through the API, as the app's own fetch would (the API checks Origin on writes): the session
 * cookie lands in the page's context (or the request context given), without going through the form.
 */
export async function signInByApi(
  target: Page | APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  const request = 'request' in target ? target.request : target;
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const res = await request.post('/api/auth/login', { headers: { origin }, data: { email, password } });
  expect(res.status()).toBe(200);
}
