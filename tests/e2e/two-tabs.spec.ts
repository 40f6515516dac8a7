import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn, watchPage } from './support/watch-page.ts';

test('a tab left open follows at once when another tab of the browser signs in a user of another company', async ({
  context,
  page,
}) => {
  const watch = await watchPage(page);
  await signIn(page, 'crew@summit.test');
  await page.goto('/tasks');
  await expect(page.getByTestId('company-name')).toHaveText('Summit Builders');

  // The same browser, a second tab: Sign Out, then someone of another company signs in. The session
  // cookie is the browser's, so the first tab's requests now carry that user's session.
  const other = await context.newPage();
  await other.goto('/dashboard');
  await other.getByRole('button', { name: 'Sign Out' }).click();
  await expect(other).toHaveURL(/\/login$/);
  await other.getByLabel('Email').fill('admin@harbor.test');
  await other.getByLabel('Password').fill(DEMO_PASSWORD);
  await other.getByRole('button', { name: 'Sign In' }).click();
  await expect(other).toHaveURL(/\/dashboard$/);

  // The first tab stops showing Summit's crew member straight away, not at its next session check
  // (15 s later), during which a screen it opened showed Harbor's answers under Summit's name and kept
  // them on the device as the crew member's.
  await expect(page.getByTestId('company-name')).toHaveText('Harbor Construction', { timeout: 5_000 });
  // Between the Sign Out and the next sign-in the browser has no session: a call the first tab had under
  // way then (its first download's next page, the event stream, the bell) is answered 401, which is how it
  // learns. Anything else is a problem.
  const signedOutGap = /status of 401 \(Unauthorized\) \(http:\/\/[^/]+\/api\//;
  expect(watch.problems.filter((p) => !signedOutGap.test(p))).toEqual([]);
});
