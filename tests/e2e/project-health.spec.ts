import { expect, test, type Page } from '@playwright/test';
import { OFFLINE_NOISE, cutNetwork } from './support/network.ts';
import { signIn, watchPage } from './support/watch-page.ts';
import { keptCaches } from './support/kept-answers.ts';

// Issue 12, Project Health (spec 02 section 2; DESIGN.md section 9): Calculate Health for one project
// shows the scores the server stored, and they follow the formula; Add Risk records a risk; offline the
// writes are off with the reason; the screen fits a phone.

const PROJECT = 'Riverside Medical Office Building';
const OFFLINE_REASON =
  'Calculating health and adding risks need the server: they are turned off until you are back online.';

interface Metrics {
  projectId: string;
  overallHealthScore: number;
  scheduleHealth: number;
  budgetHealth: number;
  qualityHealth: number;
  resourceHealth: number;
  riskLevel: string;
}

async function openHealth(page: Page) {
  await page.goto('/project-health');
  await expect(page.getByRole('heading', { level: 1, name: 'Project Health' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Health Overview' })).toBeVisible({ timeout: 15_000 });
}

async function pickProject(page: Page, name: string) {
  await page.getByLabel('Project', { exact: true }).click();
  await page.getByRole('option', { name, exact: true }).click();
}

test('manager: Calculate Health for one project shows the stored scores, which follow the formula', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  await openHealth(page);
  const calculate = page.getByRole('button', { name: 'Calculate Health' });
  await expect(calculate).toBeDisabled();
  await pickProject(page, PROJECT);
  await expect(calculate).toBeEnabled();
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().includes('/calculate'),
  );
  await calculate.click();
  expect((await answered).status()).toBe(201);

  const projects = (await (await page.request.get('/api/projects')).json()) as { id: string; name: string }[];
  const projectId = projects.find((p) => p.name === PROJECT)?.id;
  const rows = (await (await page.request.get('/api/project-health-metrics')).json()) as Metrics[];
  const m = rows.find((r) => r.projectId === projectId);
  expect(m).toBeDefined();
  if (!m) return;
  // DESIGN.md section 9: overall = 0.35 schedule + 0.30 budget + 0.20 quality + 0.15 resources, rounded.
  expect(m.overallHealthScore).toBe(
    Math.round(
      0.35 * m.scheduleHealth + 0.3 * m.budgetHealth + 0.2 * m.qualityHealth + 0.15 * m.resourceHealth,
    ),
  );

  const card = page
    .getByRole('list', { name: 'Project health cards' })
    .getByRole('listitem', { name: PROJECT });
  await expect(
    card.getByRole('img', { name: `Overall health ${m.overallHealthScore} of 100` }),
  ).toBeVisible();
  const scores = card.getByRole('definition');
  await expect(scores).toHaveText([
    String(m.scheduleHealth),
    String(m.budgetHealth),
    String(m.qualityHealth),
    String(m.resourceHealth),
  ]);
  const level = m.riskLevel[0]!.toUpperCase() + m.riskLevel.slice(1);
  await expect(card.getByText(`${level} Risk`)).toBeVisible();
  await expect(card.getByText(m.overallHealthScore >= 70 ? 'Improving' : 'Declining')).toBeVisible();
  await expect(card.getByText(/^Last updated /)).toBeVisible();
  watch.expectClean();
});

test('manager: Add Risk asks for a title, then the new risk appears with its score out of 25', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  await openHealth(page);
  await pickProject(page, PROJECT);
  await page.getByRole('tab', { name: 'Risk Assessment' }).click();
  await page.getByRole('button', { name: 'Add Risk' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Risk' });
  await dialog.getByRole('button', { name: 'Add Risk' }).click();
  await expect(dialog.getByText('Risk title is required')).toBeVisible();
  const title = `Frost on the slab pour ${Date.now()}`;
  await dialog.getByLabel('Risk title').fill(title);
  await dialog.getByLabel('Risk type').click();
  await page.getByRole('option', { name: 'Weather' }).click();
  await dialog.getByLabel('Probability').click();
  await page.getByRole('option', { name: 'High' }).click();
  await dialog.getByRole('button', { name: 'Add Risk' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: 'Risk assessment created successfully' }),
  ).toBeVisible();
  // High probability (5) x medium impact (3) = 15.
  const card = page.getByRole('listitem', { name: title });
  await expect(card).toContainText('15/25');
  await expect(card).toContainText('Weather');
  watch.expectClean();
});

test('manager offline after a cold start: the kept scores with their time, and the writes off with the reason', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'manager@summit.test');
  await openHealth(page);
  await expect(
    page.getByRole('list', { name: 'Project health cards' }).getByRole('listitem').first(),
  ).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(async () => (await keptCaches(page)).some((c) => c.includes('/api/project-health-metrics')))
    .toBe(true);

  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  cold.on('console', (msg) => {
    if (msg.type() === 'error' && !OFFLINE_NOISE.test(msg.text())) watch.problems.push(msg.text());
  });
  await cold.goto('/project-health');
  await expect(cold.getByRole('heading', { level: 1, name: 'Project Health' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(cold.getByText(/Offline: showing project health as of /)).toBeVisible();
  await expect(cold.getByText(OFFLINE_REASON)).toBeVisible();
  await expect(cold.getByRole('listitem', { name: PROJECT })).toBeVisible();
  await expect(cold.getByRole('button', { name: `Refresh health of ${PROJECT}` })).toBeDisabled();
  await pickProject(cold, PROJECT);
  await expect(cold.getByRole('button', { name: 'Calculate Health' })).toBeDisabled();
  await cold.getByRole('tab', { name: 'Risk Assessment' }).click();
  await expect(cold.getByRole('button', { name: 'Add Risk' })).toBeDisabled();
  watch.expectClean();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every tab fits the screen with no sideways scroll, and its buttons are at least 44 px', async ({
    page,
  }) => {
    const watch = await watchPage(page);
    await signIn(page, 'manager@summit.test');
    await openHealth(page);
    for (const tab of ['Health Overview', 'Detailed Metrics', 'Risk Assessment']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      const overflow = await page.evaluate(() => {
        const el = document.scrollingElement ?? document.documentElement;
        return el.scrollWidth - el.clientWidth;
      });
      expect(overflow, `${tab}: sideways scroll`).toBeLessThanOrEqual(0);
      const small = await page
        .getByRole('main')
        .locator('button:visible, [role="tab"]:visible, [role="combobox"]:visible')
        .evaluateAll((els) =>
          els
            .map((el) => ({ el, box: el.getBoundingClientRect() }))
            .filter(({ box }) => box.height < 44 || box.width < 44)
            .map(({ el }) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName),
        );
      expect(small, `${tab}: tap targets under 44 px`).toEqual([]);
    }
    watch.expectClean();
  });
});
