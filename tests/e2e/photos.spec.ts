import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';
import exifr from 'exifr';
import sharp from 'sharp';
import { OFFLINE_NOISE, cutNetwork, restoreNetwork } from './support/network.ts';

// Issue 11, proof: on a phone, offline from a cold start, 10 photos of 12 MP are picked, shown at once as
// thumbnails, survive closing the page, and once the device is back online land on the server compressed
// (<= 1 MB, <= 2560 px), with the device's sha256, the capture time and no location. A blob-lane failure
// (the first PUT fails) blocks nothing and the photo lands on a retry.

const PHONE = { width: 390, height: 844 };
const SEEDED = 'Riverside Medical Office Building';
const TAKEN = '2026:05:04 07:12:09';

test.use({ viewport: PHONE, hasTouch: true, isMobile: true, timezoneId: 'UTC' });

interface ServerPhoto {
  id: string;
  projectId: string;
  originalName: string | null;
  description: string | null;
  sha256: string | null;
  blobStatus: string;
  capturedAt: string | null;
  tags: string[];
}

let offline = false;
function watchConsole(page: Page, problems: string[]) {
  // Offline, failed requests are expected; so is the failed upload the test itself causes.
  recordProblems(
    page,
    problems,
    (msg) => (offline && OFFLINE_NOISE.test(msg.text())) || /status of 500/.test(msg.text()),
  );
}

/** A 12 MP JPEG like a phone's (4000x3000, textured, ~4 MB) with a capture time and a GPS position. */
async function phonePhoto(n: number): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 17 + n;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = ((seed >> 16) % 24) - 12;
      const i = (y * width + x) * 3;
      raw[i] = ((x * 255) / width + noise + n * 20) & 255;
      raw[i + 1] = ((y * 255) / height + noise) & 255;
      raw[i + 2] = ((x + y) / 16 + noise) & 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .withExif({
      IFD0: { Make: 'SiteCam', Model: 'Test 12MP' },
      IFD2: { DateTimeOriginal: TAKEN },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '39/1 44/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '104/1 59/1 0/1',
      },
    })
    .toBuffer();
}

/** The photo bytes the device holds (IndexedDB `blobs`), as their sha256 recomputed in the page. */
function deviceBlobHashes(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases())
      .map((d) => d.name ?? '')
      .filter((n) => n.startsWith('sitecommand-'));
    const hashes: string[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains('blobs')) continue;
      const records = await new Promise<{ bytes: ArrayBuffer }[]>((resolve, reject) => {
        const req = db.transaction('blobs').objectStore('blobs').getAll();
        req.onsuccess = () => resolve(req.result as { bytes: ArrayBuffer }[]);
        req.onerror = () => reject(req.error);
      });
      for (const r of records) {
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', r.bytes));
        hashes.push([...digest].map((b) => b.toString(16).padStart(2, '0')).join(''));
      }
      db.close();
    }
    return hashes;
  });
}

async function serverPhotos(page: Page, stamp: string): Promise<ServerPhoto[]> {
  const res = await page.request.get('/api/photos');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as ServerPhoto[]).filter((p) => p.originalName?.startsWith(stamp));
}

const photoCards = (page: Page) => page.getByRole('list', { name: 'Photos' }).getByRole('listitem');

test('offline from a cold start: 10 photos of 12 MP are kept on the phone and land compressed, without location', async ({
  context,
  page,
}) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  const stamp = `P${Date.now()}`;
  const files = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => ({
      name: `${stamp}-${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await phonePhoto(i),
    })),
  );
  for (const f of files) expect(f.buffer.byteLength).toBeLessThanOrEqual(10_485_760);

  await signInByApi(page, 'admin@summit.test');
  await page.goto('/photos');
  await expect(page.getByRole('heading', { level: 1, name: 'Photo Gallery' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByTestId('photo-count')).toHaveText(/^\d+ of \d+ photos$/, { timeout: 20_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  // Cold start with no network.
  offline = true;
  await cutNetwork(context);
  await page.close();
  let phone = await context.newPage();
  watchConsole(phone, problems);
  await phone.goto('/photos');
  await expect(phone.getByRole('heading', { level: 1, name: 'Photo Gallery' })).toBeVisible({
    timeout: 20_000,
  });

  await phone.getByRole('button', { name: 'Upload Photos' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Upload Photos' });
  await dialog.getByRole('combobox', { name: 'Project *' }).click();
  await phone.getByRole('option', { name: SEEDED }).click();
  await dialog.getByLabel('Description').fill('Level 3 slab pour');
  await dialog.getByLabel('Tags (comma-separated)').fill('concrete, level 3, , pour');
  await dialog.locator('input[type=file]').setInputFiles(files);
  await expect(dialog.getByRole('list', { name: 'Selected photos' }).getByRole('listitem')).toHaveCount(10);
  await dialog.getByRole('button', { name: 'Upload Photos' }).click();
  await expect(dialog).toBeHidden({ timeout: 120_000 });

  // Ten thumbnails at once, each drawn from the device.
  const mine = photoCards(phone).filter({ hasText: 'Level 3 slab pour' });
  await expect(mine).toHaveCount(10);
  await expect
    .poll(() =>
      mine
        .locator('img')
        .evaluateAll(
          (imgs) =>
            imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)
              .length,
        ),
    )
    .toBe(10);
  const thumbWidths = await mine
    .locator('img')
    .evaluateAll((imgs) =>
      imgs.map((i) => Math.max((i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight)),
    );
  for (const w of thumbWidths) expect(w).toBeLessThanOrEqual(400);
  await expect(mine.first().getByRole('button', { name: 'Show photos tagged concrete' })).toBeVisible();
  expect(await serverPhotos(phone, stamp)).toEqual([]);

  // Closed and reopened offline: all there, waiting.
  await phone.close();
  phone = await context.newPage();
  watchConsole(phone, problems);
  await phone.goto('/photos');
  const reopened = photoCards(phone).filter({ hasText: 'Level 3 slab pour' });
  await expect(reopened).toHaveCount(10, { timeout: 20_000 });
  await expect(reopened.getByText('Waiting to sync')).toHaveCount(10);
  await expect(reopened.locator('[data-photo-state="on-device"]')).toHaveCount(10);
  const onDevice = await deviceBlobHashes(phone);
  // A phone screen: nothing scrolls sideways.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  // View opens the photo inside the app, offline, from the device's bytes (a new tab in an installed app
  // would be the browser's no-internet page).
  await reopened
    .first()
    .getByRole('button', { name: /^View / })
    .click();
  const viewer = phone.getByRole('dialog', { name: 'Level 3 slab pour' });
  await expect(viewer.getByRole('img', { name: 'Level 3 slab pour' })).toHaveAttribute('src', /^blob:/);
  await phone.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Back online; the first photo upload fails once.
  let failedPuts = 0;
  await restoreNetwork(context, [phone]);
  offline = false;
  await context.route('**/api/sync/blobs/**', async (route) => {
    if (route.request().method() === 'PUT' && failedPuts === 0) {
      failedPuts++;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"message":"boom","code":"INTERNAL"}',
      });
      return;
    }
    await route.fallback();
  });
  await phone.evaluate(() => window.dispatchEvent(new Event('online')));

  // The rows (data) arrive whatever the bytes do.
  await expect.poll(async () => (await serverPhotos(phone, stamp)).length, { timeout: 30_000 }).toBe(10);
  await expect
    .poll(async () => (await serverPhotos(phone, stamp)).filter((p) => p.blobStatus === 'present').length, {
      timeout: 90_000,
    })
    .toBe(10);
  expect(failedPuts).toBe(1);

  const landed = await serverPhotos(phone, stamp);
  for (const photo of landed) {
    expect(photo.capturedAt).toBe('2026-05-04T07:12:09.000Z');
    expect(photo.tags).toEqual(['concrete', 'level 3', 'pour']);
    const res = await phone.request.get(`/api/photos/${photo.id}/file`);
    expect(res.status()).toBe(200);
    const bytes = await res.body();
    expect(bytes.byteLength).toBeLessThanOrEqual(1_000_000);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(2560);
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeGreaterThanOrEqual(2000);
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(sha).toBe(photo.sha256);
    expect(onDevice).toContain(sha);
    const gps = (await exifr.gps(bytes).catch(() => undefined)) as { latitude?: number } | undefined;
    expect(gps?.latitude).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  }
  await expect(reopened.locator('[data-photo-state="uploaded"]')).toHaveCount(10, { timeout: 30_000 });
  expect(problems).toEqual([]);
});

test('the camera button on a project card opens Upload New; a turned photo lands upright and a blank one is refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  const stamp = `R${Date.now()}`;
  await signInByApi(page, 'crew@summit.test');
  await page.goto('/projects');
  const card = page.getByRole('article', { name: SEEDED });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Upload photo' }).click();
  const dialog = page.getByRole('dialog', { name: `${SEEDED} Photos` });
  await expect(dialog.getByRole('tab', { name: 'Upload New', selected: true })).toBeVisible();

  // Stored landscape, shown portrait: EXIF orientation 6 (the phone was held upright).
  const turned = await sharp(await phonePhoto(3))
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 85 })
    .toBuffer();
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: `${stamp}-upright.jpg`, mimeType: 'image/jpeg', buffer: turned });
  await expect(dialog.getByLabel('Description (optional)')).toHaveValue(`Uploaded ${stamp}-upright.jpg`);
  await dialog.getByRole('button', { name: 'Upload Photos' }).click();
  await expect(dialog.getByRole('tab', { name: /^View Photos \(\d+\)$/, selected: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText('Photo uploaded successfully', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: `Open Uploaded ${stamp}-upright.jpg` })).toBeVisible();

  await expect
    .poll(async () => (await serverPhotos(page, stamp)).filter((p) => p.blobStatus === 'present').length, {
      timeout: 60_000,
    })
    .toBe(1);
  const [landed] = await serverPhotos(page, stamp);
  const bytes = await (await page.request.get(`/api/photos/${landed!.id}/file`)).body();
  const meta = await sharp(bytes).metadata();
  expect(meta.width).toBe(1920);
  expect(meta.height).toBe(2560);
  expect(meta.orientation).toBeUndefined();

  // A photo that is one flat colour (what a failed canvas gives) is not kept.
  await dialog.getByRole('tab', { name: 'Upload New' }).click();
  const grey = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: `${stamp}-grey.jpg`, mimeType: 'image/jpeg', buffer: grey });
  await dialog.getByRole('button', { name: 'Upload Photos' }).click();
  await expect(
    page.getByText(/^Failed to upload photo\. Please try again\..*The compressed photo is blank/),
  ).toBeVisible({
    timeout: 30_000,
  });
  expect((await serverPhotos(page, stamp)).length).toBe(1);
  expect(problems).toEqual([]);
});

test('the compression worker and the fallback library are served by the app and precached', async ({
  page,
}) => {
  await signInByApi(page, 'crew@summit.test');
  await page.goto('/photos');
  await expect(page.getByRole('heading', { level: 1, name: 'Photo Gallery' })).toBeVisible({
    timeout: 20_000,
  });
  const cached = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const urls: string[] = [];
    for (const key of await caches.keys()) {
      for (const req of await (await caches.open(key)).keys()) urls.push(req.url);
    }
    return urls;
  });
  const origin = new URL(page.url()).origin;
  const worker = cached.find((u) => /compress\.worker-[\w-]+\.js/.test(u));
  expect(worker?.startsWith(origin)).toBe(true);
  // The UMD build the fallback's own worker loads with importScripts (its libURL), never a CDN's.
  const libs = cached.filter((u) => /browser-image-compression-[\w-]+\.js/.test(u));
  expect(libs.length).toBeGreaterThan(0);
  const bodies = await Promise.all(libs.map(async (u) => (await page.request.get(u)).text()));
  expect(
    bodies.some((b) => b.includes('imageCompression') && /typeof exports|define\.amd|globalThis/.test(b)),
  ).toBe(true);
  expect(cached.some((u) => u.includes('cdn.jsdelivr.net'))).toBe(false);
});
