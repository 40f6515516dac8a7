import { expect, test } from '@playwright/test';
import { cutNetwork, OFFLINE_NOISE, restoreNetwork } from './support/network.ts';
import { signInByApi } from './support/watch-page.ts';

// A crew member signs in on a new phone with a weak signal (sync/SPEC.md C10, C21, L4): the first download
// takes several pages, the server fails part-way, the tab is opened again, the connection drops, and it
// comes back. Every screen says the download is unfinished (with how far it got) and that it goes on;
// none shows an empty state or "All sent" over part of the data; the download ends equal to the API.

const PHONE = { width: 390, height: 844 };
/** Spec 01 section 2: a seeded active project of Summit Builders. */
const SEEDED = 'Riverside Medical Office Building';
/** Rows per pull page here: the demo company then takes many pages, as a large one does at 1,000. */
const PAGE_ROWS = 40;
/** What a screen says about a mirror it takes for complete; none may show while the download is unfinished. */
const FALSE_TEXTS = [
  'No active projects',
  'No completed projects',
  'No projects yet',
  'No tasks found',
  'No communications or change orders yet',
];

// The first download needs no service worker; without one, every request of the page meets the routes.
test.use({ viewport: PHONE, serviceWorkers: 'block' });

test('a first download cut part-way says it is unfinished and goes on, then ends equal to the API', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const pages: { from: number; to: number; changes: number }[] = [];
  let failing = false;
  await context.route('**/api/sync/pull**', async (route) => {
    const url = new URL(route.request().url());
    if (failing) {
      // The server restarting behind its proxy: an HTML 502.
      await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
      return;
    }
    url.searchParams.set('limit', String(PAGE_ROWS));
    const response = await route.fetch({ url: url.toString() });
    const body = (await response.json()) as { changes?: unknown[]; cursor?: number };
    if (body.changes) {
      pages.push({
        from: Number(url.searchParams.get('cursor')),
        to: body.cursor!,
        changes: body.changes.length,
      });
      // The server goes away once two pages have reached the phone.
      if (pages.length === 2) failing = true;
    }
    await route.fulfill({ response, json: body });
  });
  // Records every false text the page ever renders, however briefly.
  await page.addInitScript((texts: string[]) => {
    const seen: string[] = [];
    (window as unknown as { falseSeen: string[] }).falseSeen = seen;
    new MutationObserver(() => {
      const body = document.body?.innerText ?? '';
      for (const t of texts) if (body.includes(t) && !seen.includes(t)) seen.push(t);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, FALSE_TEXTS);
  const falseSeen = () => page.evaluate(() => (window as unknown as { falseSeen: string[] }).falseSeen);
  page.on('console', (m) => {
    if (m.type() === 'error' && !OFFLINE_NOISE.test(m.text()) && !/502/.test(m.text()))
      throw new Error(`console error: ${m.text()}`);
  });

  await signInByApi(page, 'crew@summit.test');
  await page.goto('/projects');
  const gate = page.getByTestId('first-download');
  const word = page.getByTestId('sync-word');
  const rowsSoFar = () => `${pages.reduce((n, p) => n + p.changes, 0)} rows so far`;

  // The server fails after page 2: the screen says so, how far it got, and that it goes on by itself.
  await expect(gate).toContainText(
    'The download did not finish. The server is not available right now, error 502. It is tried again automatically.',
    { timeout: 20_000 },
  );
  await expect(gate).toContainText(`Downloading your data... ${rowsSoFar()}`);
  // Nothing waits to be sent, but the data is not all here: not "All sent".
  await expect(word).toHaveText('Not synced');

  // The tab is opened again while the server still fails: the count goes on from what is on the phone.
  await page.reload();
  await expect(gate).toContainText(`Downloading your data... ${rowsSoFar()}`, { timeout: 20_000 });
  await expect(gate).toContainText('It is tried again automatically.', { timeout: 20_000 });
  expect(pages).toHaveLength(2);

  // The dashboard's Communications tab reads the device too: it shows the download, not a part of the feed.
  await page.goto('/dashboard?tab=communications');
  await expect(gate).toContainText(`Downloading your data... ${rowsSoFar()}`, { timeout: 20_000 });
  await expect(page.getByRole('tabpanel').getByTestId('first-download')).toBeVisible();
  await page.goto('/projects');
  await expect(gate).toContainText(`Downloading your data... ${rowsSoFar()}`, { timeout: 20_000 });

  // The signal goes: the screen says the download is unfinished and waits for the connection.
  await cutNetwork(context);
  await expect(gate).toContainText(
    `The download of your data did not finish: ${rowsSoFar()}. It goes on when the connection returns.`,
  );
  await expect(word).toHaveText('Offline');

  // It comes back and the server is up again: the download goes on from page 3 to the end.
  failing = false;
  await restoreNetwork(context, [page]);
  await expect(page.getByRole('article', { name: SEEDED })).toBeVisible({ timeout: 30_000 });
  await expect(word).toHaveText('All sent', { timeout: 15_000 });
  expect(pages.length).toBeGreaterThan(3);
  for (let i = 1; i < pages.length; i++) expect(pages[i]!.from, `page ${i + 1}`).toBe(pages[i - 1]!.to);
  expect(await falseSeen()).toEqual([]);

  // The phone holds every task the API lists for this crew member, no more, no fewer.
  const listed = (await (await page.request.get('/api/tasks')).json()) as unknown[];
  await page.goto('/tasks');
  await expect(page.getByText(`Showing ${listed.length} of ${listed.length} tasks`)).toBeVisible({
    timeout: 20_000,
  });
  expect(await falseSeen()).toEqual([]);
});
