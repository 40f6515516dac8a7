import { expect, test, type Browser, type Page } from '@playwright/test';
import { OFFLINE_NOISE, cutNetwork } from './support/network.ts';
import { signIn, watchPage } from './support/watch-page.ts';
import { keptCaches } from './support/kept-answers.ts';

// Issue 13, RBAC Administration (spec 02 section 2) for each kind of user: Access Denied for crew and
// managers (the server refuses them too), a company admin limited to its company's users, and the platform
// root, whose role change reaches the affected user's open app without a reload.

const NEW_PASSWORD = 'a-fresh-password-of-mine';

/** Waits until the users list is among the kept answers (they are written at most once a second). */
async function usersListKept(page: Page) {
  await expect
    .poll(async () => (await keptCaches(page)).filter((c) => c.includes('/api/rbac/users')).length)
    .toBe(1);
}

async function openAdmin(page: Page, path = '/rbac') {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'RBAC Administration' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Users' })).toBeVisible({ timeout: 15_000 });
}

async function pickOption(page: Page, dialogName: string, label: string, option: string) {
  await page.getByRole('dialog', { name: dialogName }).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Adds a user through Add User and returns the one-time password the dialog shows once. */
async function addUser(
  page: Page,
  user: { email: string; first: string; last: string; role: string; company?: string },
): Promise<string> {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('First Name').fill(user.first);
  await dialog.getByLabel('Last Name').fill(user.last);
  if (user.company) await pickOption(page, 'Add User', 'Company', user.company);
  await pickOption(page, 'Add User', 'Role', user.role);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog).toBeHidden();
  const shown = page.getByRole('dialog', { name: 'One-time password' });
  await expect(shown).toContainText('It must be changed at first sign-in.');
  await expect(shown.getByRole('button', { name: 'Copy password' })).toBeVisible();
  const password = (await shown.getByLabel('One-time password').textContent())?.trim() ?? '';
  expect(password.length).toBeGreaterThanOrEqual(12);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  return password;
}

/** The new user, in a browser of their own: signs in with the one-time password and must replace it. */
async function firstSignIn(browser: Browser, email: string, oneTime: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const watch = await watchPage(page);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(oneTime);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('Current password').fill(oneTime);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set new password' }).click();
  // The change-password page is shown at /dashboard with a Sign Out button of its own: wait for it to go,
  // or the checks below race the password change (which ends the one-time session).
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  return { context, page, watch };
}

for (const email of ['crew@summit.test', 'manager@summit.test']) {
  test(`${email.split('@')[0]}: Access Denied at /rbac and /rbac-admin, and the server refuses the admin calls`, async ({
    page,
  }) => {
    const watch = await watchPage(page);
    await signIn(page, email);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'RBAC Admin' }),
    ).toHaveCount(0);
    for (const path of ['/rbac', '/rbac-admin']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expect(page.getByText('RBAC Administration requires admin privileges.')).toBeVisible();
      await expect(page.getByRole('tab')).toHaveCount(0);
    }
    for (const url of ['/api/rbac/users', '/api/rbac/roles', '/api/companies']) {
      expect((await page.request.get(url)).status(), url).toBe(403);
    }
    watch.expectClean();
  });
}

test('company admin: only its company and the Users tab; a new crew user signs in with the one-time password, sets their own, and is refused once deactivated', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page);
  await signIn(page, 'admin@summit.test');
  await openAdmin(page, '/rbac-admin');
  await expect(page.getByRole('tab')).toHaveText(['Users']);
  await expect(page.getByRole('button', { name: 'Summit Builders' })).toBeVisible();
  await expect(page.getByText('Harbor Construction')).toHaveCount(0);
  await expect(page.getByText('crew@harbor.test')).toHaveCount(0);

  const stamp = Date.now();
  const email = `new.crew.${stamp}@summit.test`;
  const oneTime = await addUser(page, {
    email,
    first: 'Nia',
    last: `Okafor${stamp}`,
    role: 'Crew Member (Standard)',
  });
  const row = page.getByRole('listitem').filter({ hasText: email });
  await expect(row).toContainText('Crew Member');
  await expect(row).toContainText('Active');

  const newcomer = await firstSignIn(browser, email, oneTime);
  // Asked from the page itself: what the user's browser sends is the cookie under test.
  const status = (path: string) =>
    newcomer.page.evaluate(async (url) => (await fetch(url, { credentials: 'include' })).status, path);
  expect(await status('/api/auth/user')).toBe(200);
  // Nothing went wrong while they were a user; once deactivated, their app's calls are refused (401).
  newcomer.watch.expectClean();

  await row.getByRole('button', { name: `Deactivate Nia Okafor${stamp}` }).click();
  // It signs them out at once, so it asks first.
  await page
    .getByRole('alertdialog', { name: 'Deactivate user?' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: 'User status updated successfully' }),
  ).toBeVisible();
  await expect(row).toContainText('Inactive');
  // Their next request is refused, and their open app goes back to sign-in.
  expect(await status('/api/tasks')).toBe(401);
  await newcomer.page.reload();
  await expect(newcomer.page).toHaveURL(/\/login/);
  await newcomer.context.close();
  watch.expectClean();
});

test.describe('platform root', () => {
  test.use({ timezoneId: 'America/Denver' });

  test('creates a company and a role, grants a permission, and the affected user’s open app shows the new menu without a reload', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const watch = await watchPage(page);
    await signIn(page, 'root@sitecommand.test');
    await openAdmin(page);
    await expect(page.getByRole('tab')).toHaveText(['Users', 'Roles', 'Companies', 'Permissions']);
    const stamp = Date.now();

    // A company; its time zone starts as this browser's.
    await page.getByRole('tab', { name: 'Companies' }).click();
    const company = `Ridgeline Works ${stamp}`;
    await page.getByRole('button', { name: 'Add Company' }).click();
    const addCompany = page.getByRole('dialog', { name: 'Add Company' });
    await expect(addCompany.getByLabel('Time zone')).toHaveValue('America/Denver');
    await addCompany.getByLabel('Company name').fill(company);
    await addCompany.getByRole('button', { name: 'Create Company' }).click();
    await expect(addCompany).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Company created successfully' })).toBeVisible();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: company }) });
    await expect(card).toContainText('0 users');
    // 'Only show companies with users' hides it until it has one.
    await page.getByRole('switch', { name: 'Only show companies with users' }).click();
    await expect(card).toHaveCount(0);
    await page.getByRole('switch', { name: 'Only show companies with users' }).click();
    await expect(card).toHaveCount(1);

    // A role of that company: dashboard and projects, no photos.
    await page.getByRole('tab', { name: 'Roles' }).click();
    const role = `Site Viewer ${stamp}`;
    await page.getByRole('button', { name: 'Create Role' }).click();
    const addRole = page.getByRole('dialog', { name: 'Create Role' });
    await addRole.getByLabel('Role name').fill(role);
    await pickOption(page, 'Create Role', 'Company', company);
    for (const p of ['dashboard:view', 'projects:view', 'projects:read']) {
      await addRole.getByRole('checkbox', { name: p }).check();
    }
    await addRole.getByRole('button', { name: 'Create Role' }).click();
    await expect(addRole).toBeHidden();
    const roleCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: role }) });
    await expect(roleCard).toContainText('3 permissions');

    // A user of the new company with that role.
    await page.getByRole('tab', { name: 'Users' }).click();
    const email = `viewer.${stamp}@ridgeline.test`;
    const oneTime = await addUser(page, {
      email,
      first: 'Vic',
      last: `Viewer${stamp}`,
      company,
      role: `${role} (Standard)`,
    });
    await expect(page.getByRole('button', { name: company })).toContainText('1 user');

    const viewer = await firstSignIn(browser, email, oneTime);
    const menu = viewer.page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('link', { name: 'Projects' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Photos' })).toHaveCount(0);

    // Root grants photos:view to the role: the edit button on the card edits the role.
    await page.getByRole('tab', { name: 'Roles' }).click();
    await roleCard.getByRole('button', { name: `Edit role ${role}` }).click();
    const editRole = page.getByRole('dialog', { name: 'Edit Role' });
    await expect(editRole.getByLabel('Role name')).toHaveValue(role);
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/rbac/roles/'));
    await editRole.getByRole('checkbox', { name: 'photos:view' }).check();
    await editRole.getByRole('button', { name: 'Update Role' }).click();
    // An edit sends only what changed.
    expect(Object.keys((await patch).postDataJSON() as object)).toEqual(['permissions']);
    await expect(editRole).toBeHidden();
    await expect(roleCard).toContainText('4 permissions');

    // The viewer's open app, never reloaded, picks up the new menu item.
    await expect(menu.getByRole('link', { name: 'Photos' })).toBeVisible({ timeout: 40_000 });
    viewer.watch.expectClean();
    await viewer.context.close();
    watch.expectClean();
  });
});

test('company admin offline after a cold start: the last loaded lists with their time, and writes turned off', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  const watch = await watchPage(page, { allowNetworkErrors: true });
  await signIn(page, 'admin@summit.test');
  await openAdmin(page);
  await expect(page.getByText('crew@summit.test')).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await usersListKept(page);

  await cutNetwork(context);
  await page.close();
  const cold = await context.newPage();
  cold.on('console', (msg) => {
    if (msg.type() === 'error' && !OFFLINE_NOISE.test(msg.text())) watch.problems.push(msg.text());
  });
  await cold.goto('/rbac');
  await expect(cold.getByRole('heading', { level: 1, name: 'RBAC Administration' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(cold.getByText(/Offline: showing the lists as of /)).toBeVisible();
  await expect(cold.getByText('crew@summit.test')).toBeVisible();
  await expect(
    cold.getByText(/need the server: they are turned off until you are back online/),
  ).toBeVisible();
  await expect(cold.getByRole('button', { name: 'Add User' })).toBeDisabled();
  await expect(cold.getByRole('button', { name: /^Deactivate / }).first()).toBeDisabled();
  watch.expectClean();
});

test('root: a signed-out browser keeps no admin lists', async ({ page }) => {
  const watch = await watchPage(page);
  await signIn(page, 'root@sitecommand.test');
  await openAdmin(page);
  await expect(page.getByText('crew@harbor.test')).toBeVisible();
  await usersListKept(page);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await keptCaches(page)).toEqual([]);
  watch.expectClean();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every tab fits the screen with no sideways scroll, and its buttons are at least 44 px', async ({
    page,
  }) => {
    const watch = await watchPage(page);
    await signIn(page, 'root@sitecommand.test');
    await openAdmin(page);
    for (const tab of ['Users', 'Roles', 'Companies', 'Permissions']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('heading', { level: 2, name: tab })).toBeVisible();
      // Long names (the other tests add some) must truncate or wrap, never widen the page.
      const overflow = await page.evaluate(() => {
        const el = document.scrollingElement ?? document.documentElement;
        return el.scrollWidth - el.clientWidth;
      });
      expect(overflow, `${tab}: sideways scroll`).toBeLessThanOrEqual(0);
      const small = await page
        .getByRole('main')
        .locator('button:visible, [role="switch"]:visible, [role="tab"]:visible')
        .evaluateAll((els) =>
          els
            .map((el) => ({ el, box: el.getBoundingClientRect() }))
            .filter(({ box }) => box.height < 44 || box.width < 44)
            .map(({ el }) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName),
        );
      expect(small, `${tab}: tap targets under 44 px`).toEqual([]);
    }
    watch.expectClean();
  });
});
