import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';
import sharp from 'sharp';
import { OFFLINE_NOISE, cutNetwork, restoreNetwork } from './support/network.ts';

// Issue 11, Project Logs, on a phone and offline from a cold start: a log with 3 photos is written and
// edited with no network, survives closing the app, and reaches the server with its photos once online.

const PHONE = { width: 390, height: 844 };
/** A seeded project of Summit Builders (api/db/seed). */
const SEEDED_PROJECT = 'Riverside Medical Office Building';

test.use({ viewport: PHONE, hasTouch: true });

interface ServerLog {
  id: string;
  title: string;
  content: string;
  projectId: string;
  images: string[];
}
interface ServerPhoto {
  id: string;
  projectId: string;
  originalName: string | null;
}

let offline = false;

function watchConsole(page: Page, problems: string[]) {
  // Offline, failed requests are expected. A photo whose bytes are still on the device (404 BLOB_PENDING,
  // or no network) is the photo lane's business, not this screen's.
  recordProblems(
    page,
    problems,
    (msg) =>
      (offline && OFFLINE_NOISE.test(msg.text())) || /\/api\/photos\/[^/]+\/file$/.test(msg.location().url),
  );
}

async function serverLogs(request: APIRequestContext): Promise<ServerLog[]> {
  const res = await request.get('/api/logs');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerLog[];
}

/**
 * Small, distinct JPEGs made here: a gradient per photo (distinct hashes), since the photo pipeline refuses
 * a flat-colour result as blank.
 */
function jpegs(count: number) {
  const [width, height] = [64, 48];
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const raw = Buffer.alloc(width * height * 3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const p = (y * width + x) * 3;
          raw[p] = (40 + 60 * i + x * 2) & 255;
          raw[p + 1] = (y * 4) & 255;
          raw[p + 2] = (200 - 50 * i + x + y) & 255;
        }
      }
      return {
        name: `site-${i + 1}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await sharp(raw, { raw: { width, height, channels: 3 } })
          .jpeg()
          .toBuffer(),
      };
    }),
  );
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

async function pick(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Nothing on the page scrolls sideways at phone width. */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('offline from a cold start: a log with 3 photos, edited, kept across a restart, synced, deleted', async ({
  context,
  page,
}) => {
  test.setTimeout(150_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'manager@summit.test');
  await page.goto('/logs');
  await expect(page.getByRole('heading', { level: 1, name: 'Project Logs' })).toBeVisible();
  // The seeded logs arrive with the first download; then the service worker must hold the app shell.
  await expect(page.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.close();

  // Cold start with no network.
  offline = true;
  await cutNetwork(context);
  let phone = await context.newPage();
  watchConsole(phone, problems);
  await phone.goto('/logs');
  await expect(phone.getByRole('heading', { level: 1, name: 'Project Logs' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(phone.getByRole('article').first()).toBeVisible();
  expect(await sideways(phone)).toBeLessThanOrEqual(0);

  const title = `Slab pour level 3 ${Date.now()}`;
  await phone.getByRole('button', { name: 'Create Log' }).click();
  const create = phone.getByRole('dialog', { name: 'Create Project Log' });
  await pick(phone, create, 'Project', SEEDED_PROJECT);
  await create.getByLabel('Title').fill(title);
  // A pasted link is one long word: it wraps inside the card, it does not widen the page.
  const content = `Poured 40 m3, cylinders taken: https://example.com/reports/${'cylinder-results-'.repeat(8)}L3`;
  await create.getByLabel('Content').fill(content);
  await pick(phone, create, 'Type', 'Milestone');
  await create.getByLabel('Add photos').setInputFiles(await jpegs(3));
  await expect(create.getByRole('list', { name: 'New photos' }).getByRole('listitem')).toHaveCount(3);
  await create.getByRole('button', { name: 'Create Log' }).click();
  await expect(create).toBeHidden();

  const created = card(phone, title);
  await expect(created).toBeVisible();
  await expect(created.getByRole('list', { name: 'Photos' }).getByRole('link')).toHaveCount(3);
  await expect(created.getByText('Milestone', { exact: true })).toBeVisible();
  await expect(created.getByText('Waiting to sync')).toBeVisible();
  expect(await sideways(phone)).toBeLessThanOrEqual(0);
  // A photo opens from the device's own bytes: the server's address would be the browser's offline page.
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    created.getByRole('list', { name: 'Photos' }).getByRole('link').first().click(),
  ]);
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await tab.close();

  // Only the title is edited.
  const renamed = `${title} (checked)`;
  await created.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = phone.getByRole('dialog', { name: 'Edit Project Log' });
  await expect(edit.getByRole('list', { name: 'Current photos' }).getByRole('listitem')).toHaveCount(3);
  await edit.getByLabel('Title').fill(renamed);
  await edit.getByRole('button', { name: 'Update Log' }).click();
  await expect(edit).toBeHidden();
  await expect(card(phone, renamed)).toBeVisible();
  expect(await sideways(phone)).toBeLessThanOrEqual(0);

  // Nothing has reached the server yet.
  expect((await serverLogs(phone.request)).some((l) => l.title.startsWith(title))).toBe(false);

  // Closed and reopened, still offline: the log is there, marked waiting.
  await phone.close();
  phone = await context.newPage();
  watchConsole(phone, problems);
  const pushed: { id: number; table: string; op: string; rowId: string; data: Record<string, unknown> }[] =
    [];
  // On the context, not the page: back online, the service worker's background sync may push first, and a
  // page does not see its worker's requests.
  context.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/sync/push') {
      const body = req.postDataJSON() as { mutations: typeof pushed };
      pushed.push(...body.mutations);
    }
  });
  await phone.goto('/logs');
  const reopened = card(phone, renamed);
  await expect(reopened).toBeVisible({ timeout: 20_000 });
  await expect(reopened.getByText('Waiting to sync')).toBeVisible();
  await expect(reopened.getByRole('list', { name: 'Photos' }).getByRole('link')).toHaveCount(3);

  // Back online: the log, its photos and their bytes reach the server.
  await restoreNetwork(context, [phone]);
  offline = false;
  await expect
    .poll(async () => (await serverLogs(phone.request)).find((l) => l.title === renamed), { timeout: 30_000 })
    .toMatchObject({ content });
  const log = (await serverLogs(phone.request)).find((l) => l.title === renamed);
  expect(log?.images).toHaveLength(3);
  const photoIds = (log?.images ?? []).map((u) => /^\/api\/photos\/([0-9a-f-]{36})\/file$/.exec(u)?.[1]);
  expect(photoIds.every(Boolean)).toBe(true);
  const photos = (await (await phone.request.get('/api/photos')).json()) as ServerPhoto[];
  for (const id of photoIds) {
    expect(photos.find((p) => p.id === id)).toMatchObject({ projectId: log?.projectId });
    await expect
      .poll(async () => (await phone.request.get(`/api/photos/${id}/file`)).status(), { timeout: 30_000 })
      .toBe(200);
  }
  // The edit went up as a patch of the title alone (a push may be replayed: mutations count once per id).
  const patches = new Map(
    pushed
      .filter((m) => m.table === 'project_logs' && m.op === 'patch' && m.rowId === log?.id)
      .map((m) => [m.id, m.data]),
  );
  expect([...patches.values()]).toEqual([{ title: renamed }]);
  await expect(card(phone, renamed).getByText('Waiting to sync')).toHaveCount(0, { timeout: 15_000 });

  // A thumbnail opens the full image in a new tab, from the bytes this device took.
  const [popup] = await Promise.all([
    phone.waitForEvent('popup'),
    card(phone, renamed).getByRole('link').first().click(),
  ]);
  await expect.poll(() => popup.url()).toMatch(/^blob:/);
  await popup.waitForLoadState();
  expect(await popup.evaluate(() => document.contentType)).toBe('image/jpeg');
  await popup.close();

  // Deleted, after a confirmation.
  await card(phone, renamed)
    .getByRole('button', { name: `Delete ${renamed}` })
    .click();
  const confirm = phone.getByRole('alertdialog', { name: 'Delete log?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(card(phone, renamed)).toHaveCount(0);
  await expect
    .poll(async () => (await serverLogs(phone.request)).some((l) => l.id === log?.id), { timeout: 30_000 })
    .toBe(false);

  expect(problems).toEqual([]);
});
