import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { cutNetwork, restoreNetwork } from './support/network.ts';
import { DEMO_PASSWORD, watchPage } from './support/watch-page.ts';

// Issue 12, the communications and change-order feed: a crew member raises a dispute and a change order
// offline from a cold start on a phone; reconnected, they reach the server; a manager on another device
// approves the change order; the crew device shows it approved; an admin's reject, taken offline on a
// stale copy, comes back as a named Sync issue.

interface ServerChangeOrder {
  id: string;
  title: string;
  status: string;
  costImpact: number;
  timeImpact: number;
  requestedBy: string | null;
}
interface ServerCommunication {
  id: string;
  subject: string;
  type: string;
  priority: string;
}

const origin = () => new URL(test.info().project.use.baseURL ?? 'http://localhost:3112').origin;

async function device(browser: Browser, email: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const res = await context.request.post('/api/auth/login', {
    headers: { origin: origin() },
    data: { email, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

/** Opens /dashboard on its Communications tab and waits for the feed to read the device. */
async function openFeed(context: BrowserContext, page?: Page): Promise<Page> {
  const p = page ?? (await context.newPage());
  await p.goto('/dashboard');
  await p.getByRole('tab', { name: 'Communications' }).click({ timeout: 30_000 });
  await expect(p.getByRole('heading', { level: 2, name: 'Communications' })).toBeVisible({ timeout: 30_000 });
  await expect(p.getByText('Loading communications...')).toHaveCount(0, { timeout: 30_000 });
  return p;
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

async function pick(page: Page, scope: ReturnType<Page['getByRole']>, label: RegExp, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('crew raise a dispute and a change order offline from a cold start; a manager approves; a stale reject is a named Sync issue', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const crew = await device(browser, 'crew@summit.test', { width: 390, height: 844 });
  const manager = await device(browser, 'manager@summit.test');
  const admin = await device(browser, 'admin@summit.test');
  const projects = (await (await crew.request.get('/api/projects')).json()) as { id: string; name: string }[];
  const project = projects[0]!;
  const stamp = Date.now();
  const subject = `Rebar delivery short ${stamp}`;
  const title = `Extra footing at C4 ${stamp}`;

  // The crew phone has synced once and holds the app; then the signal goes.
  const first = await openFeed(crew);
  await first.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await cutNetwork(crew);
  await first.close();

  // Cold start with no network: the feed opens from the device and takes both requests.
  const cold = await crew.newPage();
  const coldWatch = await watchPage(cold, { allowNetworkErrors: true });
  await openFeed(crew, cold);
  expect(await cold.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await cold.getByRole('button', { name: 'New Communication' }).click();
  const form = cold.getByRole('dialog', { name: 'New Communication' });
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByText('Subject is required')).toBeVisible();
  await form.getByLabel(/^Subject/).fill(subject);
  await form.getByLabel(/^Message/).fill('Six bundles missing from this morning’s delivery');
  await pick(cold, form, /^Type/, 'Dispute');
  await pick(cold, form, /^Priority/, 'High');
  await pick(cold, form, /^Project/, project.name);
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form).toHaveCount(0);
  await expect(card(cold, subject).getByText('Waiting to sync')).toBeVisible();

  await cold.getByRole('button', { name: 'New Change Order' }).click();
  const order = cold.getByRole('dialog', { name: 'New Change Order' });
  await order.getByLabel(/^Title/).fill(title);
  await order.getByLabel(/^Description/).fill('Soft ground found while digging');
  await order.getByLabel('Cost Impact ($)').fill('1,234.56');
  await order.getByLabel('Time Impact (days)').fill('3');
  await pick(cold, order, /^Project/, project.name);
  await order.getByRole('button', { name: 'Submit Change Order' }).click();
  await expect(order).toHaveCount(0);
  const crewCard = card(cold, title);
  await expect(crewCard.getByText('$1,234.56')).toBeVisible();
  await expect(crewCard.getByText('Pending', { exact: true })).toBeVisible();
  await expect(crewCard.getByText('Waiting to sync')).toBeVisible();
  // Crew do not decide change orders.
  await expect(crewCard.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The Disputes tab lists the dispute.
  await cold.getByRole('tab', { name: 'Disputes' }).click();
  await expect(card(cold, subject)).toBeVisible();
  await cold.getByRole('tab', { name: 'All' }).click();

  // Nothing has reached the server yet.
  const serverOrder = async () =>
    ((await (await manager.request.get('/api/change-orders?limit=200')).json()) as ServerChangeOrder[]).find(
      (c) => c.title === title,
    );
  expect(await serverOrder()).toBeUndefined();

  // Reconnected, both reach the server: the change order pending, its cost in cents.
  await restoreNetwork(crew, [cold]);
  await expect.poll(async () => (await serverOrder())?.status, { timeout: 30_000 }).toBe('pending');
  expect(await serverOrder()).toMatchObject({ costImpact: 123456, timeImpact: 3 });
  const comms = (await (
    await manager.request.get('/api/communications?type=dispute&limit=200')
  ).json()) as ServerCommunication[];
  expect(comms.find((c) => c.subject === subject)).toMatchObject({ type: 'dispute', priority: 'high' });
  await expect(crewCard.getByText('Waiting to sync')).toHaveCount(0, { timeout: 30_000 });

  // The admin's device holds the pending request, then loses the network.
  const adminPage = await openFeed(admin);
  await expect(card(adminPage, title)).toBeVisible({ timeout: 30_000 });
  await cutNetwork(admin);

  // The manager, on another device, sees both and approves the change order.
  const managerPage = await openFeed(manager);
  const managerWatch = await watchPage(managerPage);
  await expect(card(managerPage, subject)).toBeVisible({ timeout: 30_000 });
  const managerCard = card(managerPage, title);
  await managerCard.getByRole('button', { name: 'Approve' }).click();
  await managerPage.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
  await expect(managerCard.getByText('Approved', { exact: true })).toBeVisible();
  await expect.poll(async () => (await serverOrder())?.status, { timeout: 30_000 }).toBe('approved');

  // The crew phone shows it approved.
  await expect(crewCard.getByText('Approved', { exact: true })).toBeVisible({ timeout: 45_000 });

  // The admin, offline on the stale copy, rejects it (confirming first); reconnected, it comes back named.
  const adminCard = card(adminPage, title);
  await adminCard.getByRole('button', { name: 'Reject' }).click();
  await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Reject' }).click();
  await expect(adminCard.getByText('Rejected', { exact: true })).toBeVisible();
  await restoreNetwork(admin, [adminPage]);
  await expect(adminPage.getByText(/was already approved by David Okafor/).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(adminCard.getByText('Approved', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect((await serverOrder())?.status).toBe('approved');

  coldWatch.expectClean();
  managerWatch.expectClean();
  await Promise.all([crew.close(), manager.close(), admin.close()]);
});
