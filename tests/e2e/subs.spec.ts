import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';
import {
  boardOverview,
  dailyTasks,
  groupTasks,
  isActiveSubcontractor,
  milestoneTasks,
  recentActivity,
  SUBCONTRACTOR_CATEGORY,
  weeklyView,
} from '../../shared/rules/subs-board.ts';
import { OFFLINE_NOISE, cutNetwork, restoreNetwork } from './support/network.ts';

// Issue 13, /subs: the six tabs show what the test computes from the API (with the shared board rules),
// online and offline after a cold start; a manager creates a subcontractor task and puts a subcontractor on
// a project; the subcontractor account sees only its assigned projects' tasks.

const PASSWORD = 'sitecommand-demo';
interface ApiTask {
  id: string;
  title: string;
  category: string;
  status: string;
  projectId: string | null;
  assigneeId: string | null;
  dueDate: string | null;
  isMilestone: boolean;
  updatedAt: string;
  createdAt: string;
}
interface ApiUser {
  id: string;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  role: string;
}
interface ApiProject {
  id: string;
  name: string;
}
interface ApiAssignment {
  id: string;
  subcontractorId: string;
  projectId: string;
  status: string;
}

let offline = false;
function watchConsole(page: Page, problems: string[]) {
  recordProblems(page, problems, (msg) => offline && OFFLINE_NOISE.test(msg.text()));
}

const origin = () => new URL(test.info().project.use.baseURL ?? 'http://localhost:3107').origin;

async function get<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.ok(), url).toBe(true);
  return (await res.json()) as T;
}

/** Everything the board is computed from, read from the API as the signed-in user. */
async function fromApi(request: APIRequestContext) {
  const [tasks, users, projects, session] = await Promise.all([
    get<ApiTask[]>(request, '/api/tasks'),
    get<ApiUser[]>(request, '/api/users'),
    get<ApiProject[]>(request, '/api/projects'),
    get<{ companyTimeZone: string }>(request, '/api/auth/user'),
  ]);
  return {
    tasks: tasks.filter((t) => t.category === SUBCONTRACTOR_CATEGORY),
    allTasks: tasks,
    users,
    projects,
    timeZone: session.companyTimeZone,
  };
}
type Board = Awaited<ReturnType<typeof fromApi>>;

const nameOf = (u: ApiUser) => u.name || [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email || '';
const titles = (tasks: readonly { title: string }[]) => tasks.map((t) => t.title);
const weekday = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayHeading = (day: string) => weekday.format(Date.parse(`${day}T00:00:00.000Z`));

/** The task titles of a list on the page, in order. */
async function listTitles(page: Page, name: string): Promise<string[]> {
  const list = page.getByRole('list', { name, exact: true });
  if ((await list.count()) === 0) return [];
  return list
    .getByRole('button', { description: 'Open task' })
    .evaluateAll((els) => els.map((e) => e.querySelector('.font-medium')?.textContent ?? ''));
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/** Checks each of the six tabs against what the shared rules compute from the API's rows. */
async function expectTabsMatch(page: Page, board: Board) {
  const now = new Date();
  const { tasks, users, timeZone } = board;
  const projectNames = new Map(board.projects.map((p) => [p.id, p.name]));
  const userNames = new Map(users.map((u) => [u.id, nameOf(u)]));

  await openTab(page, 'Overview');
  const overview = boardOverview(tasks, users, now, timeZone);
  await expect(page.getByLabel(`Active Subcontractors: ${overview.activeSubcontractors}`)).toBeVisible();
  await expect(page.getByLabel(`Pending Tasks: ${overview.pendingTasks}`)).toBeVisible();
  await expect(page.getByLabel(`Due Today: ${overview.dueToday}`)).toBeVisible();
  const recent = titles(recentActivity(tasks));
  expect(recent.length).toBe(Math.min(5, tasks.length));
  await expect(page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem')).toHaveCount(
    recent.length,
  );
  expect(
    await page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('listitem')
      .evaluateAll((els) => els.map((e) => e.querySelector('button')?.textContent ?? '')),
  ).toEqual(recent);

  await openTab(page, 'Daily Tasks');
  expect(await listTitles(page, 'Tasks due today')).toEqual(titles(dailyTasks(tasks, now, timeZone)));

  await openTab(page, 'Weekly View');
  for (const { day, tasks: due } of weeklyView(tasks, now, timeZone)) {
    await expect(
      page.getByRole('heading', { level: 2, name: new RegExp(`^${dayHeading(day)}`) }),
    ).toBeVisible();
    expect(await listTitles(page, `Tasks due ${dayHeading(day)}`), day).toEqual(titles(due));
  }

  await openTab(page, 'By Projects');
  const byProject = groupTasks(tasks, (t) => t.projectId);
  for (const [projectId, list] of byProject) {
    const name = projectId ? (projectNames.get(projectId) ?? 'Unknown Project') : 'No Project';
    expect(await listTitles(page, `Tasks of ${name}`), name).toEqual(titles(list));
  }
  await expect(page.getByRole('list', { name: /^Tasks of / })).toHaveCount(byProject.size);

  await openTab(page, 'By Subcontractors');
  const byAssignee = groupTasks(tasks, (t) => t.assigneeId);
  for (const sub of users.filter(isActiveSubcontractor)) {
    const name = userNames.get(sub.id)!;
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) })).toBeVisible();
    expect(await listTitles(page, `Tasks of ${name}`), name).toEqual(titles(byAssignee.get(sub.id) ?? []));
  }
  await expect(page.getByRole('heading', { level: 2, name: /^Unassigned Tasks/ })).toBeVisible();
  expect(await listTitles(page, 'Unassigned tasks')).toEqual(titles(byAssignee.get(null) ?? []));

  await openTab(page, 'Milestones');
  const milestones = milestoneTasks(tasks);
  expect(await listTitles(page, 'Milestone tasks')).toEqual(titles(milestones));
  if (milestones.length > 0)
    await expect(page.getByRole('list', { name: 'Milestone tasks' }).getByText('Milestone')).toHaveCount(
      milestones.length,
    );
}

async function openBoard(page: Page) {
  await page.goto('/subs');
  await expect(page.getByRole('heading', { level: 1, name: 'Subcontractors' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible({ timeout: 20_000 });
}

test.describe.configure({ mode: 'serial' });

test('the six tabs equal what the API gives, online and offline after a cold start', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'manager@summit.test');
  await openBoard(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const board = await fromApi(page.request);
  // The seed has subcontractor tasks and other tasks: the board must show only the former.
  expect(board.tasks.length).toBeGreaterThan(0);
  expect(board.allTasks.length).toBeGreaterThan(board.tasks.length);
  await expectTabsMatch(page, board);

  // Cold start with no network: a new page opens the board from the device alone.
  offline = true;
  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  watchConsole(cold, problems);
  await openBoard(cold);
  await expectTabsMatch(cold, board);
  // Offline, the project assignment says why it cannot be made.
  await openTab(cold, 'By Subcontractors');
  await expect(cold.getByText(/needs a connection: you are offline/)).toBeVisible();
  await expect(cold.getByRole('button', { name: 'Assign to Project' })).toBeDisabled();
  await restoreNetwork(context, [cold]);
  offline = false;
  expect(problems).toEqual([]);
});

test('a manager creates a subcontractor task and puts a subcontractor on a project', async ({ page }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'manager@summit.test');
  await openBoard(page);
  const users = await get<ApiUser[]>(page.request, '/api/users');
  const sub = users.find((u) => u.email === 'sub@summit.test')!;
  const assigned = await get<ApiAssignment[]>(page.request, '/api/subcontractor-assignments');
  const projects = await get<ApiProject[]>(page.request, '/api/projects');
  const mine = new Set(
    assigned.filter((a) => a.subcontractorId === sub.id && a.status === 'active').map((a) => a.projectId),
  );
  const target = projects.find((p) => !mine.has(p.id))!;
  expect(target).toBeTruthy();

  const title = `Install fire doors ${Date.now()}`;
  await page.getByRole('button', { name: 'Add Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Subcontractor Task' });
  await dialog.getByRole('combobox', { name: /^Project/ }).click();
  await page.getByRole('option', { name: target.name, exact: true }).click();
  await dialog.getByLabel(/^Title/).fill(title);
  await dialog.getByRole('combobox', { name: 'Assign to Subcontractor' }).click();
  await page.getByRole('option', { name: nameOf(sub), exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'Mark as milestone' }).check();
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => (await get<ApiTask[]>(page.request, '/api/tasks')).find((t) => t.title === title), {
      timeout: 15_000,
    })
    .toMatchObject({
      category: 'subcontractor',
      projectId: target.id,
      assigneeId: sub.id,
      isMilestone: true,
    });
  await openTab(page, 'Milestones');
  expect(await listTitles(page, 'Milestone tasks')).toContain(title);

  await openTab(page, 'By Subcontractors');
  const group = page.getByRole('region', { name: nameOf(sub), exact: true });
  await group.getByRole('button', { name: 'Assign Project' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign Subcontractor to Project' });
  await assign.getByRole('combobox', { name: /^Project/ }).click();
  await page.getByRole('option', { name: target.name, exact: true }).click();
  await assign.getByLabel('Specialization').fill('Fire doors');
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByText('Subcontractor assigned to project').first()).toBeVisible();
  const after = await get<ApiAssignment[]>(page.request, '/api/subcontractor-assignments');
  expect(
    after.some((a) => a.subcontractorId === sub.id && a.projectId === target.id && a.status === 'active'),
  ).toBe(true);
  // The device mirror picks the assignment up: the group lists the project.
  await expect(
    page.getByRole('list', { name: `Projects of ${nameOf(sub)}` }).getByText(target.name, { exact: true }),
  ).toBeVisible({ timeout: 15_000 });
  expect(problems).toEqual([]);
});

test('a subcontractor sees only the tasks of its assigned projects', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'sub@summit.test');
  await openBoard(page);
  const board = await fromApi(page.request);
  const assignments = await get<ApiAssignment[]>(page.request, '/api/subcontractor-assignments');
  const mine = new Set(assignments.filter((a) => a.status === 'active').map((a) => a.projectId));
  expect(mine.size).toBeGreaterThan(0);

  // What a manager sees of the company: subcontractor tasks on projects this subcontractor is not on.
  const manager = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const res = await manager.request.post('/api/auth/login', {
    headers: { origin: origin() },
    data: { email: 'manager@summit.test', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  const all = (await get<ApiTask[]>(manager.request, '/api/tasks')).filter(
    (t) => t.category === SUBCONTRACTOR_CATEGORY,
  );
  await manager.close();
  const elsewhere = all.filter(
    (t) =>
      t.projectId &&
      !mine.has(t.projectId) &&
      t.assigneeId !== board.users.find((u) => u.email === 'sub@summit.test')?.id,
  );
  expect(elsewhere.length).toBeGreaterThan(0);

  await expectTabsMatch(page, board);
  await openTab(page, 'By Projects');
  const shown = await page
    .getByRole('list', { name: /^Tasks of / })
    .getByRole('button', { description: 'Open task' })
    .evaluateAll((els) => els.map((e) => e.querySelector('.font-medium')?.textContent ?? ''));
  for (const t of elsewhere) expect(shown).not.toContain(t.title);
  // The task the manager made on the project it was just put on is here.
  expect(shown.some((s) => s.startsWith('Install fire doors'))).toBe(true);
  // A subcontractor cannot put anyone on a project.
  await openTab(page, 'By Subcontractors');
  await expect(page.getByRole('button', { name: /Assign (to )?Project/ })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a manager takes a subcontractor off a project after confirming', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'manager@summit.test');
  await openBoard(page);
  const users = await get<ApiUser[]>(page.request, '/api/users');
  const sub = users.find((u) => u.email === 'sub@summit.test')!;
  const projects = await get<ApiProject[]>(page.request, '/api/projects');
  const before = await get<ApiAssignment[]>(page.request, '/api/subcontractor-assignments');
  // One of the subcontractor's active assignments (the seed's, or the one the previous test made).
  const assignment = before.find((a) => a.subcontractorId === sub.id && a.status === 'active')!;
  const project = projects.find((p) => p.id === assignment.projectId)!;

  await openTab(page, 'By Subcontractors');
  await page.getByRole('button', { name: `Remove ${nameOf(sub)} from ${project.name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove from Project' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Subcontractor removed from project').first()).toBeVisible();
  const after = await get<ApiAssignment[]>(page.request, '/api/subcontractor-assignments');
  expect(after.some((a) => a.id === assignment.id)).toBe(false);
  await expect(page.getByRole('button', { name: `Remove ${nameOf(sub)} from ${project.name}` })).toHaveCount(
    0,
    { timeout: 15_000 },
  );

  // The subcontractor no longer reads that project.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const res = await other.request.post('/api/auth/login', {
    headers: { origin: origin() },
    data: { email: 'sub@summit.test', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  const visible = await get<ApiProject[]>(other.request, '/api/projects');
  expect(visible.some((p) => p.id === project.id)).toBe(false);
  await other.close();
  expect(problems).toEqual([]);
});

test('phone: the board fits 390 px with 44 px tap targets', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    baseURL: test.info().project.use.baseURL,
  });
  const page = await context.newPage();
  await signInByApi(page, 'manager@summit.test');
  await openBoard(page);
  for (const tab of [
    'Overview',
    'Daily Tasks',
    'Weekly View',
    'By Projects',
    'By Subcontractors',
    'Milestones',
  ]) {
    await openTab(page, tab);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, tab).toBeLessThanOrEqual(390);
  }
  for (const tab of await page.getByRole('tab').all()) {
    const box = await tab.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  const box = await page.getByRole('checkbox').first().boundingBox();
  // The checkbox's label is the 44 px target around it.
  const label = await page.getByRole('checkbox').first().locator('xpath=..').boundingBox();
  expect(box).toBeTruthy();
  expect(label!.height).toBeGreaterThanOrEqual(44);
  expect(label!.width).toBeGreaterThanOrEqual(44);
  const row = await page.getByRole('button', { description: 'Open task' }).first().boundingBox();
  expect(row!.height).toBeGreaterThanOrEqual(44);
  await context.close();
});
