import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startCuttableProxy } from './support/cuttable-proxy.ts';
import { DEMO_PASSWORD, signIn, watchPage } from './support/watch-page.ts';

// Issue 9 item 7, sync/SPEC.md C14: with every page of the app closed, a change made offline reaches the
// server when the connection returns, pushed by the service worker on the real Background Sync event that
// headless Chromium itself fires when its (emulated) network comes back (no CDP dispatch needed). Not
// exercised here: a browser process that was closed too, and a real radio change (docs/decisions/005).
// The device's connection is cut twice over: Playwright's offline emulation, which tells the page and
// Chromium's Background Sync that the device is offline, and a proxy in front of the server, which cuts the
// network itself. Emulation and routes alone do not hold while a page closes (support/cuttable-proxy.ts).

/** The built worker the test server serves (playwright.config.ts builds into dist/ before the run). */
const SW_FILE = fileURLToPath(new URL('../../dist/sw.js', import.meta.url));

test('[C14] with every page closed, a project made offline reaches the server when the connection returns', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const proxy = await startCuttableProxy();
  const context = await browser.newContext({ baseURL, proxy: { server: proxy.url } });
  try {
    const page = await context.newPage();
    const watch = await watchPage(page, { allowNetworkErrors: true });
    // Who sent each push: a page (its engine) or the service worker.
    const pushes: ('page' | 'service worker')[] = [];
    context.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/sync/push')
        pushes.push(req.serviceWorker() ? 'service worker' : 'page');
    });
    const goOffline = async () => {
      proxy.cut();
      await context.setOffline(true);
    };
    const goOnline = async () => {
      proxy.restore();
      await context.setOffline(false);
    };

    await signIn(page, 'manager@summit.test');
    await page.goto('/projects');
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('article').first()).toBeVisible({ timeout: 20_000 });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    await goOffline();
    const name = `Closed App Yard ${Date.now()}`;
    await page.getByRole('button', { name: 'New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Project' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Location').fill('Golden, CO');
    await dialog.getByRole('button', { name: 'Create Project' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article', { name })).toBeVisible();

    // The write registered a one-off sync that waits for the network.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          const sync = (registration as { sync?: { getTags(): Promise<string[]> } } | undefined)?.sync;
          return sync ? sync.getTags() : [];
        }),
      )
      .toContain('sitecommand-outbox');
    watch.expectClean();

    // Every page closed before the connection returns; nothing of the app runs but its service worker.
    await page.close();
    expect(context.pages()).toHaveLength(0);
    // What the server holds, asked past the proxy.
    const signedIn = await request.post('/api/auth/login', {
      headers: { origin: new URL(baseURL!).origin },
      data: { email: 'manager@summit.test', password: DEMO_PASSWORD },
    });
    expect(signedIn.status()).toBe(200);
    const projectsOnServer = async () => {
      const res = await request.get('/api/projects');
      expect(res.ok()).toBe(true);
      return ((await res.json()) as { name: string; location: string }[]).filter((p) => p.name === name);
    };
    expect(await projectsOnServer()).toEqual([]);
    const pushesWhileOpen = pushes.length;

    await goOnline();
    await expect
      .poll(projectsOnServer, { timeout: 30_000 })
      .toEqual([expect.objectContaining({ name, location: 'Golden, CO' })]);
    // Network events of the worker may reach the test a moment after the server has the row.
    await expect.poll(() => pushes.slice(pushesWhileOpen)).toContain('service worker');
    expect(pushes.slice(pushesWhileOpen)).not.toContain('page');
  } finally {
    await context.close();
    await proxy.close();
  }
});

test('a new version of the service worker waits for the update prompt, and Reload switches to it', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // A page the worker controls (it claims the page that installed it, ADR 030; a reload makes sure).
  await page.reload();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // The next deploy: the same worker with one byte more on disk, which the browser treats as a new
  // version (the server reads dist/ on each request). Put back afterwards for the specs that follow.
  const original = await fs.readFile(SW_FILE, 'utf8');
  await fs.writeFile(SW_FILE, `${original}\n// next version\n`);
  try {
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
  } finally {
    await fs.writeFile(SW_FILE, original);
  }
  const prompt = page.getByRole('alertdialog', { name: 'A new version is available' });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  // Installed but not in charge: it never takes over by itself (no skipWaiting, no clientsClaim).
  const versions = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: Boolean(registration?.waiting), active: Boolean(registration?.active) };
    });
  await page.waitForTimeout(1_000);
  expect(await versions()).toEqual({ waiting: true, active: true });

  const reloaded = page.waitForEvent('load');
  await prompt.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect.poll(versions, { timeout: 15_000 }).toEqual({ waiting: false, active: true });
  await expect(prompt).toBeHidden();
  watch.expectClean();
});
