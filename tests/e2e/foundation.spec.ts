import { expect, test } from '@playwright/test';
import { watchPage } from './support/watch-page.ts';

test('the server serves the app and a browser session can sign in, with an HttpOnly cookie and no CSP violations', async ({
  page,
}) => {
  const watch = await watchPage(page);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('Email').fill('admin@summit.test');
  await page.getByLabel('Password').fill('sitecommand-demo');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('company-name')).toHaveText('Summit Builders');
  expect(await page.evaluate(() => document.cookie.includes('sc_session'))).toBe(false);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  const user = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
  expect(user).toMatchObject({ email: 'admin@summit.test', companyName: 'Summit Builders' });
  watch.expectClean();
});

test('a cross-site form post is refused', async ({ request }) => {
  const res = await request.post('/api/projects', {
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { name: 'x', location: 'y' },
  });
  expect(res.status()).toBe(403);
});
