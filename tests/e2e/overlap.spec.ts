import { expect, test, type Page } from '@playwright/test';

// Nothing a user needs lies under something else: a toast leaves the top bar's controls uncovered while
// it shows (WCAG 2.2 2.4.11 Focus Not Obscured).

const PASSWORD = 'sitecommand-demo';
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

async function signIn(page: Page, email: string) {
  // The API checks Origin on writes; a browser's own fetch would send the app's origin.
  const origin = new URL(test.info().project.use.baseURL ?? 'http://localhost:3131').origin;
  const res = await page.request.post('/api/auth/login', {
    headers: { origin },
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Ticks the first open task of Today's Tasks on /crew and waits for its toast; returns the toast. */
async function tickATask(page: Page) {
  await signIn(page, 'crew@summit.test');
  await page.goto('/crew');
  const today = page.getByRole('region', { name: "Today's Tasks" });
  const open = today.getByRole('article').filter({ has: page.getByRole('checkbox', { checked: false }) });
  await expect(open.first()).toBeVisible({ timeout: 30_000 });
  await open.first().getByRole('checkbox').check();
  const toast = page.getByRole('region', { name: /^Notifications \(/ }).locator('li', {
    hasText: 'Task completed!',
  });
  await expect(toast).toBeVisible({ timeout: 10_000 });
  return toast;
}

for (const size of SIZES) {
  test(`${size.name}: a toast after a save leaves the top bar's controls uncovered, the bell too when tabbed to`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const toast = await tickATask(page);
    const toastBox = (await toast.boundingBox())!;

    const covered: string[] = [];
    for (const control of await page.getByRole('banner').getByRole('button').all()) {
      const box = await control.boundingBox();
      if (box && overlaps(box, toastBox)) covered.push((await control.getAttribute('aria-label')) ?? '');
    }
    expect(covered, 'top bar buttons under the toast').toEqual([]);

    // A keyboard user reaches the bell while the toast still shows, and sees it.
    const bell = page.getByRole('button', { name: /^Notifications/ });
    for (let i = 0; i < 40 && !(await bell.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Shift+Tab');
    }
    await expect(bell).toBeFocused();
    await expect(toast).toBeVisible();
    expect(overlaps((await bell.boundingBox())!, (await toast.boundingBox())!)).toBe(false);
  });
}
