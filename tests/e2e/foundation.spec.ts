import { expect, test } from '@playwright/test';

test('the server serves the app shell and a browser session can sign in, with no CSP violations', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/401/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'SiteCommand' })).toBeVisible();
  await expect(page.locator('#root')).toHaveAttribute('data-session', 'signed-out');

  const signIn = await page.evaluate(async () => {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@summit.test', password: 'sitecommand-demo' }),
    });
    return { status: res.status, cookieVisibleToScript: document.cookie.includes('sc_session') };
  });
  expect(signIn).toEqual({ status: 200, cookieVisibleToScript: false });

  await page.reload();
  await expect(page.locator('#root')).toHaveAttribute('data-session', 'signed-in');
  const user = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
  expect(user).toMatchObject({ email: 'admin@summit.test', companyName: 'Summit Builders' });
  expect(problems).toEqual([]);
});

test('a cross-site form post is refused', async ({ request }) => {
  const res = await request.post('/api/projects', {
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { name: 'x', location: 'y' },
  });
  expect(res.status()).toBe(403);
});
