import { expect, test, type Page } from '@playwright/test';
import { signIn, watchPage } from './support/watch-page.ts';

const ALL = [
  'Dashboard',
  'Projects',
  'Tasks',
  'Project Health',
  'Schedule',
  'Photos',
  'Project Logs',
  'Crew',
  'Subs',
  'RBAC Admin',
];

async function sidebarLabels(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
}

test('a crew member sees the field items only; the top bar shows company, initials and first name', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'crew@summit.test');
  expect(await sidebarLabels(page)).toEqual([
    'Dashboard',
    'Projects',
    'Tasks',
    'Schedule',
    'Photos',
    'Project Logs',
    'Crew',
  ]);
  const bar = page.getByRole('banner');
  await expect(bar.getByTestId('company-name')).toHaveText('Summit Builders');
  await expect(bar.getByTestId('user-first-name')).not.toBeEmpty();
  await expect(bar.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  await expect(bar.getByRole('button', { name: /^Sync status, Online/ })).toBeVisible();
  // A screen the role lacks is not offered and says so when typed in.
  await page.goto('/project-health');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  watch.expectClean();
});

test('an admin sees every item, and every item opens a screen (no dead link)', async ({ page }) => {
  const watch = await watchPage(page);
  await signIn(page, 'admin@summit.test');
  expect(await sidebarLabels(page)).toEqual(ALL);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const expected: Record<string, RegExp> = {
    Dashboard: /^Dashboard$/,
    Projects: /^Projects$/,
    Tasks: /^Task Management$/,
    'Project Health': /^Project Health$/,
    Schedule: /^Schedule Management$/,
    Photos: /^Photo Gallery$/,
    'Project Logs': /^Project Logs$/,
    Crew: /^Crew Dashboard$/,
    Subs: /^Subcontractors$/,
    'RBAC Admin': /^RBAC Administration$/,
  };
  for (const label of ALL) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(
      page.getByRole('main').getByRole('heading', { level: 1, name: expected[label] }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
    // The tab says which screen this is, and a screen reader hears the new screen's name.
    await expect(page).toHaveTitle(`${label} · SiteCommand`);
    await expect(page.getByTestId('route-announcer')).toHaveText(label);
  }
  await page.goto('/no-such-screen');
  await expect(page).toHaveTitle('Page not found · SiteCommand');
  await page.goto('/rbac');
  await expect(page.getByRole('heading', { level: 1, name: 'RBAC Administration' })).toBeVisible();
  watch.expectClean();
});

test('the mobile menu lists the items; RBAC Admin for an admin only', async ({ page }) => {
  const watch = await watchPage(page);
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, 'admin@summit.test');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByRole('link')).toHaveText(ALL);
  await menu.getByRole('link', { name: 'Schedule' }).click();
  await expect(page).toHaveURL(/\/schedule$/);
  await expect(menu).toHaveCount(0);
  watch.expectClean();
});

test('notifications: clicking an unread one marks it read, the badge drops and it leads to its record; Mark All as Read clears it', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName(/Notifications, \d+ unread/);
  const before = Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1]);
  expect(before).toBeGreaterThan(0);
  await bell.click();
  const list = page.getByRole('list', { name: 'Notifications' });
  const saved = page.waitForResponse((r) => /\/api\/notifications\/[^/]+\/read$/.test(r.url()));
  await list
    .getByRole('button', { name: /^Unread: / })
    .first()
    .click();
  expect((await saved).status()).toBe(200);
  const after = before - 1;
  await expect(bell).toHaveAccessibleName(after > 0 ? `Notifications, ${after} unread` : 'Notifications');
  // One about a record took the user there and closed the panel: open it again.
  if (!(await list.isVisible())) await bell.click();

  const allSaved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/mark-all-read'));
  await page.getByRole('button', { name: 'Mark All as Read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications');
  expect((await allSaved).status()).toBe(200);
  await expect(page.getByTestId('unread-badge')).toHaveCount(0);
  await expect(list.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
  // Stays read after a reload (the server stored it).
  await page.reload();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  watch.expectClean();
});
