import { expect, test, type Page } from '@playwright/test';
import { signIn, watchPage } from './support/watch-page.ts';

// Modal dialogs over a screen (styles.css, B7): opening and closing one restyles a few elements, not the
// whole screen, and the page beneath still cannot be pressed; an open Select alone keeps the page out of
// reach too, as Radix intends. After a Save, the card's progress bar moves on the compositor, so the frames
// that follow the tap do not lay the screen out again.

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
  test('a saved progress moves the card’s bar by a transform (no layout per frame) to the value saved', async ({
    page,
  }) => {
    const watch = await watchPage(page);
    await signIn(page, 'admin@summit.test');
    const origin = new URL(test.info().project.use.baseURL!).origin;
    const name = `Bar${Date.now()} Pier 7 Warehouse`;
    const created = await page.request.post('/api/projects', {
      headers: { origin },
      data: { name, location: 'Pier 7', progress: 20 },
    });
    expect(created.status()).toBe(201);
    await page.goto('/projects');
    const card = page.getByRole('article', { name });
    const bar = card.getByRole('progressbar', { name: `Progress of ${name}` });
    await expect(bar).toHaveAttribute('aria-valuenow', '20', { timeout: 20_000 });

    await card.getByRole('button', { name: 'Edit project' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await edit.getByLabel('Progress (%)').fill('65');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(bar).toHaveAttribute('aria-valuenow', '65');
    // What animates is a transform, which the compositor runs alone; an animated width was laid out and
    // repainted with the whole screen in every frame of the transition.
    const transition = await bar.evaluate(
      (root) => getComputedStyle(root.firstElementChild!).transitionProperty,
    );
    // Tailwind's transition-transform also names the individual transform properties, all compositor-run.
    expect(transition.split(', ').sort()).toEqual(['rotate', 'scale', 'transform', 'translate']);
    // Once settled, the bar shows the value saved: its filled part covers 65% of the track.
    await expect.poll(() => bar.evaluate((root) => root.getAnimations({ subtree: true }).length)).toBe(0);
    const shown = await bar.evaluate((root) => {
      const track = root.getBoundingClientRect();
      const fill = root.firstElementChild!.getBoundingClientRect();
      return (Math.min(fill.right, track.right) - track.left) / track.width;
    });
    expect(shown).toBeCloseTo(0.65, 2);
    watch.expectClean();
  });
});
