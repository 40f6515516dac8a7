import { expect, test } from '@playwright/test';
import { watchPage } from './support/watch-page.ts';

test('the landing page shows every section and its figures are marked illustrative', async ({ page }) => {
  const watch = await watchPage(page);
  await page.goto('/');
  const header = page.getByRole('banner');
  for (const anchor of ['Product', 'Pricing', 'Customers', 'Resources']) {
    await expect(header.getByRole('link', { name: anchor, exact: true })).toHaveAttribute(
      'href',
      `#${anchor.toLowerCase()}`,
    );
  }
  await expect(page.getByText('360° Project Management')).toBeVisible();
  const preview = page.getByRole('figure', { name: 'Product preview with illustrative figures' });
  for (const n of ['61', '12', '8', '41']) await expect(preview.getByText(n, { exact: true })).toBeVisible();
  await expect(preview.getByText(/Illustrative figures only/)).toBeVisible();
  const rows = preview.getByRole('list').last();
  for (const badge of ['Critical', 'Medium', 'Low', 'Completed']) {
    await expect(rows.getByText(badge, { exact: true })).toBeVisible();
  }
  for (const card of ['Advanced Security', 'Team Collaboration', 'Analytics & Insights', 'Task Management']) {
    await expect(page.getByRole('heading', { name: card })).toBeVisible();
  }
  for (const item of ['Scheduling', 'Cost Control', 'Field Reporting']) {
    await expect(page.getByRole('heading', { name: item, exact: true })).toBeVisible();
  }
  await expect(page.getByText('$89')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();

  // The hint is true: Ctrl+K focuses the preview's search.
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('searchbox', { name: 'Search tasks (preview)' })).toBeFocused();

  // Learn More scrolls to the product section.
  await page.getByRole('link', { name: 'Learn More' }).click();
  await expect(page).toHaveURL(/#product$/);
  watch.expectClean();
});

test('every sign-in, get-started, trial and demo button goes to /login', async ({ page }) => {
  const watch = await watchPage(page);
  const buttons = [
    { name: 'Sign In', scope: 'banner' },
    { name: 'Get Started' },
    { name: 'Start Free Trial' },
    { name: 'Book a Demo' },
    { name: 'Add Task' },
    { name: 'View Calendar' },
    { name: 'Export Report' },
  ] as const;
  for (const b of buttons) {
    await page.goto('/');
    const root = 'scope' in b ? page.getByRole(b.scope) : page.getByRole('main');
    await root.getByRole('link', { name: b.name, exact: true }).first().click();
    await expect(page, `${b.name} goes to /login`).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  }
  watch.expectClean();
});
