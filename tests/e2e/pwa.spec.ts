import { expect, test } from '@playwright/test';
import { signIn, watchPage } from './support/watch-page.ts';

test('the manifest names the app, with 192/512 and maskable icons, standalone, theme colour and start URL', async ({
  page,
  request,
}) => {
  const watch = await watchPage(page);
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = await (await request.get(href ?? '')).json();
  expect(manifest).toMatchObject({
    name: 'SiteCommand',
    short_name: 'SiteCommand',
    display: 'standalone',
    theme_color: '#0f766e',
    start_url: '/',
  });
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
  expect(icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`)).toEqual(
    expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
  );
  for (const icon of icons) {
    const res = await request.get(icon.src);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('image/png');
  }
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f766e');
  watch.expectClean();
});

test('the service worker registers from a script, precaches the shell and never caches /api', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await page.goto('/');
  // No inline script anywhere: the CSP (script-src 'self') would block it.
  expect(await page.locator('script:not([src])').count()).toBe(0);
  const scriptURL = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return reg.active?.scriptURL ?? '';
  });
  expect(scriptURL).toMatch(/\/sw\.js$/);

  await signIn(page, 'manager@summit.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) urls.push(new URL(req.url).pathname);
    }
    return urls;
  });
  expect(cached).toContain('/index.html');
  expect(cached.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true);
  expect(cached.filter((u) => u.startsWith('/api/'))).toEqual([]);
  watch.expectClean();
});

test('on a second visit the app shell loads with no network', async ({ context, page }) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();

  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible({ timeout: 15_000 });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  watch.expectClean();
});

test('a signed-in first visit installs the service worker only after its first download, and then opens offline', async ({
  browser,
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  // A session cookie and nothing else: the device's storage was cleared (Safari drops a site's storage after
  // 7 days unused; the server's cookie outlives it), so this visit downloads the mirror and installs the app.
  await signIn(page, 'manager@summit.test');
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    storageState: { cookies: await page.context().cookies(), origins: [] },
  });
  try {
    await context.addInitScript(() => {
      const register = ServiceWorkerContainer.prototype.register;
      ServiceWorkerContainer.prototype.register = function (...args) {
        (window as unknown as { swRegisteredAt: number }).swRegisteredAt = performance.now();
        return register.apply(this, args);
      };
    });
    const visit = await context.newPage();
    const watch = await watchPage(visit, { allowNetworkErrors: true });
    await visit.goto('/dashboard');
    await visit.evaluate(() => navigator.serviceWorker.ready);
    const order = await visit.evaluate(() => {
      const pulls = performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === '/api/sync/pull') as PerformanceResourceTiming[];
      return {
        registeredAt: (window as unknown as { swRegisteredAt?: number }).swRegisteredAt ?? null,
        pulls: pulls.length,
        firstPullEnd: pulls.length ? Math.min(...pulls.map((p) => p.responseEnd)) : null,
      };
    });
    expect(order.pulls, 'the first download ran').toBeGreaterThan(0);
    expect(order.registeredAt, 'the worker was registered').not.toBeNull();
    // The worker's first install (every asset of the app) waited for the download, not the other way round.
    expect(order.registeredAt!).toBeGreaterThan(order.firstPullEnd!);

    // And the app it installed opens with no network.
    await context.setOffline(true);
    await visit.reload();
    await expect(visit.getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 15_000 });
    watch.expectClean();
  } finally {
    await context.close();
  }
});
