import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';
import { OFFLINE_NOISE, cutNetwork, restoreNetwork } from './support/network.ts';

// Issue 10, Crew Dashboard: a crew member's day offline. Cold start with no network, tick a task off and
// ask to move another, reconnect, the server has both; a manager approves on another device and the crew
// member's device shows the task's new due date.

const baseURL = () => test.info().project.use.baseURL ?? 'http://localhost:3112';
const origin = () => new URL(baseURL()).origin;

interface ServerTask {
  id: string;
  title: string;
  status: string;
  dueDate: string | null;
  completedAt: string | null;
  assigneeId: string | null;
}
interface ServerChange {
  id: string;
  taskId: string;
  userId: string;
  reason: string;
  originalDate: string | null;
  newDate: string;
  status: string;
}

let offline = false;

function watchConsole(page: Page, problems: string[]) {
  recordProblems(page, problems, (msg) => offline && OFFLINE_NOISE.test(msg.text()));
}

async function serverTasks(api: APIRequestContext): Promise<ServerTask[]> {
  const res = await api.get('/api/tasks');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerTask[];
}

async function serverChanges(api: APIRequestContext): Promise<ServerChange[]> {
  const res = await api.get('/api/schedule-changes');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerChange[];
}

const region = (page: Page, name: string) => page.getByRole('region', { name });
const counter = (page: Page, name: string) => page.getByRole('group', { name }).getByRole('definition');

/** The open tasks of Today's Tasks, by title. */
async function openTodayTitles(page: Page): Promise<string[]> {
  const items = region(page, "Today's Tasks").getByRole('article');
  const titles: string[] = [];
  for (const item of await items.all()) {
    if (!(await item.getByRole('checkbox').isChecked()))
      titles.push((await item.getAttribute('aria-label')) ?? '');
  }
  return titles;
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Visible controls under 44x44 px (inside the open dialog when there is one), described. */
function smallControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const modal = [...document.querySelectorAll('[role=dialog]')].pop();
    const small: string[] = [];
    for (const el of (modal ?? document).querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type=hidden]), select, textarea',
    )) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.width < 44 || r.height < 44) {
        small.push(`${el.tagName} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}"`);
      }
    }
    return small;
  });
}

test('offline from a cold start: tick a task off and request a change; the server gets both; an approval moves the due date', async ({
  context,
  page,
}) => {
  test.setTimeout(150_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page.request, 'crew@summit.test');
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
  await page.goto('/crew');
  await expect(page.getByRole('heading', { level: 1, name: 'Crew Dashboard' })).toBeVisible();
  await expect(region(page, "Today's Tasks").getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  // The service worker must hold the app shell before the network goes away.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  // The counters equal what the server says about this user's day.
  const mine = (await serverTasks(page.request)).filter((t) => t.assigneeId === me.id);
  // Titles that name one task of this user only, so each list item is found by its title.
  const unique = (title: string) => mine.filter((t) => t.title === title).length === 1;
  const open = (await openTodayTitles(page)).filter(unique);
  expect(open.length).toBeGreaterThanOrEqual(2);
  const [moveTitle, tickTitle] = open as [string, string];
  const toMove = mine.find((t) => t.title === moveTitle && t.status !== 'completed');
  const toTick = mine.find((t) => t.title === tickTitle && t.status !== 'completed');
  expect(toMove && toTick).toBeTruthy();
  const completedBefore = Number(await counter(page, 'Completed Today').textContent());

  // No network, and a cold start: a new page opens the app from the device.
  offline = true;
  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  watchConsole(cold, problems);
  await cold.goto('/crew');
  await expect(cold.getByRole('heading', { level: 1, name: 'Crew Dashboard' })).toBeVisible({
    timeout: 30_000,
  });
  const today = region(cold, "Today's Tasks");
  await expect(today.getByRole('article', { name: moveTitle })).toBeVisible();

  // Ask to move one task three days on.
  await today
    .getByRole('article', { name: moveTitle })
    .getByRole('button', { name: 'Request Change' })
    .click();
  const dialog = cold.getByRole('dialog', { name: 'Request Schedule Change' });
  const originalDay = await dialog.getByLabel('Original Date').inputValue();
  expect(originalDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const newDay = addDays(originalDay, 3);
  const reason = `Concrete truck delayed ${Date.now()}`;
  await dialog.getByRole('button', { name: 'Submit Request' }).click();
  await expect(dialog.getByText('Reason is required')).toBeVisible();
  await dialog.getByLabel('Reason for Schedule Change').fill(reason);
  await dialog.getByLabel('New Requested Date').fill(newDay);
  await dialog.getByRole('button', { name: 'Submit Request' }).click();
  await expect(dialog).toBeHidden();
  await expect(cold.getByText('Saved on this device, will sync').first()).toBeVisible();
  const requests = region(cold, 'Recent Schedule Change Requests');
  const request = requests.getByRole('article').filter({ hasText: reason });
  await expect(request.getByText('Pending')).toBeVisible();
  await expect(request.getByText('Waiting to sync')).toBeVisible();

  // Tick another off.
  const tick = today.getByRole('article', { name: tickTitle });
  await tick.getByRole('checkbox').check();
  await expect(tick.getByRole('button', { name: 'Request Change' })).toBeDisabled();
  await expect(counter(cold, 'Completed Today')).toHaveText(String(completedBefore + 1));

  // Nothing has reached the server yet.
  expect((await serverTasks(cold.request)).find((t) => t.id === toTick?.id)?.status).not.toBe('completed');
  expect((await serverChanges(cold.request)).some((c) => c.reason === reason)).toBe(false);

  // Back online: the server has both.
  await restoreNetwork(context, [cold]);
  offline = false;
  await expect
    .poll(async () => (await serverTasks(cold.request)).find((t) => t.id === toTick?.id)?.status, {
      timeout: 30_000,
    })
    .toBe('completed');
  await expect
    .poll(async () => (await serverChanges(cold.request)).find((c) => c.reason === reason), {
      timeout: 30_000,
    })
    .toMatchObject({
      taskId: toMove?.id,
      userId: me.id,
      status: 'pending',
      originalDate: toMove?.dueDate,
      newDate: `${newDay}${toMove?.dueDate?.slice(10)}`,
    });
  const change = (await serverChanges(cold.request)).find((c) => c.reason === reason);
  await expect(request.getByText('Waiting to sync')).toHaveCount(0, { timeout: 30_000 });

  // A manager approves on another device.
  const manager = await playwrightRequest.newContext({ baseURL: baseURL() });
  await signInByApi(manager, 'manager@summit.test');
  const decided = await manager.patch(`/api/schedule-changes/${change?.id}`, {
    headers: { origin: origin() },
    data: { status: 'approved' },
  });
  expect(decided.status()).toBe(200);
  await manager.dispose();

  // The crew member's device follows: the task leaves today for the next days, with its new date.
  const upcoming = region(cold, 'Upcoming Tasks (Next 7 Days)');
  await expect(upcoming.getByRole('article', { name: moveTitle })).toContainText('Due in 3 days', {
    timeout: 40_000,
  });
  await expect(today.getByRole('article', { name: moveTitle })).toHaveCount(0);
  await expect(request.getByText('Approved')).toBeVisible();
  expect((await serverTasks(cold.request)).find((t) => t.id === toMove?.id)?.dueDate).toBe(change?.newDate);

  expect(problems).toEqual([]);
});

test('on a phone: nothing scrolls sideways, tap targets are 44 px, the dialog fits', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await context.newPage();
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page.request, 'crew@summit.test');
  await page.goto('/crew');
  const today = region(page, "Today's Tasks");
  await expect(today.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  await expect(counter(page, "Today's Tasks")).toBeVisible();

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  expect(await smallControls(page)).toEqual([]);

  const openItem = today
    .getByRole('article')
    .filter({ has: page.getByRole('button', { name: 'Request Change', disabled: false }) })
    .first();
  await openItem.getByRole('button', { name: 'Request Change' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Request Schedule Change' });
  await expect(dialog).toBeVisible();
  const d = await dialog.boundingBox();
  expect(d && d.x >= 0 && d.x + d.width <= 390).toBe(true);
  expect(await smallControls(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).tap();
  await expect(dialog).toBeHidden();
  // Focus goes back to the button that opened the dialog.
  await expect(openItem.getByRole('button', { name: 'Request Change' })).toBeFocused();

  expect(problems).toEqual([]);
  await context.close();
});
