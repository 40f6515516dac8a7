import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { cutNetwork, restoreNetwork } from './support/network.ts';
import { DEMO_PASSWORD, watchPage } from './support/watch-page.ts';

// Issue 10, Schedule Management: a manager approves a crew member's request offline from a cold start;
// the server moves the task's due date; the crew device sees it; a second approver who decided the same
// request offline gets a named Sync issue. Then the tabs against the API, and a phone pass.

interface ServerTask {
  id: string;
  title: string;
  dueDate: string | null;
  projectId: string | null;
  status: string;
}
interface ServerChange {
  id: string;
  reason: string;
  status: string;
  createdAt: string;
  decidedBy: string | null;
}

const origin = () => new URL(test.info().project.use.baseURL ?? 'http://localhost:3113').origin;

async function device(browser: Browser, email: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const res = await context.request.post('/api/auth/login', {
    headers: { origin: origin() },
    data: { email, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

async function openSchedule(context: BrowserContext, path = '/schedule'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule Management' })).toBeVisible({
    timeout: 30_000,
  });
  return page;
}

async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

const requestItem = (page: Page, reason: string) =>
  page.getByRole('listitem', { name: `Schedule change: ${reason}` });

test('a manager approves offline from a cold start; the due date moves on every device; a late decision is a named Sync issue', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const manager = await device(browser, 'manager@summit.test');
  const admin = await device(browser, 'admin@summit.test');
  const crew = await device(browser, 'crew@summit.test');
  const headers = { origin: origin() };

  // A task due 10 March 2030 and the crew member's request to move it to 17 March, made through the API.
  const projects = (await (await manager.request.get('/api/projects')).json()) as { id: string }[];
  const title = `Pour east slab ${Date.now()}`;
  const task = (await (
    await manager.request.post('/api/tasks', {
      headers,
      data: { title, projectId: projects[0]!.id, dueDate: '2030-03-10' },
    })
  ).json()) as ServerTask;
  const reason = `Concrete plant closed ${Date.now()}`;
  const made = await crew.request.post('/api/schedule-changes', {
    headers,
    data: { taskId: task.id, reason, newDate: '2030-03-17' },
  });
  expect(made.status()).toBe(201);
  const change = (await made.json()) as ServerChange;

  // The crew device shows the task on 10 March 2030 in the Calendar.
  const crewPage = await openSchedule(crew, '/schedule?tab=calendar&month=2030-03');
  await expect(
    crewPage
      .getByRole('cell', { name: 'Sunday, March 10, 2030' })
      .getByRole('button', { name: new RegExp(`^${title}`) }),
  ).toBeVisible({ timeout: 30_000 });

  // Both approvers' devices hold the request, then lose the network.
  const first = await openSchedule(manager);
  const firstWatch = await watchPage(first, { allowNetworkErrors: true });
  await expect(requestItem(first, reason)).toBeVisible({ timeout: 30_000 });
  await serviceWorkerReady(first);
  const second = await openSchedule(admin);
  await expect(requestItem(second, reason)).toBeVisible({ timeout: 30_000 });
  await cutNetwork(manager);
  await cutNetwork(admin);

  // The manager starts the app cold with no network and approves.
  await first.close();
  const cold = await manager.newPage();
  const coldWatch = await watchPage(cold, { allowNetworkErrors: true });
  await cold.goto('/schedule');
  await expect(cold.getByRole('heading', { level: 1, name: 'Schedule Management' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(cold.getByTestId('schedule-skeleton')).toHaveCount(0);
  const item = requestItem(cold, reason);
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(item.getByText('Approved', { exact: true })).toBeVisible();
  await expect(item.getByText('Waiting to sync')).toBeVisible();

  // The admin, also offline, rejects the same request (confirming first).
  const secondItem = requestItem(second, reason);
  await secondItem.getByRole('button', { name: 'Reject' }).click();
  await second.getByRole('alertdialog').getByRole('button', { name: 'Reject' }).click();
  await expect(secondItem.getByText('Rejected', { exact: true })).toBeVisible();

  // Nothing has reached the server yet.
  const stored = async () =>
    ((await (await crew.request.get('/api/schedule-changes')).json()) as ServerChange[]).find(
      (c) => c.id === change.id,
    );
  expect((await stored())?.status).toBe('pending');

  // The manager reconnects first: approved, and the task's due date moved.
  await restoreNetwork(manager, [cold]);
  await expect.poll(async () => (await stored())?.status, { timeout: 30_000 }).toBe('approved');
  const moved = ((await (await crew.request.get('/api/tasks')).json()) as ServerTask[]).find(
    (t) => t.id === task.id,
  );
  expect(moved?.dueDate).toBe('2030-03-17T00:00:00.000Z');
  await expect(item.getByText('Waiting to sync')).toHaveCount(0, { timeout: 30_000 });

  // The crew device pulls the new due date.
  await expect(
    crewPage
      .getByRole('cell', { name: 'Sunday, March 17, 2030' })
      .getByRole('button', { name: new RegExp(`^${title}`) }),
  ).toBeVisible({ timeout: 45_000 });

  // The admin reconnects: the late rejection comes back as a Sync issue naming who approved it.
  await restoreNetwork(admin, [second]);
  await expect(second.getByText(/was already approved by David Okafor/).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(secondItem.getByText('Approved', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect((await stored())?.status).toBe('approved');

  firstWatch.expectClean();
  coldWatch.expectClean();
  await Promise.all([manager.close(), admin.close(), crew.close()]);
});

test("the tabs show what the API holds, and fit a phone's screen", async ({ browser }) => {
  test.setTimeout(120_000);
  const manager = await device(browser, 'manager@summit.test', { width: 390, height: 844 });
  const user = (await (await manager.request.get('/api/auth/user')).json()) as { companyTimeZone: string };
  const tasks = (await (await manager.request.get('/api/tasks')).json()) as ServerTask[];
  const changes = (await (await manager.request.get('/api/schedule-changes')).json()) as ServerChange[];
  const page = await openSchedule(manager);
  const watch = await watchPage(page);

  // Upcoming Tasks: due on or after today in the company's zone, earliest first, 10 of them.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: user.companyTimeZone }).format(new Date());
  const upcoming = tasks
    .filter((t) => t.dueDate && t.dueDate.slice(0, 10) >= today)
    .sort((a, b) =>
      a.dueDate! === b.dueDate! ? a.title.localeCompare(b.title) : a.dueDate! < b.dueDate! ? -1 : 1,
    )
    .slice(0, 10)
    .map((t) => t.title);
  const upcomingList = page.getByRole('list', { name: 'Upcoming Tasks' });
  await expect(upcomingList.getByRole('button')).toHaveCount(upcoming.length, { timeout: 30_000 });
  expect(
    await upcomingList
      .getByRole('button', { description: 'Update schedule' })
      .evaluateAll((els) => els.map((e) => e.querySelector('.font-medium')?.textContent)),
  ).toEqual(upcoming);

  // Recent Schedule Updates: the newest 10 requests.
  const recent = [...changes]
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .slice(0, 10)
    .map((c) => `Schedule change: ${c.reason}`);
  const recentList = page.getByRole('list', { name: 'Recent Schedule Updates' });
  await expect(recentList.getByRole('listitem')).toHaveCount(recent.length);
  expect(
    await recentList.getByRole('listitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
  ).toEqual(recent);

  // Every button and tab on the screen is at least 44 x 44 px (counted: how many are smaller).
  const smallTargets = async () =>
    page
      .locator('main button:visible, main [role="tab"]:visible')
      .evaluateAll(
        (els) =>
          els
            .map((e) => e.getBoundingClientRect())
            .filter((r) => r.width > 0 && (r.height < 44 || r.width < 44)).length,
      );

  // Nothing wider than the screen: the page never scrolls sideways (the elements that stick out, if any).
  const noSidewaysScroll = async () =>
    expect(
      await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= width) return [];
        return [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > width + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName}.${e.className}`.slice(0, 160));
      }),
    ).toEqual([]);
  await noSidewaysScroll();
  expect(await smallTargets()).toBe(0);

  // Timeline and Gantt: every dated task, or the first screenful of a long list.
  const dated = tasks.filter((t) => t.dueDate).length;
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('article').first()).toBeVisible();
  expect(await timeline.getByRole('article').count()).toBeLessThanOrEqual(dated);
  // The chain ends with the latest due date, reachable by scrolling however long the list is.
  const latest = tasks
    .filter((t) => t.dueDate)
    .map((t) => `${t.dueDate} ${t.id}`)
    .sort()
    .at(-1)!;
  const latestTask = tasks.find((t) => latest.endsWith(t.id))!;
  await timeline.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(timeline.getByRole('article', { name: latestTask.title })).toBeInViewport();
  await noSidewaysScroll();
  expect(await smallTargets()).toBe(0);
  await page.getByRole('tab', { name: 'Gantt Chart' }).click();
  await expect(page.getByRole('list', { name: 'Legend' })).toHaveText(
    /High.*Medium.*Low\/Completed.*Overdue/,
  );
  await noSidewaysScroll();
  expect(await smallTargets()).toBe(0);

  // Calendar: this month's tasks and projects due per day (on a phone, the day's button names what it
  // shows: the day and the count).
  await page.getByRole('tab', { name: 'Calendar' }).click();
  const month = today.slice(0, 7);
  const perDay = new Map<string, number>();
  const projects = (await (await manager.request.get('/api/projects')).json()) as {
    dueDate: string | null;
  }[];
  for (const t of [...tasks, ...projects]) {
    const day = t.dueDate?.slice(0, 10);
    if (day?.startsWith(month)) perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  for (const [day, count] of perDay) {
    const long = new Date(`${day}T00:00:00.000Z`).toLocaleDateString('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await expect(
      page.getByRole('button', { name: new RegExp(`^${Number(day.slice(8))}\\s+${long}: ${count} due$`) }),
    ).toBeVisible();
  }
  await expect(page.locator('td[aria-current="date"]')).toHaveCount(1);
  await noSidewaysScroll();
  expect(await smallTargets()).toBe(0);
  watch.expectClean();
  await manager.close();
});
