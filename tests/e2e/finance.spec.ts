import { expect, test, type Page } from '@playwright/test';
import { OFFLINE_NOISE, cutNetwork } from './support/network.ts';
import { signIn, watchPage } from './support/watch-page.ts';
import { keptCaches } from './support/kept-answers.ts';

// Issue 12, the Financial Health tab (spec 01 sections 2 and 9): every figure equals a computation made
// here from the API's own lists; crew are refused by the server and never see finance; a cold start
// offline shows the kept figures with their time.

interface Project {
  name: string;
  budget: number | null;
  actualCost: number;
}
interface Invoice {
  status: string;
  total: number;
  dueDate: string | null;
}

/** Cents as the screen shows money: US dollars without decimals (spec 01 section 9). */
const dollars = (cents: number) => {
  const whole = Math.round(cents / 100);
  return `${whole < 0 ? '-' : ''}$${Math.abs(whole).toLocaleString('en-US')}`;
};
const pct = (v: number) => `${v.toFixed(1)}%`;

/** The eight figures, written out from spec 01 section 9's words. */
function expectedFigures(projects: Project[], invoices: Invoice[], now: number) {
  let revenue = 0;
  let outstanding = 0;
  let overdue = 0;
  let overdueCount = 0;
  for (const i of invoices) {
    if (i.status === 'paid') revenue += i.total;
    if (i.status === 'sent' || i.status === 'draft') outstanding += i.total;
    if (i.status === 'sent' && i.dueDate !== null && Date.parse(i.dueDate) < now) {
      overdue += i.total;
      overdueCount += 1;
    }
  }
  let expenses = 0;
  let budget = 0;
  for (const p of projects) {
    expenses += p.actualCost;
    budget += p.budget ?? 0;
  }
  const profit = revenue - expenses;
  return {
    'Total Revenue': dollars(revenue),
    'Total Expenses': dollars(expenses),
    'Net Profit': dollars(profit),
    'Profit Margin': pct(revenue === 0 ? 0 : (profit / revenue) * 100),
    Outstanding: dollars(outstanding),
    Overdue: dollars(overdue),
    'Cash Flow': dollars(profit + outstanding),
    'Budget Variance': pct(budget === 0 ? 0 : ((expenses - budget) / budget) * 100),
    overdueCount,
  };
}

async function openFinance(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Financial Health' }).click();
  await expect(page.getByText('Real-time Monitoring')).toBeVisible();
}

test('manager: every figure on the eight cards equals the formulas applied to the API’s lists', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  const projects = (await (await page.request.get('/api/projects')).json()) as Project[];
  const invoices = (await (await page.request.get('/api/invoices')).json()) as Invoice[];
  expect((await page.request.get('/api/time-entries')).status()).toBe(200);
  // The demo data must exercise the figures: something paid, something overdue, budgets set.
  expect(invoices.some((i) => i.status === 'paid')).toBe(true);
  const want = expectedFigures(projects, invoices, Date.now());
  expect(want.overdueCount).toBeGreaterThan(0);

  await openFinance(page);
  const figures = page.getByRole('list', { name: 'Financial figures' });
  await expect(figures).toBeVisible({ timeout: 15_000 });
  for (const title of [
    'Total Revenue',
    'Total Expenses',
    'Net Profit',
    'Profit Margin',
    'Outstanding',
    'Overdue',
    'Cash Flow',
    'Budget Variance',
  ] as const) {
    await expect(figures.getByRole('listitem', { name: title }).locator('p').first(), title).toHaveText(
      want[title],
    );
  }
  await expect(page.getByText('Action Required')).toBeVisible();
  await expect(page.getByText(`${want.overdueCount} overdue invoice`).first()).toBeVisible();

  // At most 5 projects in the breakdown, only those with a budget or a cost, bars never past 100%.
  const breakdown = page.getByRole('region', { name: 'Project Breakdown' });
  const withMoney = projects.filter((p) => (p.budget ?? 0) > 0 || p.actualCost > 0);
  await expect(breakdown.getByRole('listitem')).toHaveCount(Math.min(5, withMoney.length));
  for (const bar of await breakdown.getByRole('progressbar').all()) {
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(100);
  }
  await expect(page.getByRole('img', { name: /Budget against actual cost per project/ })).toBeVisible();
  watch.expectClean();
});

test('crew: the server refuses the finance lists (403) and the app shows no financial figures', async ({
  page,
}) => {
  const watch = await watchPage(page);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/(invoices|time-entries)/.test(r.url())) asked.push(r.url());
  });
  await signIn(page, 'crew@summit.test');
  expect((await page.request.get('/api/invoices')).status()).toBe(403);
  expect((await page.request.get('/api/time-entries')).status()).toBe(403);
  await page.goto('/dashboard');
  const tab = page.getByRole('tab', { name: 'Financial Health' });
  // The dashboard may leave the tab out for crew; where it is there, the panel refuses too.
  if ((await tab.count()) > 0) {
    await tab.click();
    await expect(page.getByText('Financial health is available to admins and managers only.')).toBeVisible();
  }
  await expect(page.getByText('Total Revenue')).toHaveCount(0);
  await expect(page.getByText('Real-time Monitoring')).toHaveCount(0);
  expect(asked, 'the app asked for finance lists').toEqual([]);
  watch.expectClean();
});

test('manager offline after a cold start: the kept figures with their "as of" time', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'manager@summit.test');
  await openFinance(page);
  const revenue = page.getByRole('listitem', { name: 'Total Revenue' }).locator('p').first();
  await expect(revenue).toHaveText(/^\$/, { timeout: 15_000 });
  const shown = await revenue.textContent();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(async () =>
      (await keptCaches(page)).some((c) => c.includes('/api/invoices') && c.includes('/api/time-entries')),
    )
    .toBe(true);

  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  cold.on('console', (msg) => {
    if (msg.type() === 'error' && !OFFLINE_NOISE.test(msg.text())) watch.problems.push(msg.text());
  });
  await cold.goto('/dashboard');
  await cold.getByRole('tab', { name: 'Financial Health' }).click({ timeout: 20_000 });
  await expect(cold.getByText(/Offline: showing the figures as of /)).toBeVisible();
  await expect(cold.getByRole('listitem', { name: 'Total Revenue' }).locator('p').first()).toHaveText(
    shown ?? '',
  );
  watch.expectClean();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the panel fits the screen with no sideways scroll', async ({ page }) => {
    const watch = await watchPage(page);
    await signIn(page, 'manager@summit.test');
    await openFinance(page);
    await expect(page.getByRole('region', { name: 'Project Breakdown' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('img', { name: /Budget against actual cost per project/ })).toBeVisible();
    const overflow = await page.evaluate(() => {
      const el = document.scrollingElement ?? document.documentElement;
      return el.scrollWidth - el.clientWidth;
    });
    expect(overflow, 'sideways scroll').toBeLessThanOrEqual(0);
    // Every figure is readable whole, not cut off by its card.
    for (const value of await page
      .getByRole('list', { name: 'Financial figures' })
      .locator('li > p:first-of-type')
      .all()) {
      expect(await value.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    watch.expectClean();
  });
});
