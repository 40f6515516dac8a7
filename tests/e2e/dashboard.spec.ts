import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { OFFLINE_NOISE, cutNetwork } from './support/network.ts';
import { signIn, watchPage } from './support/watch-page.ts';
import { keptCaches } from './support/kept-answers.ts';

// Issue 12, the Dashboard (spec 01 section 2): every number on it equals a count the test makes itself from
// the API's lists, for a manager and for crew; 'View all' opens the full activity list; the quick actions
// go where the spec says; opened offline from a cold start it shows the device's numbers and the "as of"
// line; crew has no Financial Health tab; and it fits a phone.

interface ApiProject {
  id: string;
  status: string;
  progress: number;
  budget: number | null;
  actualCost: number;
  createdAt: string;
}
interface ApiTask {
  title: string;
  status: string;
  dueDate: string | null;
}
interface ApiPhoto {
  createdAt: string;
}
interface ApiActivity {
  description: string | null;
  action_type: string;
}

async function list<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T[];
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
const dayIn = (instant: Date | string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(instant),
  );
/** The day a due date names: its UTC date (DESIGN.md, shared/rules/dates.ts). */
const dueDayOf = (dueDate: string | null) => (dueDate ? new Date(dueDate).toISOString().slice(0, 10) : null);
const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** What the dashboard must show, counted here from the API's lists. */
async function expectedNumbers(request: APIRequestContext) {
  const me = (await (await request.get('/api/auth/user')).json()) as { companyTimeZone: string };
  const zone = me.companyTimeZone;
  const now = new Date();
  const today = dayIn(now, zone);
  const [projects, tasks, photos, activities] = await Promise.all([
    list<ApiProject>(request, '/api/projects'),
    list<ApiTask>(request, '/api/tasks'),
    list<ApiPhoto>(request, '/api/photos'),
    list<ApiActivity>(request, '/api/activities'),
  ]);
  const open = tasks.filter((t) => t.status !== 'completed');
  const active = projects.filter((p) => p.status === 'active');
  const budget = projects.reduce((sum, p) => sum + (p.budget ?? 0), 0);
  const actual = projects.reduce((sum, p) => sum + p.actualCost, 0);
  return {
    projects: projects.length,
    activeProjects: active.length,
    averageProgress: projects.length
      ? Math.round(projects.reduce((sum, p) => sum + p.progress, 0) / projects.length)
      : 0,
    budgetUsed: budget === 0 ? '0.0%' : `${((actual / budget) * 100).toFixed(1)}%`,
    critical: projects.filter((p) => p.status === 'delayed' || (p.status === 'active' && p.progress < 50))
      .length,
    newThisWeek: projects.filter(
      (p) => dayIn(p.createdAt, zone) >= daysBefore(today, 6) && new Date(p.createdAt) <= now,
    ).length,
    pendingTasks: open.length,
    pendingDueToday: open.filter((t) => dueDayOf(t.dueDate) === today).length,
    completedTasks: tasks.length - open.length,
    dueToday: tasks.filter((t) => dueDayOf(t.dueDate) === today),
    expired: open.filter((t) => {
      const d = dueDayOf(t.dueDate);
      return d !== null && d < today;
    }).length,
    upcoming: open.filter((t) => {
      const d = dueDayOf(t.dueDate);
      return d !== null && d >= today;
    }).length,
    photos: photos.length,
    photosToday: photos.filter((p) => dayIn(p.createdAt, zone) === today).length,
    activities,
  };
}

const statValue = (page: Page, card: string, value: number) =>
  page.getByRole('group', { name: card, exact: true }).getByText(String(value), { exact: true });

async function openDashboard(page: Page) {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 20_000 });
}

for (const email of ['manager@summit.test', 'crew@summit.test']) {
  test(`${email}: every number on the dashboard equals the API's lists`, async ({ page }) => {
    test.setTimeout(90_000);
    const watch = await watchPage(page);
    await signIn(page, email);
    const want = await expectedNumbers(page.request);
    await openDashboard(page);

    // Project Overview: the four stat cards and their computed texts.
    await expect(statValue(page, 'Active Projects', want.activeProjects)).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByRole('group', { name: 'Active Projects' }).getByText(`${want.newThisWeek} new this week`),
    ).toBeVisible();
    await expect(statValue(page, 'Pending Tasks', want.pendingTasks)).toBeVisible();
    await expect(
      page.getByRole('group', { name: 'Pending Tasks' }).getByText(`${want.pendingDueToday} due today`),
    ).toBeVisible();
    await expect(statValue(page, 'Photos Uploaded', want.photos)).toBeVisible();
    await expect(statValue(page, 'Photos Uploaded Today', want.photosToday)).toBeVisible();

    // The widgets' limits over the same lists.
    const recent = page.getByRole('region', { name: 'Recent Activity' });
    await expect(recent.getByRole('listitem')).toHaveCount(Math.min(5, want.activities.length));
    const first = want.activities[0];
    if (first) await expect(recent.getByRole('listitem').first()).toContainText(first.description ?? '');
    const overview = page.getByRole('region', { name: 'Multi-Project Overview' });
    await expect(overview.getByRole('article')).toHaveCount(Math.min(6, want.projects));
    const metric = (name: string) => overview.getByRole('group', { name, exact: true });
    await expect(metric('Active').getByText(String(want.activeProjects), { exact: true })).toBeVisible();
    await expect(metric('Average progress').getByText(`${want.averageProgress}%`)).toBeVisible();
    await expect(metric('Critical').getByText(String(want.critical), { exact: true })).toBeVisible();
    // Budget usage is money: for roles that may see finance only.
    const finance = email.startsWith('manager');
    await expect(metric('Budget used').getByText(want.budgetUsed)).toHaveCount(finance ? 1 : 0);
    await expect(overview.getByRole('link', { name: `View All ${want.projects} Projects` })).toHaveCount(
      want.projects > 6 ? 1 : 0,
    );
    await expect(page.getByRole('region', { name: 'Active Projects' }).getByRole('listitem')).toHaveCount(
      Math.min(3, want.activeProjects),
    );

    // Task Management.
    await page.getByRole('tab', { name: 'Task Management' }).click();
    await expect(statValue(page, 'Completed Tasks', want.completedTasks)).toBeVisible();
    await expect(statValue(page, 'Expired Tasks', want.expired)).toBeVisible();
    await expect(statValue(page, 'Due Today', want.pendingDueToday)).toBeVisible();
    const today = page.getByRole('region', { name: "Today's Tasks" });
    await expect(today.getByRole('listitem')).toHaveCount(Math.min(4, want.dueToday.length));
    if (want.dueToday.length <= 4)
      for (const t of want.dueToday) await expect(today.getByText(t.title, { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Expired Tasks' }).getByRole('listitem')).toHaveCount(
      Math.min(5, want.expired),
    );
    await expect(page.getByRole('region', { name: 'Next Priority Tasks' }).getByRole('listitem')).toHaveCount(
      Math.min(3, want.upcoming),
    );

    // Finance is for admins and managers only: the tab, and the server behind it.
    await expect(page.getByRole('tab', { name: 'Financial Health' })).toHaveCount(finance ? 1 : 0);
    expect((await page.request.get('/api/invoices')).status()).toBe(finance ? 200 : 403);
    watch.expectClean();
  });
}

test("'View all' opens the full activity list, newest first", async ({ page }) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  const activities = await list<ApiActivity>(page.request, '/api/activities?limit=200');
  await openDashboard(page);
  await page.getByRole('region', { name: 'Recent Activity' }).getByRole('link', { name: 'View all' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Recent Activity' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Activities' }).getByRole('listitem');
  await expect(items).toHaveCount(Math.min(50, activities.length));
  await expect(items.first()).toContainText(activities[0]?.description ?? '');
  if (activities.length > 50) {
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(items).toHaveCount(Math.min(100, activities.length));
    await expect(items.nth(50)).toContainText(activities[50]?.description ?? '');
  }
  watch.expectClean();
});

test('the quick actions go to /projects, /tasks, /photos and /subs', async ({ page }) => {
  const watch = await watchPage(page);
  await signIn(page, 'manager@summit.test');
  for (const [label, path] of [
    ['Add Project', '/projects'],
    ['Add Tasks', '/tasks'],
    ['Upload Photos', '/photos'],
    ['Assign Task', '/subs'],
  ] as const) {
    await openDashboard(page);
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  watch.expectClean();
});

test('opened offline from a cold start: the device numbers, the kept activity and the "as of" line', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'manager@summit.test');
  const want = await expectedNumbers(page.request);
  await openDashboard(page);
  await expect(statValue(page, 'Pending Tasks', want.pendingTasks)).toBeVisible({ timeout: 20_000 });
  const recent = page.getByRole('region', { name: 'Recent Activity' });
  await expect(recent.getByRole('listitem')).toHaveCount(Math.min(5, want.activities.length));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(async () => (await keptCaches(page)).some((c) => c.includes('/api/activities')))
    .toBe(true);
  // The bell's list is kept too: offline it shows the same unread count and the same notifications.
  const bellName = /^Notifications(, \d+ unread)?$/;
  const bell = page.getByRole('button', { name: bellName });
  await expect(bell).toHaveAccessibleName(/unread/, { timeout: 20_000 });
  const onlineBell = await bell.getAttribute('aria-label');
  await expect
    .poll(async () => (await keptCaches(page)).some((c) => c.includes('/api/notifications')))
    .toBe(true);

  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  cold.on('console', (msg) => {
    if (msg.type() === 'error' && !OFFLINE_NOISE.test(msg.text())) watch.problems.push(msg.text());
  });
  await openDashboard(cold);
  await expect(cold.getByText(/Offline: showing recent activity as of /)).toBeVisible({ timeout: 20_000 });
  await expect(statValue(cold, 'Active Projects', want.activeProjects)).toBeVisible();
  await expect(statValue(cold, 'Pending Tasks', want.pendingTasks)).toBeVisible();
  await expect(statValue(cold, 'Photos Uploaded', want.photos)).toBeVisible();
  const coldRecent = cold.getByRole('region', { name: 'Recent Activity' });
  await expect(coldRecent.getByRole('listitem')).toHaveCount(Math.min(5, want.activities.length));
  await expect(coldRecent.getByRole('alert')).toHaveCount(0);
  await expect(cold.getByRole('region', { name: 'Multi-Project Overview' }).getByRole('article')).toHaveCount(
    Math.min(6, want.projects),
  );
  const coldBell = cold.getByRole('button', { name: bellName });
  await expect(coldBell).toHaveAttribute('aria-label', onlineBell!);
  await coldBell.click();
  await expect(cold.getByRole('list', { name: 'Notifications' }).getByRole('button').first()).toBeVisible();
  await expect(cold.getByText('Notifications need a connection.')).toHaveCount(0);
  watch.expectClean();
});

test.describe('on a phone (390x844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('both field tabs fit the width and every control is at least 44 px', async ({ page }) => {
    const watch = await watchPage(page);
    await signIn(page, 'manager@summit.test');
    await openDashboard(page);
    // Measured once the lists are in: a long project name must not widen the page.
    await expect(
      page.getByRole('region', { name: 'Multi-Project Overview' }).getByRole('article').first(),
    ).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByRole('region', { name: 'Recent Activity' }).getByRole('listitem').first(),
    ).toBeVisible();
    for (const tab of ['Project Overview', 'Task Management']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('body *')]
          .filter((el) => el.getBoundingClientRect().right > 391)
          .map((el) => `${el.tagName}.${el.className}`)
          .slice(0, 10),
      );
      expect(wide, `elements past the right edge on ${tab}`).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `page width on ${tab}`).toBeLessThanOrEqual(390);
      const small = await page.evaluate(() => {
        const controls = document.querySelectorAll<HTMLElement>(
          'main a[href], main button, main input, main [role=tab], main [role=checkbox]',
        );
        return [...controls]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 1 && r.height > 1 && (r.width < 44 || r.height < 44);
          })
          .map((el) => `${el.tagName} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}"`);
      });
      expect(small, `controls under 44 px on ${tab}`).toEqual([]);
    }
    watch.expectClean();
  });
});
