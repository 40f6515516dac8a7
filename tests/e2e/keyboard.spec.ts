import sharp from 'sharp';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './support/watch-page.ts';

// Keyboard only, no mouse, at a desktop's size and a phone's: a crew member signs in, opens Tasks, creates a
// task, changes its status, opens its details and closes them, asks to move it and ticks it off on /crew,
// marks the notifications read and signs out. Every control on the way is reached with Tab, in an order
// that follows the screen; each shows where focus is (WCAG 2.4.7, checked on the pixels); Escape closes a
// dialog and focus goes back to what opened it; the page itself holds no focus trap.

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

// Reduced motion: no smooth scrolling and no transitions, so the pixels read are the settled ones.
test.use({ reducedMotion: 'reduce' });

/** sRGB relative luminance (WCAG 2). */
function luminance(r: number, g: number, b: number): number {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}

async function pixels(png: Buffer) {
  return sharp(png).removeAlpha().raw().toBuffer();
}

/** What the focused element is, for messages: its role and name as a person would say them. */
async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    const name =
      el.getAttribute('aria-label') ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      '';
    return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''} '${name.trim().slice(0, 60)}'`;
  });
}

/**
 * Focus must be visible (WCAG 2.4.7): the pixels around the focused element, focused and then not, differ
 * at a contrast of 3:1 or more (as WCAG 2.4.11 asks of an indicator) over at least a 1 px line along half
 * its outline. Focus is given back to the element afterwards.
 */
async function expectFocusVisible(page: Page, problems: string[]) {
  const box = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    (window as unknown as { kbFocused: HTMLElement }).kbFocused = el;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  if (!box) return;
  const vp = page.viewportSize()!;
  const x = Math.max(0, Math.floor(box.x - 4));
  const y = Math.max(0, Math.floor(box.y - 4));
  const clip = {
    x,
    y,
    width: Math.min(vp.width, Math.ceil(box.x + box.width + 4)) - x,
    height: Math.min(vp.height, Math.ceil(box.y + box.height + 4)) - y,
  };
  const where = await describeFocus(page);
  // A toast lies in the band at the bottom of the screen for its 5 s (styles.css); what it covers there is
  // not judged here (overlap.spec checks the top bar's controls stay uncovered).
  const underToast = await page.evaluate((c) => {
    const toasts = document.querySelectorAll('[role=region][aria-label^="Notifications ("] li');
    return [...toasts].some((t) => {
      const r = t.getBoundingClientRect();
      return r.left < c.x + c.width && c.x < r.right && r.top < c.y + c.height && c.y < r.bottom;
    });
  }, clip);
  if (underToast) return;
  if (clip.width <= 0 || clip.height <= 0) {
    problems.push(`${where}: focused but off screen`);
    return;
  }
  const focused = await pixels(await page.screenshot({ clip }));
  await page.evaluate(() => (document.activeElement as HTMLElement).blur());
  const blurred = await pixels(await page.screenshot({ clip }));
  await page.evaluate(() =>
    (window as unknown as { kbFocused: HTMLElement }).kbFocused.focus({ preventScroll: true }),
  );
  let changed = 0;
  for (let i = 0; i + 2 < focused.length; i += 3) {
    const a = luminance(focused[i]!, focused[i + 1]!, focused[i + 2]!);
    const b = luminance(blurred[i]!, blurred[i + 1]!, blurred[i + 2]!);
    if ((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) >= 3) changed++;
  }
  // A line along half the element's outline: a tap target can be larger than the box it draws (a 44 px
  // checkbox around a 20 px square), and an indicator need not go all round.
  const needed = Math.max(40, Math.min(box.width, clip.width) + Math.min(box.height, clip.height));
  if (changed < needed)
    problems.push(
      `${where}: focus hardly visible (${changed} px change at 3:1, ${Math.round(needed)} needed)`,
    );
}

/** A keyboard walk: every Tab stop is checked for a visible focus, and focus is never stuck. */
class Walk {
  readonly problems: string[] = [];
  /** The last stop, and how many presses of Tab in a row stayed on it. */
  private previous = '';
  private same = 0;
  constructor(private readonly page: Page) {}

  /** Presses Tab (Shift+Tab with `back`) until `target` has focus, checking every stop on the way. */
  async tabTo(target: Locator, { back = false, max = 60 } = {}) {
    for (let i = 0; i < max; i++) {
      await this.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      const now = await describeFocus(this.page);
      // A native date field takes one Tab per part (month, day, year, picker); more is a trap.
      this.same = now === this.previous ? this.same + 1 : 0;
      expect(this.same, `focus stuck on ${now}`).toBeLessThan(4);
      this.previous = now;
      // Past the last control focus leaves the page for the browser's own controls, then comes back.
      // Checked once per control: giving focus back to a date field puts it on its first part again.
      if (now === '<body>' || this.same > 0) continue;
      await expectFocusVisible(this.page, this.problems);
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    }
    throw new Error(
      `${String(target)} not reached in ${max} presses of Tab; focus is on ${await describeFocus(this.page)}`,
    );
  }

  /** The focused element, checked as a Tab stop would be. */
  async at(target: Locator) {
    await expect(target).toBeFocused();
    // A list is placed once measured (Radix first draws it off screen): judged where a person sees it.
    await expect(target).toBeInViewport();
    this.previous = await describeFocus(this.page);
    this.same = 0;
    await expectFocusVisible(this.page, this.problems);
  }

  /**
   * Tabs once round the whole page (Shift+Tab with `back`), back to where it started: no trap, every stop
   * visible. Backwards, each control above the screen is scrolled in at the top, where the sticky top bar is.
   */
  async roundTrip(max: number, { back = false } = {}) {
    const start = await describeFocus(this.page);
    await this.page.evaluate(() => {
      (window as unknown as { kbStart: Element | null }).kbStart = document.activeElement;
    });
    for (let i = 0; i < max; i++) {
      await this.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      const home = await this.page.evaluate(
        () => document.activeElement === (window as unknown as { kbStart: Element | null }).kbStart,
      );
      if (home) return;
      if ((await describeFocus(this.page)) !== '<body>') await expectFocusVisible(this.page, this.problems);
    }
    throw new Error(`Tab did not come back to ${start} in ${max} presses: focus is trapped`);
  }

  expectNone() {
    expect(this.problems, `focus problems:\n${this.problems.join('\n')}`).toEqual([]);
  }
}

/** A date as a date field takes it typed: month, day and year digits (en-US). */
function typedDate(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getMonth() + 1)}${two(d.getDate())}${d.getFullYear()}`;
}

for (const size of SIZES) {
  test(`keyboard only at ${size.width}x${size.height}: sign in, create and change a task, ask to move it, tick it off, read notifications, sign out`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const phone = size.name === 'phone';
    await page.setViewportSize(size);
    const walk = new Walk(page);
    const title = `Keyboard ${size.name} ${Date.now()}`;
    const today = new Date();

    // Sign in: Email, Password, Sign In, in that order.
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to SiteCommand' })).toBeVisible();
    // The first paint is the server's copy of the form, inert until the app takes it over (ADR 029).
    await expect(page.locator('form:not([inert])')).toBeVisible();
    await walk.tabTo(page.getByLabel('Email'), { max: 1 });
    await page.keyboard.type('crew@summit.test');
    await walk.tabTo(page.getByLabel('Password'), { max: 1 });
    await page.keyboard.type(DEMO_PASSWORD);
    await walk.tabTo(page.getByRole('button', { name: 'Sign In' }), { max: 1 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // A person starts once the screen is there: its data in, not the first download's spinner.
    await expect(page.getByRole('list', { name: 'Project health' }).getByRole('article').first()).toBeVisible(
      { timeout: 20_000 },
    );

    /** Goes to a screen by the sidebar, or on a phone by the menu, and back to the opener after. */
    const goTo = async (label: string) => {
      if (phone) {
        const menu = page.getByRole('button', { name: 'Open menu' });
        await walk.tabTo(menu);
        await page.keyboard.press('Enter');
        const sheet = page.getByRole('dialog', { name: 'SiteCommand' });
        await expect(sheet).toBeVisible();
        await walk.tabTo(sheet.getByRole('link', { name: label, exact: true }), { max: 15 });
        await page.keyboard.press('Enter');
        await expect(sheet).toBeHidden();
        await walk.at(menu);
      } else {
        await walk.tabTo(page.getByRole('complementary').getByRole('link', { name: label, exact: true }));
        await page.keyboard.press('Enter');
      }
    };

    // Tasks: New Task, filled in field by field.
    await goTo('Tasks');
    await expect(page.getByRole('heading', { level: 1, name: 'Task Management' })).toBeVisible();
    await expect(page.locator('main article').first()).toBeVisible({ timeout: 20_000 });
    const newTask = page.getByRole('button', { name: 'New Task' });
    await walk.tabTo(newTask);
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Create New Task' });
    await walk.at(create.getByLabel('Title'));
    await page.keyboard.type(title);
    await walk.tabTo(create.getByLabel('Description'), { max: 1 });
    await page.keyboard.type('Made with the keyboard alone.');
    await walk.tabTo(create.getByRole('combobox', { name: 'Category' }), { max: 1 });
    const project = create.getByRole('combobox', { name: /^Project/ });
    await walk.tabTo(project, { max: 1 });
    // A list opens on Enter, the arrow keys move in it and Enter picks.
    await page.keyboard.press('Enter');
    await walk.at(page.getByRole('option').first());
    await page.keyboard.press('ArrowDown');
    await walk.at(page.getByRole('option').nth(1));
    await page.keyboard.press('Enter');
    await walk.at(project);
    await expect(project).not.toHaveText(/Select a project/);
    await walk.tabTo(create.getByRole('combobox', { name: 'Status' }), { max: 1 });
    await walk.tabTo(create.getByRole('combobox', { name: 'Priority' }), { max: 1 });
    const assignee = create.getByRole('combobox', { name: 'Assignee' });
    await walk.tabTo(assignee, { max: 1 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('Miguel');
    await walk.at(page.getByRole('option', { name: /^Miguel/ }));
    await page.keyboard.press('Enter');
    await walk.at(assignee);
    await expect(assignee).toHaveText(/Miguel/);
    await walk.tabTo(create.getByLabel('Due date'), { max: 1 });
    await page.keyboard.type(typedDate(today));
    await walk.tabTo(create.getByRole('button', { name: 'Create Task' }), { max: 6 });
    await page.keyboard.press('Enter');
    await expect(create).toBeHidden();
    await walk.at(newTask);

    // Its status, from the list: found by a search, changed in its menu with the arrow keys, the focus
    // back on the row's button after.
    await walk.tabTo(page.getByLabel('Search tasks'), { max: 10 });
    await page.keyboard.type(title);
    const card = page.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    const status = card.getByRole('button', { name: `Status of ${title}: Pending` });
    await walk.tabTo(status, { max: 12 });
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: `Status of ${title}` });
    await expect(menu.getByRole('menuitemradio', { name: 'Pending' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitemradio', { name: 'In Progress' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    await walk.at(card.getByRole('button', { name: `Status of ${title}: In Progress` }));

    // Its details open with Enter and close with Escape, focus back on its title.
    const open = card.getByRole('button', { name: title, exact: true });
    await walk.tabTo(open, { back: true, max: 1 });
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: title });
    await expect(details).toBeVisible();
    await walk.tabTo(details.getByRole('button', { name: 'Close' }), { max: 8 });
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await walk.at(open);

    // /crew: ask to move it to tomorrow, then tick it off.
    await goTo('Crew');
    const todays = page.getByRole('region', { name: "Today's Tasks" });
    const mine = todays.getByRole('article', { name: title });
    await expect(mine).toBeVisible({ timeout: 20_000 });
    await walk.roundTrip(80);
    await walk.roundTrip(80, { back: true });
    const request = mine.getByRole('button', { name: 'Request Change' });
    await walk.tabTo(request);
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: 'Request Schedule Change' });
    await walk.at(ask.getByLabel('Reason for Schedule Change'));
    await page.keyboard.type('Waiting on the inspector.');
    await walk.tabTo(ask.getByLabel('New Requested Date'), { max: 6 });
    await page.keyboard.type(typedDate(new Date(today.getTime() + 86_400_000)));
    await walk.tabTo(ask.getByRole('button', { name: 'Submit Request' }), { max: 6 });
    await page.keyboard.press('Enter');
    await expect(ask).toBeHidden();
    await walk.at(request);
    await expect(page.getByRole('article', { name: `Request for ${title}` })).toBeVisible();
    const tick = mine.getByRole('checkbox');
    await walk.tabTo(tick, { back: true, max: 1 });
    await page.keyboard.press('Space');
    await expect(tick).toBeChecked();
    // Its toast is awaited before the panel opens: a toast that appears over an open popover or dialog
    // takes the next Escape for itself (Radix layers), which the report lists as not fixed here.
    await expect(
      page.getByRole('region', { name: /^Notifications \(/ }).getByText('Task completed!'),
    ).toBeVisible();

    // Notifications: the panel opens on Enter, Mark All as Read, Escape back to the bell.
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await walk.tabTo(bell, { back: true, max: 40 });
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Notifications panel' });
    await expect(panel).toBeVisible();
    await walk.at(panel.getByRole('button', { name: 'Mark All as Read' }));
    await page.keyboard.press('Enter');
    await expect(bell).toHaveAccessibleName('Notifications');
    await walk.tabTo(panel.getByRole('listitem').first().getByRole('button'), { max: 1 });
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await walk.at(bell);

    // Sign out once every change is sent (otherwise Sign Out asks first).
    await expect(page.getByRole('button', { name: /^Sync status/ })).toHaveAccessibleName(/All sent/, {
      timeout: 20_000,
    });
    await walk.tabTo(page.getByRole('button', { name: 'Sign Out' }), { max: 3 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/(login)?$/);
    walk.expectNone();
  });
}
