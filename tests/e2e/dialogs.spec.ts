import { expect, test, type Page } from '@playwright/test';
import { signIn, watchPage } from './support/watch-page.ts';

// Modal dialogs over a screen (styles.css, B7): opening and closing one restyles a few elements, not the
// whole screen, and the page beneath still cannot be pressed; an open Select alone keeps the page out of
// reach too, as Radix intends.

interface TraceEvent {
  name: string;
  ph: string;
  args?: { elementCount?: number };
}

/** The element counts of the style recalculations Chromium runs during `act`, from a CDP trace. */
async function restylesDuring(page: Page, act: () => Promise<void>): Promise<number[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  // The protocol types a trace event's fields as strings; UpdateLayoutTree's args carry a number.
  cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
  await act();
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events
    .filter((e) => e.name === 'UpdateLayoutTree' && e.ph === 'X')
    .map((e) => e.args?.elementCount ?? 0);
}

/** Two frames: what a change scheduled is styled and painted. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test.describe('Dialogs over a screen', () => {
  test.setTimeout(60_000);

  test('opening and closing the Edit Project dialog restyles a few elements, not the screen, and the page beneath cannot be pressed', async ({
    page,
  }) => {
    const watch = await watchPage(page);
    await signIn(page, 'admin@summit.test');
    await page.goto('/projects');
    const riverside = page.getByRole('article', { name: 'Riverside Medical Office Building' });
    await expect(riverside).toBeVisible({ timeout: 20_000 });
    const newProject = page.getByRole('button', { name: 'New Project' });
    const beneath = (await newProject.boundingBox())!;
    // The screen is large enough for a restyle of all of it to show: hundreds of elements.
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(elements).toBeGreaterThan(400);

    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    const restyles = await restylesDuring(page, async () => {
      await riverside.getByRole('button', { name: 'Edit project' }).click();
      await expect(edit).toBeVisible();
      await frames(page);
      await page.keyboard.press('Escape');
      await expect(edit).toBeHidden();
      await frames(page);
    });
    // Each toggle of the modal restyled every element of the screen (about 500) before.
    expect(restyles.length).toBeGreaterThan(0);
    expect(Math.max(...restyles)).toBeLessThan(60);

    // Open again: a tap where New Project lies lands on the overlay, never on the button.
    await riverside.getByRole('button', { name: 'Edit project' }).click();
    await expect(edit).toBeVisible();
    await page.mouse.click(beneath.x + beneath.width / 2, beneath.y + beneath.height / 2);
    await expect(edit).toBeHidden();
    await frames(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // With no dialog open the page is pressed again.
    await newProject.click();
    await expect(page.getByRole('dialog', { name: 'Create New Project' })).toBeVisible();
    watch.expectClean();
  });

  test('a tap outside an open Select closes it without pressing what lies beneath', async ({ page }) => {
    const watch = await watchPage(page);
    await signIn(page, 'admin@summit.test');
    await page.goto('/logs');
    const createLog = page.getByRole('button', { name: 'Create Log' });
    await expect(createLog).toBeVisible({ timeout: 20_000 });
    const beneath = (await createLog.boundingBox())!;
    await page.getByRole('combobox', { name: 'Project' }).click();
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.mouse.click(beneath.x + beneath.width / 2, beneath.y + beneath.height / 2);
    await expect(page.getByRole('listbox')).toBeHidden();
    await frames(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    watch.expectClean();
  });
});
