import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';

// Issue 5 item 7: the Projects screen online, and two users of one company converging through sync.

interface ServerProject {
  id: string;
  name: string;
  location: string;
  status: string;
  progress: number;
  dueDate: string | null;
}
interface ServerTask {
  id: string;
  title: string;
  projectId: string | null;
  assigneeId: string | null;
}

async function openProjects(page: Page) {
  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('Summit Builders').first()).toBeVisible();
  // The first pull has filled the device: a seeded project is on the screen.
  await expect(page.getByRole('article', { name: 'Riverside Medical Office Building' })).toBeVisible({
    timeout: 20_000,
  });
}

async function serverProjects(request: APIRequestContext): Promise<ServerProject[]> {
  const res = await request.get('/api/projects');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerProject[];
}

async function serverTasks(request: APIRequestContext): Promise<ServerTask[]> {
  const res = await request.get('/api/tasks');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerTask[];
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

async function pick(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
  label: string | RegExp,
  option: string,
) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('Projects screen online', () => {
  test.setTimeout(90_000);

  test('a project is created, edited, given a task and deleted, and the server has each change', async ({
    page,
  }) => {
    const problems: string[] = [];
    recordProblems(page, problems);
    await signInByApi(page, 'admin@summit.test');
    await openProjects(page);

    const name = `Online Depot ${Date.now()}`;
    await page.getByRole('button', { name: 'New Project' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Project' });
    await create.getByRole('button', { name: 'Create Project' }).click();
    await expect(create.getByText('Name is required')).toBeVisible();
    await expect(create.getByText('Location is required')).toBeVisible();
    await create.getByLabel('Name').fill(name);
    await create.getByLabel('Description').fill('Two-bay maintenance depot');
    await create.getByLabel('Location').fill('Aurora, CO');
    await create.getByLabel('Progress (%)').fill('150');
    await create.getByRole('button', { name: 'Create Project' }).click();
    await expect(create.getByText('Progress must be 0 to 100')).toBeVisible();
    await create.getByLabel('Progress (%)').fill('10');
    await create.getByLabel('Due date').fill('2031-05-20');
    await create.getByRole('button', { name: 'Create Project' }).click();
    await expect(create).toBeHidden();

    const depot = card(page, name);
    await expect(depot).toBeVisible();
    await expect(depot.getByText('Active', { exact: true })).toBeVisible();
    await expect(depot.getByText('10%')).toBeVisible();
    await expect(depot.getByText('Due May 20, 2031')).toBeVisible();
    await expect
      .poll(async () => (await serverProjects(page.request)).find((p) => p.name === name), {
        timeout: 15_000,
      })
      .toMatchObject({
        location: 'Aurora, CO',
        status: 'active',
        progress: 10,
        dueDate: '2031-05-20T00:00:00.000Z',
      });

    // Edit: a new name, status and progress.
    const renamed = `${name} (phase 2)`;
    await depot.getByRole('button', { name: 'Edit project' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await expect(edit.getByLabel('Name')).toHaveValue(name);
    await edit.getByLabel('Name').fill(renamed);
    await pick(page, edit, 'Status', 'Delayed');
    await edit.getByLabel('Progress (%)').fill('35');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toBeHidden();
    const phase2 = card(page, renamed);
    await expect(phase2.getByText('Delayed')).toBeVisible();
    await expect(phase2.getByText('35%')).toBeVisible();
    await expect
      .poll(async () => (await serverProjects(page.request)).find((p) => p.name === renamed), {
        timeout: 15_000,
      })
      .toMatchObject({ status: 'delayed', progress: 35 });

    // A task, assigned to a named user.
    await phase2.getByRole('button', { name: 'Add task' }).click();
    const addTask = page.getByRole('dialog', { name: `Add Task to ${renamed}` });
    await addTask.getByLabel('Title').fill('Pour the slab');
    await pick(page, addTask, 'Priority', 'High');
    await pick(page, addTask, 'Assignee', 'David Okafor');
    await addTask.getByRole('button', { name: 'Add Task' }).click();
    await expect(addTask).toBeHidden();
    await expect(phase2.getByText('1 task', { exact: true })).toBeVisible();
    await phase2.getByRole('button', { name: /^Tasks/ }).click();
    const taskRow = phase2.getByRole('listitem', { name: 'Pour the slab' });
    await expect(taskRow).toContainText('David Okafor');
    await expect(taskRow).toContainText('High');
    const project = (await serverProjects(page.request)).find((p) => p.name === renamed);
    await expect
      .poll(
        async () =>
          (await serverTasks(page.request)).find(
            (t) => t.title === 'Pour the slab' && t.projectId === project?.id,
          ),
        {
          timeout: 15_000,
        },
      )
      .toBeTruthy();

    // Delete: the dialog counts the task, and the server drops the project and its task.
    await phase2.getByRole('button', { name: 'Delete project' }).click();
    const del = page.getByRole('alertdialog', { name: 'Delete Project' });
    await expect(del.getByText('All associated tasks (1 task)')).toBeVisible();
    await expect(del.getByText('This action cannot be undone.')).toBeVisible();
    await del.getByRole('button', { name: 'Delete Project' }).click();
    await expect(del).toBeHidden();
    await expect(card(page, renamed)).toHaveCount(0);
    await expect
      .poll(async () => (await serverProjects(page.request)).some((p) => p.id === project?.id), {
        timeout: 15_000,
      })
      .toBe(false);
    expect((await serverTasks(page.request)).some((t) => t.projectId === project?.id)).toBe(false);

    expect(problems).toEqual([]);
  });

  test('the Cards/List toggle, sections with counts, the gallery and the task list work', async ({
    page,
  }) => {
    const problems: string[] = [];
    recordProblems(page, problems);
    await signInByApi(page, 'manager@summit.test');
    await openProjects(page);

    const projects = await serverProjects(page.request);
    const completed = projects.filter((p) => p.status === 'completed').length;
    const active = projects.length - completed;
    const activeSection = page.getByRole('region', { name: /^Active Projects/ });
    const completedSection = page.getByRole('region', { name: /^Completed Projects/ });
    await expect(
      activeSection.getByLabel(`${active} ${active === 1 ? 'project' : 'projects'}`),
    ).toBeVisible();
    await expect(
      completedSection.getByLabel(`${completed} ${completed === 1 ? 'project' : 'projects'}`),
    ).toBeVisible();
    await expect(activeSection.getByRole('article')).toHaveCount(active);

    await completedSection.getByRole('button', { name: /Completed Projects/ }).click();
    await expect(completedSection.getByRole('article')).toHaveCount(0);

    const riverside = card(page, 'Riverside Medical Office Building');
    await riverside.getByRole('button', { name: 'Gallery' }).click();
    const gallery = page.getByRole('dialog', { name: 'Riverside Medical Office Building Photos' });
    await expect(gallery.getByRole('tab', { name: /View Photos/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(gallery).toBeHidden();

    await riverside.getByRole('button', { name: /^Tasks/ }).click();
    await expect(riverside.getByRole('listitem').first()).toBeVisible();

    await page.getByRole('radio', { name: 'List' }).click();
    const table = page.getByRole('table', { name: 'Projects' });
    await expect(table.getByRole('rowheader')).toHaveCount(projects.length);
    await page.getByRole('radio', { name: 'Cards' }).click();
    await expect(page.getByRole('region', { name: /^Active Projects/ })).toBeVisible();

    expect(problems).toEqual([]);
  });
});

test('two users of one company see each other’s project changes after sync', async ({ browser }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const admin = await contextA.newPage();
    const manager = await contextB.newPage();
    recordProblems(admin, problems);
    recordProblems(manager, problems);
    await signInByApi(admin, 'admin@summit.test');
    await signInByApi(manager, 'manager@summit.test');
    await openProjects(admin);
    await openProjects(manager);

    // The admin creates a project; the manager's device pulls it.
    const name = `Shared Annex ${Date.now()}`;
    await admin.getByRole('button', { name: 'New Project' }).click();
    const create = admin.getByRole('dialog', { name: 'Create New Project' });
    await create.getByLabel('Name').fill(name);
    await create.getByLabel('Location').fill('Boulder, CO');
    await create.getByRole('button', { name: 'Create Project' }).click();
    await expect(card(manager, name)).toBeVisible({ timeout: 40_000 });

    // The manager edits it; the admin sees the edit.
    await card(manager, name).getByRole('button', { name: 'Edit project' }).click();
    const edit = manager.getByRole('dialog', { name: 'Edit Project' });
    await edit.getByLabel('Progress (%)').fill('55');
    await pick(manager, edit, 'Status', 'On Hold');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(card(admin, name).getByText('55%')).toBeVisible({ timeout: 40_000 });
    await expect(card(admin, name).getByText('On Hold')).toBeVisible();

    // The admin deletes it; it leaves the manager's screen.
    await card(admin, name).getByRole('button', { name: 'Delete project' }).click();
    await admin
      .getByRole('alertdialog', { name: 'Delete Project' })
      .getByRole('button', { name: 'Delete Project' })
      .click();
    await expect(card(manager, name)).toHaveCount(0, { timeout: 40_000 });

    expect(problems).toEqual([]);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test('cards out of view are not rendered until scrolled to, then show whole and work', async ({ page }) => {
  const problems: string[] = [];
  recordProblems(page, problems);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInByApi(page, 'manager@summit.test');
  await openProjects(page);
  const cards = page.getByRole('article');
  const first = cards.first();
  const last = cards.last();
  // The browser's own answer: does it render the card's content, or skip it (content-visibility: auto)?
  const rendered = (locator: typeof first) =>
    locator.evaluate((el) => el.querySelector('h3')!.checkVisibility({ contentVisibilityAuto: true }));
  expect(await rendered(first)).toBe(true);
  // On a phone the last card sits screens below the fold: nothing of it is laid out or painted.
  expect(await rendered(last)).toBe(false);

  await last.scrollIntoViewIfNeeded();
  await expect.poll(() => rendered(last)).toBe(true);
  // Shown, the card takes its content's height: nothing in it is cut off.
  const fits = await last.evaluate((el) => el.scrollHeight <= el.clientHeight + 1);
  expect(fits).toBe(true);
  const name = (await last.getByRole('heading', { level: 3 }).textContent())!;
  await last.getByRole('button', { name: 'Edit project' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Project' });
  await expect(edit.getByRole('textbox', { name: /^Name/ })).toHaveValue(name);
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  expect(problems).toEqual([]);
});
