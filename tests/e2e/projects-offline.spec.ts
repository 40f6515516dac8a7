import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { recordProblems, signInByApi } from './support/watch-page.ts';
import { OFFLINE_NOISE, cutNetwork, restoreNetwork } from './support/network.ts';

// Issue 5 item 7, offline: create, edit and delete with no network, a cold start with no network, then the
// server catches up once the device is back online. Playwright's setOffline does not cover the service
// worker (DESIGN.md section 12), so the API is also aborted by route, and the `online` event is fired by hand.

interface ServerProject {
  id: string;
  name: string;
  location: string;
  status: string;
  progress: number;
}

let offline = false;

function watchConsole(page: Page, problems: string[]) {
  recordProblems(page, problems, (msg) => offline && OFFLINE_NOISE.test(msg.text()));
}

async function serverProjects(request: APIRequestContext): Promise<ServerProject[]> {
  const res = await request.get('/api/projects');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ServerProject[];
}

async function goOffline(context: BrowserContext) {
  offline = true;
  await cutNetwork(context);
}

async function goOnline(context: BrowserContext, pages: Page[]) {
  await restoreNetwork(context, pages);
  offline = false;
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

async function createProject(page: Page, name: string, location: string) {
  await page.getByRole('button', { name: 'New Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Location').fill(location);
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, name)).toBeVisible();
}

async function deleteProject(page: Page, name: string) {
  await card(page, name).getByRole('button', { name: 'Delete project' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete Project' });
  await dialog.getByRole('button', { name: 'Delete Project' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, name)).toHaveCount(0);
}

test('offline: create, edit and delete, a cold start with no network, then the server catches up', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  watchConsole(page, problems);
  await signInByApi(page, 'admin@summit.test');
  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(card(page, 'Riverside Medical Office Building')).toBeVisible({ timeout: 20_000 });
  // The service worker must hold the app shell before the network goes away.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  // A project made online and synced, to be deleted offline.
  const stamp = Date.now();
  const doomed = `Offline Doomed ${stamp}`;
  await createProject(page, doomed, 'Golden, CO');
  await expect
    .poll(async () => (await serverProjects(page.request)).some((p) => p.name === doomed), {
      timeout: 15_000,
    })
    .toBe(true);

  await goOffline(context);

  // Created and edited with no network.
  const name = `Offline Yard ${stamp}`;
  const renamed = `${name} (edited)`;
  await createProject(page, name, 'Lakewood, CO');
  await card(page, name).getByRole('button', { name: 'Edit project' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Project' });
  await edit.getByLabel('Name').fill(renamed);
  await edit.getByLabel('Progress (%)').fill('25');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expect(card(page, renamed).getByText('25%')).toBeVisible();

  // A task on it, offline too.
  await card(page, renamed).getByRole('button', { name: 'Add task' }).click();
  const addTask = page.getByRole('dialog', { name: `Add Task to ${renamed}` });
  await addTask.getByLabel('Title').fill('Fence the yard');
  await addTask.getByRole('button', { name: 'Add Task' }).click();
  await expect(addTask).toBeHidden();
  await expect(card(page, renamed).getByText('1 task', { exact: true })).toBeVisible();

  // Deleted with no network: the synced one, and one made offline.
  await deleteProject(page, doomed);
  const scratch = `Offline Scratch ${stamp}`;
  await createProject(page, scratch, 'Arvada, CO');
  await deleteProject(page, scratch);

  // Nothing has reached the server yet.
  const before = await serverProjects(page.request);
  expect(before.some((p) => p.name === name || p.name === renamed)).toBe(false);
  expect(before.some((p) => p.name === doomed)).toBe(true);

  // Cold start with no network: a new page in the same context opens the app from the device.
  await page.close();
  const cold = await context.newPage();
  watchConsole(cold, problems);
  await cold.goto('/projects');
  await expect(cold.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible({ timeout: 20_000 });
  await expect(card(cold, renamed)).toBeVisible();
  await expect(card(cold, renamed).getByText('25%')).toBeVisible();
  await expect(card(cold, renamed).getByText('1 task', { exact: true })).toBeVisible();
  await expect(card(cold, doomed)).toHaveCount(0);
  await expect(card(cold, scratch)).toHaveCount(0);

  // Back online: the queued changes reach the server.
  await goOnline(context, [cold]);
  await expect
    .poll(async () => (await serverProjects(cold.request)).find((p) => p.name === renamed), {
      timeout: 30_000,
    })
    .toMatchObject({ location: 'Lakewood, CO', progress: 25, status: 'active' });
  const after = await serverProjects(cold.request);
  expect(after.some((p) => p.name === doomed)).toBe(false);
  expect(after.some((p) => p.name === scratch)).toBe(false);
  const yard = after.find((p) => p.name === renamed);
  const tasks = (await (await cold.request.get('/api/tasks')).json()) as {
    title: string;
    projectId: string;
  }[];
  expect(tasks.some((t) => t.title === 'Fence the yard' && t.projectId === yard?.id)).toBe(true);

  expect(problems).toEqual([]);
});
