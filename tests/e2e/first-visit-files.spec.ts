import { expect, test, type Page } from '@playwright/test';
import { SCREENS } from './support/screens.ts';
import { signInByApi, watchPage } from './support/watch-page.ts';

// What a first visit downloads before it shows anything (budget B10, ADR 037). A phone on HTTP/1.1 fetches
// six files at a time, so each extra wave of small script files is a round trip before the first screen.

/** The app's script files the page asks for (not the service worker's precache). */
function scriptsOf(page: Page): string[] {
  const files: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) files.push(url.pathname);
  });
  return files;
}

/** Resolves once the page has had an idle moment (what it starts once loaded has been asked for). */
const idle = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));

test.use({ serviceWorkers: 'block' });

test("a visitor's sign-in page never downloads the signed-in code", async ({ page }) => {
  const watch = await watchPage(page);
  const scripts = scriptsOf(page);
  const toaster = page.waitForResponse((r) => /\/assets\/toast-[\w-]+\.js$/.test(r.url()));
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  // The toaster is loaded lazily on every page, signed in or not: what it needs is loaded then too.
  await toaster;
  await idle(page);
  await idle(page);
  expect(scripts.filter((f) => /\/(signed-in|screens)-[\w-]+\.js$/.test(f))).toEqual([]);
  watch.expectClean();
});

test('a first signed-in visit shows the projects after at most 30 script files', async ({ page }) => {
  const watch = await watchPage(page);
  await signInByApi(page, 'admin@summit.test');
  const scripts = scriptsOf(page);
  await page.goto('/projects');
  await expect(SCREENS.projects.data(page)).toBeVisible();
  // Split automatically, every Radix package and every part two screens share was a file of its own: 48
  // files before this screen showed its projects (ADR 037).
  expect(scripts.length, scripts.join('\n')).toBeLessThanOrEqual(30);
  expect(scripts.some((f) => /\/signed-in-[\w-]+\.js$/.test(f))).toBe(true);
  expect(scripts.some((f) => /\/screens-[\w-]+\.js$/.test(f))).toBe(true);
  watch.expectClean();
});
