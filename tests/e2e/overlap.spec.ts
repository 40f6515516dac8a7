import { expect, test, type Page } from '@playwright/test';
import { ownTaskDueToday } from './support/own-task.ts';

// Nothing a user needs lies under something else: a toast leaves the top bar's controls uncovered while
// it shows (WCAG 2.2 2.4.11 Focus Not Obscured).

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Ticks a task of the crew member's day on /crew and waits for its toast; returns the toast. */
async function tickATask(page: Page) {
  const title = `Set door frames, level 1 ${Date.now()}`;
  await ownTaskDueToday(page, 'crew@summit.test', title);
  await page.goto('/crew');
  const row = page.getByRole('region', { name: "Today's Tasks" }).getByRole('article', { name: title });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole('checkbox').check();
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

for (const size of SIZES) {
  test(`${size.name}: a ticked task row of Today's Tasks keeps its checkbox, title, badge and button apart`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    // A task of the crew member's day with a long title, its own: earlier specs tick the seeded ones.
    const title = `Fire sprinkler rough-in, levels 2 and 3 (${size.name} ${Date.now()})`;
    await ownTaskDueToday(page, 'crew@summit.test', title);
    await page.goto('/crew');
    const row = page.getByRole('region', { name: "Today's Tasks" }).getByRole('article', { name: title });
    await expect(row).toBeVisible({ timeout: 30_000 });
    const button = row.getByRole('button', { name: 'Request Change' });
    const badge = row.getByText(/^(Critical|High|Medium|Low)$/);
    const sizeBefore = { badge: await badge.boundingBox(), button: await button.boundingBox() };
    await row.getByRole('checkbox').check();
    await expect(button).toBeDisabled();
    // The tick shows 'Waiting to sync' beside the badge until it is sent, moving the button and the note
    // while they are measured one after the other: the row is measured as it stays.
    await expect(row.getByText('Waiting to sync')).toHaveCount(0, { timeout: 15_000 });

    const parts = {
      checkbox: row.getByRole('checkbox'),
      title: row.getByText(title, { exact: true }),
      badge,
      button,
      note: row.getByText('Completed: no change to request'),
    };
    // Every part in one read of the layout, read again until two reads agree: the list may still move the
    // row (a pulled answer re-sorting it), and parts measured one call apart then seemed to overlap.
    const handles = await Promise.all([row, ...Object.values(parts)].map((part) => part.elementHandle()));
    const read = () =>
      page.evaluate(
        (els) =>
          els.map((el) => {
            const r = el!.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }),
        handles,
      );
    let layout = await read();
    await expect
      .poll(async () => {
        const again = await read();
        const same = JSON.stringify(again) === JSON.stringify(layout);
        layout = again;
        return same;
      })
      .toBe(true);
    const [rowBox, ...partBoxes] = layout as [Box, ...Box[]];
    const boxes: Record<string, Box> = Object.fromEntries(
      Object.keys(parts).map((name, i) => [name, partBoxes[i]!]),
    );
    const clashes: string[] = [];
    const names = Object.keys(boxes);
    for (const [i, a] of names.entries()) {
      for (const b of names.slice(i + 1)) {
        if (overlaps(boxes[a]!, boxes[b]!))
          clashes.push(`${a} over ${b}: ${JSON.stringify([boxes[a], boxes[b]])}`);
      }
    }
    expect(clashes).toEqual([]);
    for (const [name, b] of Object.entries(boxes)) {
      expect(
        b.x >= rowBox.x && b.x + b.width <= rowBox.x + rowBox.width + 0.5,
        `${name} inside the row`,
      ).toBe(true);
    }
    // The badge and the button keep their size once ticked; a phone's targets stay 44 px.
    expect(boxes.badge!.width).toBeCloseTo(sizeBefore.badge!.width, 0);
    expect(boxes.button!.width).toBeCloseTo(sizeBefore.button!.width, 0);
    if (size.width < 640) {
      expect(boxes.checkbox!.height).toBeGreaterThanOrEqual(44);
      expect(boxes.checkbox!.width).toBeGreaterThanOrEqual(44);
      expect(boxes.button!.height).toBeGreaterThanOrEqual(44);
    }
  });
}
