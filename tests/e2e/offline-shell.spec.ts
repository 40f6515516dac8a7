import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn, watchPage } from './support/watch-page.ts';

async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
}

async function goOnline(context: BrowserContext, page: Page) {
  await context.unroute('**/*');
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

test('a cold start with no network opens the last signed-in user’s app, marked offline', async ({
  context,
  page,
}) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'crew@summit.test');
  await page.evaluate(() => navigator.serviceWorker.ready);
  const firstName = await page.getByTestId('user-first-name').innerText();
  // The first download must have finished: before it, a mirror screen shows its progress (issue 9 item 6).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  // Its heading is there from the first paint (ADR 026); the screen's own sections come after the download.
  await expect(page.getByRole('heading', { level: 2, name: /^Active Projects/ })).toBeVisible({
    timeout: 15_000,
  });
  await page.close();

  await goOffline(context);
  const cold = await context.newPage();
  const coldWatch = await watchPage(cold, { allowNetworkErrors: true });
  await cold.goto('/dashboard');
  await expect(cold.getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 15_000 });
  await expect(cold.getByTestId('company-name')).toHaveText('Summit Builders');
  await expect(cold.getByTestId('user-first-name')).toHaveText(firstName);
  await expect(cold.getByRole('button', { name: /^Sync status, Offline/ })).toBeVisible();
  await expect(cold.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
    'Dashboard',
    'Projects',
    'Tasks',
    'Schedule',
    'Photos',
    'Project Logs',
    'Crew',
  ]);
  await cold.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(cold.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  // The screen's own code came from the service worker's cache: its sections, not only the frame's heading.
  await expect(cold.getByRole('heading', { level: 2, name: /^Active Projects/ })).toBeVisible();

  // Back online: the session is confirmed with the server and the indicator says so.
  await goOnline(context, cold);
  await expect(cold.getByRole('button', { name: /^Sync status, (Online|Syncing)/ })).toBeVisible({
    timeout: 15_000,
  });
  watch.expectClean();
  coldWatch.expectClean();
});

test('a 401 clears the remembered user: an offline start after signing out shows the public pages', async ({
  context,
  page,
}) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'crew@summit.test');
  await page.evaluate(() => navigator.serviceWorker.ready);
  expect(await page.evaluate(() => localStorage.getItem('sitecommand:last-user'))).toContain(
    'crew@summit.test',
  );
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('sitecommand:last-user'))).toBeNull();

  await goOffline(context);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible({ timeout: 15_000 });
  watch.expectClean();
});

test('signing out with no signal ends the session when the signal returns: the next person gets sign-in', async ({
  context,
  page,
}) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'crew@summit.test');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await goOffline(context);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The logout never reached the server, and the session cookie (HttpOnly) is still in the browser.
  expect((await context.cookies()).map((c) => c.name)).toContain('sc_session');

  await goOnline(context, page);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login(\?|$)/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: /sign in/i }).first()).toBeVisible();
  const names = (await context.cookies()).map((c) => c.name);
  expect(names).not.toContain('sc_session');
  expect(names).not.toContain('sc_signed_out');
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  watch.expectClean();
});

test('signing out with unsent changes asks first and keeps them in that user’s own database', async ({
  page,
}) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  // Keep the queue from draining while the test looks at it: on the context, so the service worker's
  // background drain (SPEC C14), which a page route does not see, cannot send it either.
  await page.context().route('**/api/sync/**', (route) => route.abort('internetdisconnected'));
  await signIn(page, 'crew@summit.test');
  const crew = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
  const dbName = `sitecommand-${crew.companyId}-${crew.id}`;

  // One queued change, written the way the sync module stores it.
  await page.evaluate(async (name) => {
    const open = indexedDB.open(name);
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('outbox', 'readwrite');
      tx.objectStore('outbox').add({
        id: 1,
        op: 'patch',
        table: 'projects',
        rowId: crypto.randomUUID(),
        data: { name: 'Unsent' },
        baseVersion: null,
        clientTime: Date.now(),
        createdAt: Date.now(),
      });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, dbName);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('You have 1 change that has not been sent');
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Another user on the same device gets a database of their own; the first user's outbox stays put.
  await signIn(page, 'manager@summit.test');
  const manager = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
  const managerDb = `sitecommand-${manager.companyId}-${manager.id}`;
  // Mirrors and outboxes only: `sitecommand-query-cache` holds the office screens' kept answers (ADR 016).
  const mirrors = () =>
    page.evaluate(async () =>
      (await indexedDB.databases())
        .map((d) => d.name)
        .filter((n) => n !== 'sitecommand-query-cache')
        .sort(),
    );
  await expect.poll(mirrors).toEqual([dbName, managerDb].sort());
  const count = await page.evaluate(async (name) => {
    const open = indexedDB.open(name);
    const db = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
    const n = await new Promise<number>((resolve) => {
      const req = db.transaction('outbox').objectStore('outbox').count();
      req.onsuccess = () => resolve(req.result);
    });
    db.close();
    return n;
  }, dbName);
  expect(count).toBe(1);
  watch.expectClean();
});

test('Sign Out names a photo whose bytes have not gone up, and they go up when the same user signs in again', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page, { allowNetworkErrors: true });
  const stamp = `S${Date.now()}`;
  const serverPhoto = async () => {
    const res = await page.request.get('/api/photos');
    expect(res.ok()).toBe(true);
    const photos = (await res.json()) as { originalName: string | null; blobStatus: string }[];
    return photos.find((p) => p.originalName === `${stamp}.jpg`)?.blobStatus ?? 'absent';
  };
  // A weak signal that lets the photo's row through but never its bytes (on the context: the service
  // worker's requests too).
  const bytes = '**/api/sync/blobs/**';
  await context.route(bytes, (route) => route.abort('internetdisconnected'));
  await signIn(page, 'crew@summit.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  const card = page.getByRole('article', { name: 'Riverside Medical Office Building' });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Upload photo' }).click();
  const photo = await sharp({
    create: {
      width: 800,
      height: 600,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  const gallery = page.getByRole('dialog', { name: 'Riverside Medical Office Building Photos' });
  await gallery
    .locator('input[type=file]')
    .setInputFiles({ name: `${stamp}.jpg`, mimeType: 'image/jpeg', buffer: photo });
  await gallery.getByRole('button', { name: 'Upload Photos' }).click();
  await expect.poll(serverPhoto, { timeout: 30_000 }).toBe('pending');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Sign Out' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(
    'You have 1 photo that has not been sent to the server yet. They stay saved on this device and are ' +
      'sent the next time you sign in here.',
  );
  await dialog.getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await context.unroute(bytes);
  await signIn(page, 'crew@summit.test');
  await expect.poll(serverPhoto, { timeout: 30_000 }).toBe('present');
  watch.expectClean();
});

test('the first session after signing in keeps working offline: the worker takes charge of the page (ADR 030)', async ({
  context,
  page,
}) => {
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'crew@summit.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Active Projects/ })).toBeVisible({
    timeout: 15_000,
  });
  // The worker installs after the first download; this very page, not a reload, must become its client.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });

  await goOffline(context);
  // Project Logs' code has not been loaded by this page: it comes from the worker's cache, or not at all.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Project Logs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Project Logs' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Log' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);
  await goOnline(context, page);
  watch.expectClean();
});
