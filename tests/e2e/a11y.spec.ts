import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENS, SEEDED, type Screen } from './support/screens.ts';
import { signIn } from './support/watch-page.ts';

// Accessibility audit: every screen each role sees, at a phone's size (390x844) and a desktop's (1280x800),
// with the main dialogs and tabs open, checked by axe-core against WCAG 2.0/2.1 A and AA and axe's best
// practices. A serious or critical finding fails the test, named by rule, impact, element and help text.
// Beside axe, what it does not judge: one h1 per screen and no skipped heading level.

const require = createRequire(import.meta.url);
// Read once and run through page.evaluate: the app's CSP (script-src 'self') refuses an injected <script>.
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  targets: string[];
  /** Every element found was hidden by a Radix popup's `hideOthers` (it marks them `data-aria-hidden`). */
  hiddenByPopup: boolean;
}

/** axe's findings for the page as it is now, plus its heading outline. */
async function runAxe(page: Page): Promise<{ findings: Finding[]; headings: number[] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as { axe: { run(context: Node, options: RunOptions): Promise<AxeResults> } }
    ).axe;
    // Under an open modal the page is hidden from screen readers and out of reach, and it was audited on
    // its own before: only the modal is audited (a popover is not modal, so its page is audited with it).
    const openModal = [...document.querySelectorAll('[aria-modal=true],[role=alertdialog]')].pop();
    const result = await axe.run(openModal ?? document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    // The headings a user meets: not those inside hidden tab panels or under an open modal's inert page.
    const modal = [...document.querySelectorAll('[role=dialog],[role=alertdialog]')].pop();
    const root = modal ?? document.body;
    const headings = [...root.querySelectorAll<HTMLElement>('h1,h2,h3,h4,h5,h6')]
      .filter((h) => h.getClientRects().length > 0 && !h.closest('[aria-hidden=true],[hidden]'))
      .map((h) => Number(h.tagName.slice(1)));
    return {
      headings,
      findings: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        targets: v.nodes.map((n) => n.target.join(' ')),
        hiddenByPopup: v.nodes.every((n) =>
          document.querySelector(String(n.target[0]))?.hasAttribute('data-aria-hidden'),
        ),
      })),
    };
  }, TAGS);
}

/** Waits for animations (a dialog's fade and zoom, a tab's) to end: mid-fade colours are not the real ones. */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
}

/** Problems found, per role: printed as found, and together when its test ends. */
class Audit {
  readonly problems: string[] = [];
  private seen = 0;
  constructor(private readonly page: Page) {}

  async check(where: string, { modal = false, openList = false } = {}) {
    await settled(this.page);
    const { findings, headings } = await runAxe(this.page);
    // A false positive while a Radix Select's list or a menu is open: Radix hides the page with aria-hidden
    // and keeps focus in the list (the caller checks that Tab stays there), but only a role=dialog tells axe
    // that the page is out of reach. Only that rule, only on elements Radix hid, only with the list open.
    const real = openList
      ? findings.filter((f) => !(f.id === 'aria-hidden-focus' && f.hiddenByPopup))
      : findings;
    this.record(where, real, headings, modal);
    // Printed as found too: a later step that times out would otherwise hide them.
    for (const p of this.problems.slice(this.seen)) console.log(`a11y: ${p}`);
    this.seen = this.problems.length;
  }

  private record(where: string, findings: Finding[], headings: number[], modal: boolean) {
    for (const f of findings) {
      if (!f.impact || !FAILING_IMPACTS.has(f.impact)) continue;
      this.problems.push(
        `${where}: ${f.id} (${f.impact}) ${f.help}\n    ${f.targets.slice(0, 8).join('\n    ')}${
          f.targets.length > 8 ? `\n    ... and ${f.targets.length - 8} more` : ''
        }\n    ${f.helpUrl}`,
      );
    }
    // One h1 per screen and no skipped level; a dialog's outline starts at its title (h2).
    const first = modal ? 2 : 1;
    if (!modal && headings.filter((h) => h === 1).length !== 1)
      this.problems.push(`${where}: heading outline: ${headings.filter((h) => h === 1).length} h1 elements`);
    let previous = first - 1;
    for (const level of headings) {
      if (level > previous + 1) {
        this.problems.push(
          `${where}: heading outline: h${level} after h${previous} (${headings.slice(0, 20).join(' ')}${headings.length > 20 ? ' ...' : ''})`,
        );
        break;
      }
      previous = level;
    }
  }

  /** Audits at the desktop size, then at the phone's: the same page, resized, no reload. */
  async bothSizes(where: string, options: { modal?: boolean; ready?: () => Locator } = {}) {
    for (const size of [DESKTOP, PHONE]) {
      await this.page.setViewportSize(size);
      if (options.ready) await expect(options.ready()).toBeVisible();
      await this.check(`${where} @${size.width}`, options);
    }
  }

  expectNone() {
    expect(this.problems, `accessibility problems:\n${this.problems.join('\n')}`).toEqual([]);
  }
}

async function open(page: Page, screen: Screen) {
  await page.goto(screen.path);
  await expect(page.getByRole('heading', { level: 1, name: screen.h1 })).toBeVisible({ timeout: 20_000 });
  await expect(screen.data(page)).toBeVisible({ timeout: 20_000 });
}

async function visit(audit: Audit, page: Page, name: keyof typeof SCREENS) {
  const screen = SCREENS[name]!;
  await open(page, screen);
  await audit.bothSizes(screen.path, { ready: () => screen.data(page) });
}

/**
 * Opens a dialog with `opener`, audits it at both sizes, and closes it with Escape. With `invalid`, a form
 * is also sent empty and audited again with its error messages showing.
 */
async function dialog(
  audit: Audit,
  page: Page,
  where: string,
  opener: Locator,
  name: string | RegExp,
  role: 'dialog' | 'alertdialog' = 'dialog',
  invalid?: { submit: string; error: string | RegExp },
) {
  await page.setViewportSize(DESKTOP);
  await opener.click();
  const modal = page.getByRole(role, { name });
  await expect(modal).toBeVisible();
  await audit.bothSizes(`${where} dialog '${name}'`, { modal: true, ready: () => modal });
  if (invalid) {
    await page.setViewportSize(DESKTOP);
    await modal.getByRole('button', { name: invalid.submit }).click();
    await expect(modal.getByText(invalid.error).first()).toBeVisible();
    await audit.bothSizes(`${where} dialog '${name}' with errors`, { modal: true, ready: () => modal });
  }
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
}

async function tab(audit: Audit, page: Page, where: string, name: string, content: () => Locator) {
  await page.setViewportSize(DESKTOP);
  await page.getByRole('tab', { name }).click();
  await expect(content()).toBeVisible();
  await audit.bothSizes(`${where} tab '${name}'`, { ready: content });
}

/**
 * Makes the server refuse this device's next pushed status change, as it refuses any invalid change (SPEC
 * P8): the push goes out with the status replaced by one no record can have. A refused change is what
 * the Sync issues list shows; the server's data stays as it was, so the tests after this one see the seed.
 */
async function refuseNextStatusChange(page: Page) {
  await page.context().route(
    '**/api/sync/push',
    async (route) => {
      const body = route.request().postDataJSON() as { mutations: { data?: Record<string, unknown> }[] };
      for (const m of body.mutations) if (m.data && 'status' in m.data) m.data.status = 'refused-in-test';
      await route.continue({ postData: JSON.stringify(body) });
    },
    { times: 1 },
  );
}

test.describe('accessibility (axe-core, headings)', () => {
  // A company admin holds a manager's permissions and RBAC administration (shared/permissions.ts): the
  // screens both see show the same controls and are audited once, with the manager; the admin's own are here.
  test('company admin: the dashboard, Recent Activity, RBAC Admin and its user dialogs', async ({ page }) => {
    const audit = new Audit(page);
    await signIn(page, 'admin@summit.test');
    for (const s of ['dashboard', 'activity', 'rbac'] as const) await visit(audit, page, s);
    await dialog(audit, page, '/rbac', page.getByRole('button', { name: 'Add User' }), 'Add User');
    const users = page.getByRole('tabpanel');
    await dialog(audit, page, '/rbac', users.getByRole('button', { name: /^Edit / }).first(), 'Edit User');
    await dialog(
      audit,
      page,
      '/rbac',
      users.getByRole('button', { name: /^Deactivate /, disabled: false }).first(),
      'Deactivate user?',
      'alertdialog',
    );
    await dialog(
      audit,
      page,
      '/rbac',
      users.getByRole('button', { name: /^Delete /, disabled: false }).first(),
      'Delete user?',
      'alertdialog',
    );
    audit.expectNone();
  });

  test('manager: every screen, its tabs and its main dialogs', async ({ page }) => {
    test.setTimeout(60_000);
    const audit = new Audit(page);
    await signIn(page, 'manager@summit.test');

    await visit(audit, page, 'dashboard');
    await tab(audit, page, '/dashboard', 'Task Management', () =>
      page.getByRole('tabpanel').getByRole('heading', { level: 2 }).first(),
    );
    await tab(audit, page, '/dashboard', 'Communications', () =>
      page.getByRole('heading', { name: 'Communications', level: 2 }),
    );
    await dialog(
      audit,
      page,
      '/dashboard',
      page.getByRole('button', { name: 'New Communication' }),
      'New Communication',
    );
    await tab(audit, page, '/dashboard', 'Financial Health', () =>
      page.getByRole('heading', { name: 'Financial Health', level: 2 }),
    );

    await visit(audit, page, 'projects');
    await dialog(
      audit,
      page,
      '/projects',
      page.getByRole('button', { name: 'New Project' }),
      'Create New Project',
    );
    // A project card's own dialogs.
    const project = page.getByRole('article').first();
    const titleId = await project.getAttribute('aria-labelledby');
    const named = ((await page.locator(`[id="${titleId}"]`).textContent()) ?? '').trim();
    expect(named).not.toBe('');
    const action = (label: string) => project.getByRole('button', { name: label });
    await dialog(audit, page, '/projects', action('Edit project'), 'Edit Project');
    await dialog(audit, page, '/projects', action('Add task'), `Add Task to ${named}`);
    await dialog(audit, page, '/projects', action('Gallery'), `${named} Photos`);
    await dialog(audit, page, '/projects', action('Delete project'), 'Delete Project', 'alertdialog');

    await visit(audit, page, 'tasks');
    await dialog(audit, page, '/tasks', page.getByRole('button', { name: 'New Task' }), 'Create New Task');
    const first = page.locator('main article').first();
    const title = (await first.getAttribute('aria-label'))!;
    await dialog(audit, page, '/tasks', first.getByRole('button', { name: title, exact: true }), title);
    await first.getByRole('button', { name: title, exact: true }).click();
    await dialog(audit, page, '/tasks', page.getByRole('button', { name: 'Edit Task' }), 'Edit Task');

    await visit(audit, page, 'health');
    await tab(audit, page, '/project-health', 'Detailed Metrics', () =>
      page.getByRole('region', { name: `Metrics of ${SEEDED}` }),
    );
    await tab(audit, page, '/project-health', 'Risk Assessment', () =>
      page.getByRole('heading', { name: 'Risk Assessments' }),
    );
    await dialog(audit, page, '/project-health', page.getByRole('button', { name: 'Add Risk' }), 'Add Risk');

    await visit(audit, page, 'schedule');
    await dialog(
      audit,
      page,
      '/schedule',
      page.getByRole('button', { name: 'Update Task Schedule' }),
      'Update Task Schedule',
    );
    await tab(audit, page, '/schedule', 'Timeline', () => page.locator('main article').first());
    await tab(audit, page, '/schedule', 'Gantt Chart', () => page.getByTestId('gantt-bar').first());
    await tab(audit, page, '/schedule', 'Calendar', () => page.getByRole('table').first());

    await visit(audit, page, 'photos');
    await dialog(
      audit,
      page,
      '/photos',
      page.getByRole('button', { name: 'Upload Photos' }),
      'Upload Photos',
    );
    await visit(audit, page, 'logs');
    await dialog(
      audit,
      page,
      '/logs',
      page.getByRole('button', { name: 'Create Log' }),
      'Create Project Log',
    );
    await dialog(
      audit,
      page,
      '/logs',
      page
        .locator('main article')
        .first()
        .getByRole('button', { name: /^Edit / }),
      'Edit Project Log',
    );
    await visit(audit, page, 'crew');

    await visit(audit, page, 'subs');
    await dialog(
      audit,
      page,
      '/subs',
      page.getByRole('button', { name: 'Add Task' }),
      /^Create New Subcontractor Task/,
    );
    for (const name of ['Weekly View', 'By Projects', 'Daily Tasks', 'Milestones'])
      await tab(audit, page, '/subs', name, () => page.getByRole('tabpanel').getByRole('heading').first());
    audit.expectNone();
  });

  test('crew member: every screen and Request Schedule Change', async ({ page }) => {
    const audit = new Audit(page);
    await signIn(page, 'crew@summit.test');
    for (const s of ['dashboard', 'projects', 'tasks', 'schedule', 'photos', 'logs', 'crew'] as const)
      await visit(audit, page, s);
    const request = page
      .getByRole('region', { name: "Today's Tasks" })
      .getByRole('button', { name: 'Request Change', disabled: false })
      .first();
    await dialog(audit, page, '/crew', request, 'Request Schedule Change', 'dialog', {
      submit: 'Submit Request',
      error: /required/i,
    });
    await dialog(
      audit,
      page,
      '/crew',
      page.getByRole('button', { name: 'Edit request' }).first(),
      'Edit Schedule Change',
    );
    audit.expectNone();
  });

  test('subcontractor: every screen', async ({ page }) => {
    const audit = new Audit(page);
    await signIn(page, 'sub@summit.test');
    for (const s of ['dashboard', 'tasks', 'photos', 'logs', 'subs'] as const) await visit(audit, page, s);
    audit.expectNone();
  });

  test('manager: the notifications panel, the sync popover and Sync issues with a refused change', async ({
    page,
  }) => {
    const audit = new Audit(page);
    await signIn(page, 'manager@summit.test');
    await visit(audit, page, 'tasks');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await dialog(audit, page, 'top bar', bell, 'Notifications panel');
    const sync = page.getByRole('button', { name: /^Sync status/ });
    await dialog(audit, page, 'top bar', sync, 'Sync status');

    // A change the server refuses: one Sync issue, with its Retry form and Discard confirm.
    await refuseNextStatusChange(page);
    const task = page.locator('main article').first();
    const title = (await task.getAttribute('aria-label'))!;
    const status = task.getByRole('button', { name: `Status of ${title}:` });
    const blocked = (await status.getAttribute('aria-label'))!.endsWith(': Blocked');
    await status.click();
    // The row's status menu, audited open (at one size: it is placed beside the button it opened from).
    const menu = page.getByRole('menu', { name: `Status of ${title}` });
    await expect(menu).toBeVisible();
    await audit.check('/tasks status menu', { modal: true, openList: true });
    await menu.getByRole('menuitemradio', { name: blocked ? 'Pending' : 'Blocked' }).click();
    await expect(sync).toHaveAccessibleName(/1 sync issue/, { timeout: 15_000 });
    await sync.click();
    await page.getByRole('button', { name: 'Sync issues (1)' }).click();
    const issues = page.getByRole('dialog', { name: 'Sync issues' });
    await expect(issues.getByRole('listitem')).toHaveCount(1);
    await audit.bothSizes('top bar dialog Sync issues', { modal: true, ready: () => issues });
    await page.setViewportSize(DESKTOP);
    await issues.getByRole('button', { name: /^Retry: / }).click();
    await expect(issues.getByRole('button', { name: 'Send again' })).toBeVisible();
    await audit.bothSizes('top bar dialog Sync issues, Retry', { modal: true, ready: () => issues });
    await page.setViewportSize(DESKTOP);
    await issues.getByRole('button', { name: 'Cancel' }).click();
    await dialog(
      audit,
      page,
      'Sync issues',
      issues.getByRole('button', { name: /^Discard: / }),
      'Discard this change?',
      'alertdialog',
    );
    audit.expectNone();
  });

  test('manager: change orders, Project Logs filters and errors, task History, the Assign and Remove dialogs', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const audit = new Audit(page);
    await signIn(page, 'manager@summit.test');

    await open(page, SCREENS.dashboard!);
    await page.getByRole('tab', { name: 'Communications' }).click();
    const feed = page.getByRole('region', { name: 'Communications' });
    await dialog(
      audit,
      page,
      '/dashboard',
      feed.getByRole('button', { name: 'New Change Order' }),
      'New Change Order',
    );
    await tab(audit, page, '/dashboard Communications', 'Change Orders', () =>
      feed.getByRole('group', { name: /^Decide / }).first(),
    );
    await dialog(
      audit,
      page,
      '/dashboard Change Orders',
      feed
        .getByRole('group', { name: /^Decide / })
        .first()
        .getByRole('button', { name: 'Approve' }),
      'Approve this change order?',
      'alertdialog',
    );

    await open(page, SCREENS.logs!);
    const filters = page.getByRole('region', { name: 'Filters' });
    // An open list covers the page (Radix hides the rest from screen readers): outlined as an overlay. It
    // closes when the window is resized, so it is opened at each size.
    const date = filters.getByRole('combobox', { name: 'Date' });
    const list = page.getByRole('listbox');
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await date.click();
      await expect(list).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(list.getByRole('option', { name: 'All Dates' })).toBeFocused();
      await audit.check(`/logs Date list @${size.width}`, { modal: true, openList: true });
      if (size === DESKTOP) await page.keyboard.press('Escape');
    }
    await page.getByRole('option', { name: 'Custom Range' }).click();
    await expect(filters.getByLabel('Start date')).toBeVisible();
    await audit.bothSizes('/logs filters, Custom Range', { ready: () => filters.getByLabel('Start date') });
    await dialog(
      audit,
      page,
      '/logs',
      page.getByRole('button', { name: 'Create Log' }),
      'Create Project Log',
      'dialog',
      {
        submit: 'Create Log',
        error: /required/i,
      },
    );

    await open(page, SCREENS.tasks!);
    const first = page.locator('main article').first();
    const title = (await first.getAttribute('aria-label'))!;
    await first.getByRole('button', { name: title, exact: true }).click();
    await dialog(
      audit,
      page,
      '/tasks',
      page.getByRole('dialog', { name: title }).getByRole('button', { name: 'History' }),
      `History of ${title}`,
    );

    await open(page, SCREENS.subs!);
    await tab(audit, page, '/subs', 'By Subcontractors', () =>
      page.getByRole('tabpanel').getByRole('button', { name: 'Assign to Project' }),
    );
    await dialog(
      audit,
      page,
      '/subs',
      page.getByRole('tabpanel').getByRole('button', { name: 'Assign to Project' }),
      'Assign Subcontractor to Project',
      'dialog',
      { submit: 'Assign', error: 'Subcontractor is required' },
    );
    await dialog(
      audit,
      page,
      '/subs',
      page.getByRole('button', { name: /^Remove .* from / }).first(),
      /^Remove /,
      'alertdialog',
    );
    audit.expectNone();
  });

  test('root: RBAC roles, companies and permissions, and their dialogs', async ({ page }) => {
    const audit = new Audit(page);
    await signIn(page, 'root@sitecommand.test');
    await visit(audit, page, 'rbac');
    // Each tab, then the dialogs its buttons open: [button, dialog].
    const dialogsOf: [string, [string | RegExp, string | RegExp][]][] = [
      [
        'Roles',
        [
          ['Create Role', 'Create Role'],
          [/^Edit role /, 'Edit Role'],
        ],
      ],
      [
        'Companies',
        [
          ['Add Company', 'Add Company'],
          [/^Edit /, 'Edit Company'],
          [/^View users of /, /^Users of /],
        ],
      ],
    ];
    for (const [name, opens] of dialogsOf) {
      await tab(audit, page, '/rbac', name, () => page.getByRole('list', { name }));
      for (const [button, title] of opens)
        await dialog(audit, page, `/rbac ${name}`, page.getByRole('button', { name: button }).first(), title);
    }
    await tab(audit, page, '/rbac', 'Permissions', () => page.getByRole('region').first());
    audit.expectNone();
  });

  test('signed out: the landing page and sign-in', async ({ page }) => {
    const audit = new Audit(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await audit.bothSizes('/');
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to SiteCommand' })).toBeVisible();
    await audit.bothSizes('/login');
    audit.expectNone();
  });
});
