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
