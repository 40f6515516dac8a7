// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  ME,
  OTHER,
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledProject,
  pulledTask,
  renderTasks,
  testDb,
} from './test-support.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  db?.close();
});

// Monday 10 March 2025, 12:00 UTC.
const NOW = new Date('2025-03-10T12:00:00.000Z');
const now = () => NOW;
const id = (n: number) => `0195a0a0-0000-7000-8000-000000000${100 + n}`;
const day = (d: string) => `${d}T00:00:00.000Z`;

async function seed(extra: Parameters<SyncDb['tasks']['bulkPut']>[0] = []) {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active'),
    pulledProject(PROJECT_B, 'Bridge Repair', 'active'),
  ]);
  await db.users.bulkPut([
    { id: ME, version: 1, name: 'Casey Rivera', email: 'crew@summit.test', isActive: true },
    { id: OTHER, version: 1, name: 'Maria Lopez', email: 'maria@summit.test', isActive: true },
  ]);
  await db.tasks.bulkPut([
    pulledTask(id(1), PROJECT_A, 'Pour slab', {
      priority: 'high',
      assigneeId: ME,
      dueDate: day('2025-03-09'),
      description: 'North wing footings',
      createdAt: '2025-03-01T09:00:00.000Z',
    }),
    pulledTask(id(2), PROJECT_A, 'Order rebar', {
      status: 'completed',
      priority: 'low',
      assigneeId: OTHER,
      dueDate: day('2025-03-01'),
    }),
    pulledTask(id(3), PROJECT_B, 'Inspect crane', { status: 'in-progress', dueDate: day('2025-03-10') }),
    pulledTask(id(4), PROJECT_B, 'Install fence', {
      category: 'subcontractor',
      priority: 'critical',
      dueDate: day('2025-03-17'),
    }),
    {
      ...pulledTask(id(5), PROJECT_A, 'Payroll review', { status: 'blocked', assigneeId: ME }),
      category: 'administrative',
      projectId: null,
    },
    {
      ...pulledTask(id(6), PROJECT_A, 'Tidy yard', { priority: 'low', dueDate: day('2025-03-11') }),
      category: 'general',
      projectId: null,
    },
    ...extra,
  ]);
  return db;
}

const row = (name: string) => screen.getByRole('article', { name });
const tile = (name: string) => within(screen.getByRole('group', { name })).getByTestId('tile-value');
const titles = () => screen.queryAllByRole('article').map((a) => a.getAttribute('aria-label'));
const query = () => screen.getByTestId('query').textContent;

describe('Task Management: tiles and sections', () => {
  it('counts total, overdue (never a completed task), due this week (today to 7 days ahead) and completed', async () => {
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    expect(tile('Total Tasks').textContent).toContain('6');
    expect(tile('Overdue').textContent).toContain('1');
    expect(tile('Due This Week').textContent).toContain('3');
    expect(tile('Completed').textContent).toContain('1');
  });

  it("counts 'today' in the company's zone: at 23:30 on 9 March in Los Angeles nothing due on the 9th is overdue", async () => {
    renderTasks(await seed(), {
      now: () => new Date('2025-03-10T06:30:00.000Z'),
      timeZone: 'America/Los_Angeles',
    });
    await screen.findByText('Pour slab');
    expect(tile('Overdue').textContent).toContain('0');
    expect(within(row('Pour slab')).getByText('Due today')).toBeTruthy();
  });

  it('groups project and subcontractor tasks per project with ring and bar in the spec colours', async () => {
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    expect(screen.getByRole('heading', { level: 2, name: /Project Tasks/ })).toBeTruthy();
    const projects = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(projects[0]).toMatch(/^.*Bridge Repair2 tasks · 0% complete/);
    expect(projects[1]).toMatch(/Harbor Tower2 tasks · 50% complete/);
    const [bridge, harbor] = screen.getAllByTestId('progress-ring');
    expect(bridge?.getAttribute('stroke')).toBe('#FB8C00'); // under 50% completed: amber
    expect(harbor?.getAttribute('stroke')).toBe('#E53935'); // an overdue task: red
    expect(
      screen.getByRole('progressbar', { name: 'Progress of Harbor Tower' }).getAttribute('aria-valuenow'),
    ).toBe('50');
    // The subcontractor task sits in its project with a category chip.
    expect(within(row('Install fence')).getByText('Subcontractor')).toBeTruthy();
    expect(titles()).toEqual([
      'Inspect crane',
      'Install fence',
      'Order rebar',
      'Pour slab',
      'Payroll review',
      'Tidy yard',
    ]);
    expect(screen.getByRole('heading', { level: 2, name: /Administrative Tasks/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: /General Tasks/ })).toBeTruthy();
  });

  it("shows each row's due date as text in company days", async () => {
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    expect(within(row('Pour slab')).getByText('1 day overdue')).toBeTruthy();
    expect(within(row('Inspect crane')).getByText('Due today')).toBeTruthy();
    expect(within(row('Tidy yard')).getByText('Due tomorrow')).toBeTruthy();
    expect(within(row('Install fence')).getByText('Due in 7 days')).toBeTruthy();
    expect(within(row('Payroll review')).getByText('No due date')).toBeTruthy();
    expect(await within(row('Pour slab')).findByText('Casey Rivera')).toBeTruthy();
    expect(within(row('Inspect crane')).getByText('Unassigned')).toBeTruthy();
  });

  it('shows the hint of a section the filters leave empty', async () => {
    renderTasks(await seed(), { now, path: '/tasks?priority=critical' });
    await screen.findByText('Install fence');
    expect(screen.getByText('No administrative tasks match your filters.')).toBeTruthy();
    expect(screen.getByText('No general tasks match your filters.')).toBeTruthy();
  });

  it('collapses and expands sections and projects, one at a time or all at once', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: /Administrative Tasks/ }));
    expect(screen.queryByText('Payroll review')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Expand All' }));
    expect(screen.getByText('Payroll review')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Collapse All' }));
    expect(titles()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Expand All' }));
    await user.click(screen.getByRole('button', { name: /Harbor Tower/ }));
    expect(titles()).toEqual(['Inspect crane', 'Install fence', 'Payroll review', 'Tidy yard']);
  });
});

describe('Task Management: filters', () => {
  it('search narrows to matching titles and descriptions and lands in the URL', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.type(screen.getByPlaceholderText('Search tasks...'), 'footings');
    await waitFor(() => expect(titles()).toEqual(['Pour slab']));
    // The URL follows once typing pauses (a URL write per keystroke re-rendered the whole shell).
    await waitFor(() => expect(query()).toBe('?q=footings'));
  });

  it('typing a word filters at each key but writes the URL once, when typing pauses', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    const seen: string[] = [];
    const probe = screen.getByTestId('query');
    const watcher = new MutationObserver(() => seen.push(probe.textContent ?? ''));
    watcher.observe(probe, { subtree: true, childList: true, characterData: true });
    await user.type(screen.getByPlaceholderText('Search tasks...'), 'cran');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane']));
    await waitFor(() => expect(query()).toBe('?q=cran'));
    watcher.disconnect();
    expect(seen).toEqual(['?q=cran']);
  });

  it('a longer search narrows, Backspace widens again, and a task changed meanwhile is searched as it is now', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    const search = screen.getByPlaceholderText('Search tasks...');
    await user.type(search, 'ins');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane', 'Install fence']));
    await user.type(search, 'p');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane']));
    await user.type(search, '{Backspace}');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane', 'Install fence']));

    await db.tasks.update(id(3), { title: 'Check crane' });
    await waitFor(() => expect(titles()).toEqual(['Install fence']));
    await user.type(search, 'p');
    await screen.findByRole('heading', { name: 'No tasks found' });
    await user.type(search, '{Backspace}{Backspace}{Backspace}{Backspace}');
    await waitFor(() => expect(titles()).toHaveLength(6));
    expect(titles()).toContain('Check crane');
  });

  it('status, priority and the panel filters (project, due date, Assigned to Me) filter and land in the URL', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'pending');
    await waitFor(() => expect(titles()).toEqual(['Install fence', 'Pour slab', 'Tidy yard']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Priority' }), 'low');
    await waitFor(() => expect(titles()).toEqual(['Tidy yard']));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(titles()).toHaveLength(6));
    expect(query()).toBe('');

    await user.click(screen.getByRole('button', { name: /Filters/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Project' }), 'Bridge Repair');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane', 'Install fence']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Project' }), 'All Projects');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Due Date' }), 'Overdue');
    await waitFor(() => expect(titles()).toEqual(['Pour slab']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Due Date' }), 'Due This Week');
    await waitFor(() => expect(titles()).toEqual(['Inspect crane', 'Install fence', 'Tidy yard']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Due Date' }), 'All Dates');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Assigned to Me');
    await waitFor(() => expect(titles()).toEqual(['Pour slab', 'Payroll review']));
    expect(query()).toBe('?assignee=me');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Maria Lopez');
    await waitFor(() => expect(titles()).toEqual(['Order rebar']));
  });

  it('opens a bookmarked view with its filters applied', async () => {
    renderTasks(await seed(), { now, path: `/tasks?status=pending&project=${PROJECT_A}` });
    await screen.findByText('Pour slab');
    expect(titles()).toEqual(['Pour slab']);
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLInputElement).value).toBe('pending');
    expect((screen.getByRole('combobox', { name: 'Project' }) as HTMLInputElement).value).toBe(PROJECT_A);
  });

  it("shows 'No tasks found' worded after the search, status and priority, and clears the filters", async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now, path: '/tasks?q=crane&status=blocked&priority=high' });
    expect(await screen.findByRole('heading', { name: 'No tasks found' })).toBeTruthy();
    expect(
      screen.getByText(
        'No tasks matching "crane" and with status Blocked and with High priority. Try a different search or clear the filters.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear All Filters' }));
    await waitFor(() => expect(titles()).toHaveLength(6));
    expect((screen.getByPlaceholderText('Search tasks...') as HTMLInputElement).value).toBe('');
  });

  it("invites a first task when the device has none, and 'Create Task' opens Create New Task", async () => {
    const user = userEvent.setup();
    db = testDb();
    renderTasks(db, { now });
    expect(await screen.findByText('Get started by creating your first task.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create Task' }));
    expect(await screen.findByRole('dialog', { name: 'Create New Task' })).toBeTruthy();
  });
});

describe('Task Management: writes', () => {
  it("sets any status from a row's status menu, and gives the focus back to the row's button", async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    const button = screen.getByRole('button', { name: 'Status of Pour slab: Pending' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    const menu = await screen.findByRole('menu', { name: 'Status of Pour slab' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(menu).getByRole('menuitemradio', { name: 'Pending' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(
      within(menu)
        .getAllByRole('menuitemradio')
        .map((i) => i.textContent),
    ).toEqual(['Pending', 'In Progress', 'Completed', 'Blocked']);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Blocked' }));
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('blocked'));
    expect(screen.queryByRole('menu')).toBeNull();
    const after = await screen.findByRole('button', { name: 'Status of Pour slab: Blocked' });
    expect(document.activeElement).toBe(after);
    expect(after.getAttribute('aria-expanded')).toBe('false');
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'patch', rowId: id(1), data: { status: 'blocked' } });
  });

  it('opens the status menu from the keyboard: S there is not the shortcut, Escape changes nothing, the arrows and Enter pick', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    // A selected task: S outside the menu would toggle it (the shortcut); inside, it is the menu's.
    await user.click(screen.getByRole('checkbox', { name: 'Select Pour slab' }));
    screen.getByRole('button', { name: 'Status of Pour slab: Pending' }).focus();
    await user.keyboard('{ArrowDown}');
    const menu = await screen.findByRole('menu', { name: 'Status of Pour slab' });
    // Opened by a key, the menu puts the focus on its first item (WAI-ARIA menu button).
    await waitFor(() =>
      expect(document.activeElement).toBe(within(menu).getByRole('menuitemradio', { name: 'Pending' })),
    );
    await user.keyboard('s');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Status of Pour slab: Pending' }));
    expect((await db.tasks.get(id(1)))?.status).toBe('pending');
    expect(await db.outbox.count()).toBe(0);

    await user.keyboard('{Enter}');
    await screen.findByRole('menu', { name: 'Status of Pour slab' });
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('completed'));
  });

  it('closes the status menu when the window is resized (its button has moved)', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Status of Pour slab: Pending' }));
    await screen.findByRole('menu', { name: 'Status of Pour slab' });
    act(() => void window.dispatchEvent(new Event('resize')));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await db.outbox.count()).toBe(0);
  });

  it('without tasks:update the status button is disabled and opens nothing', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now, can: (p) => p !== 'tasks:update' });
    await screen.findByText('Pour slab');
    const button = screen.getByRole('button', { name: 'Status of Pour slab: Pending' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('creates a task from Create New Task', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'New Task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Task' });
    await user.type(within(dialog).getByLabelText(/Title/), 'Check scaffolding');
    await user.click(within(dialog).getByRole('combobox', { name: /Category/ }));
    await user.click(await screen.findByRole('option', { name: 'General' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('article', { name: 'Check scaffolding' })).toBeTruthy();
    expect(tile('Total Tasks').textContent).toContain('7');
  });

  it('the detail dialog shows badges and the side panel; Quick Actions complete, reopen and delete', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    // The list settles once the project names are read (groups are ordered by name): rows keep their DOM
    // nodes as the list changes, so a button taken before then may show another task by the click.
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    await user.click(await screen.findByRole('button', { name: 'Pour slab' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pour slab' });
    expect(within(dialog).getByText('High Priority')).toBeTruthy();
    expect(within(dialog).getByText('Pending')).toBeTruthy();
    // The side panel's 'Project' term and the category badge.
    expect(within(dialog).getAllByText('Project')).toHaveLength(2);
    expect(within(dialog).getByText('Harbor Tower')).toBeTruthy();
    expect(within(dialog).getByText('Mar 9, 2025')).toBeTruthy();
    expect(within(dialog).getByText('Mar 1, 2025')).toBeTruthy();
    expect(within(dialog).getByText('North wing footings')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Mark Complete' }));
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('completed'));
    await user.click(await within(dialog).findByRole('button', { name: 'Mark Incomplete' }));
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('in-progress'));

    await user.click(within(dialog).getByRole('button', { name: 'Delete Task' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Task' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Task' }));
    await waitFor(async () => expect(await db.tasks.get(id(1))).toBeUndefined());
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pour slab' })).toBeNull());
  });

  it("the detail dialog opens the task's History, where a replaced value can be restored", async () => {
    const user = userEvent.setup();
    const history = {
      table: 'tasks',
      rowId: id(1),
      entries: [
        {
          kind: 'replaced',
          id: 'c1',
          field: 'priority',
          replacedValue: 'low',
          replacedBy: { id: 'u1', name: 'Miguel Crew' },
          keptValue: 'high',
          keptBy: { id: 'u2', name: 'David Okafor' },
          at: '2025-03-09T12:00:00.000Z',
        },
      ],
    };
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(history), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderTasks(await seed(), { now });
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    await user.click(await screen.findByRole('button', { name: 'Pour slab' }));
    const detail = await screen.findByRole('dialog', { name: 'Pour slab' });
    await user.click(within(detail).getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of Pour slab' });
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toBe(
      `/api/sync/history?table=tasks&rowId=${id(1)}`,
    );
    await user.click(await within(dialog).findByRole('button', { name: /^Restore priority/ }));
    // 'Pour slab' is High priority on the device; Restore writes the replaced Low back.
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.priority).toBe('low'));
  });

  it('/tasks?task=<id>, where a notification about the task leads, opens that task', async () => {
    renderTasks(await seed(), { now, path: `/tasks?task=${id(1)}` });
    const dialog = await screen.findByRole('dialog', { name: 'Pour slab' });
    expect(within(dialog).getByRole('button', { name: 'History' })).toBeTruthy();
  });

  it('a completed task past its due date is not called overdue in the detail dialog', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    await user.click(await screen.findByRole('button', { name: 'Order rebar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order rebar' });
    const due = within(dialog).getByText('Mar 1, 2025').closest('dd');
    expect(due?.textContent).toBe('Mar 1, 2025 (Completed)');
    expect(dialog.textContent).not.toContain('overdue');
  });

  it('Edit Task opened from the detail dialog gives focus back to the task row when it closes', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    const opener = await screen.findByRole('button', { name: 'Pour slab' });
    await user.click(opener);
    const detail = await screen.findByRole('dialog', { name: 'Pour slab' });
    await user.click(within(detail).getByRole('button', { name: 'Edit Task' }));
    await screen.findByRole('dialog', { name: 'Edit Task' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The Edit Task button went away with the detail dialog: the keyboard goes on from the row, not <body>.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Pour slab' })),
    );
  });

  it("says 'Unknown' for a task without a created date", async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await user.click(await screen.findByRole('button', { name: 'Tidy yard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tidy yard' });
    expect(within(dialog).getByText('Unknown')).toBeTruthy();
    expect(within(dialog).getByText('General')).toBeTruthy();
  });
});

describe('Task Management: shortcuts', () => {
  it('Ctrl+N opens Create New Task; Ctrl+F focuses the search', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    expect(screen.getByText('⌘F focuses search')).toBeTruthy();
    await user.keyboard('{Control>}f{/Control}');
    expect(document.activeElement).toBe(screen.getByPlaceholderText('Search tasks...'));
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Control>}n{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Create New Task' })).toBeTruthy();
  });

  it('E edits and S toggles the single selected task, and neither fires while typing', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Pour slab' }));
    // Focus stays on the ticked checkbox (a keyboard user's Space): a key there is not typing.
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select Pour slab' }));
    await user.keyboard('s');
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('completed'));
    await user.keyboard('s');
    await waitFor(async () => expect((await db.tasks.get(id(1)))?.status).toBe('pending'));

    await user.click(screen.getByPlaceholderText('Search tasks...'));
    await user.keyboard('es');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await db.tasks.get(id(1)))?.status).toBe('pending');
    await user.clear(screen.getByPlaceholderText('Search tasks...'));

    (document.activeElement as HTMLElement).blur();
    await user.keyboard('e');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Task' });
    expect((within(dialog).getByLabelText(/Title/) as HTMLInputElement).value).toBe('Pour slab');
  });

  it('E and S do nothing with two tasks selected', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Pour slab' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Tidy yard' }));
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('se');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('Task Management: bulk edit', () => {
  it('changes the status of every selected task in one transaction with consecutive mutations', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    expect(screen.getByText('0 task(s) selected')).toBeTruthy();
    for (const name of ['Pour slab', 'Inspect crane', 'Tidy yard'])
      await user.click(screen.getByRole('checkbox', { name: `Select ${name}` }));
    expect(screen.getByText('3 task(s) selected')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Change Status' }), 'blocked');
    await waitFor(async () => expect(await db.outbox.count()).toBe(3));
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.id, e.data])).toEqual([
      [1, { status: 'blocked' }],
      [2, { status: 'blocked' }],
      [3, { status: 'blocked' }],
    ]);
    expect((await db.tasks.bulkGet([id(1), id(3), id(6)])).map((t) => t?.status)).toEqual([
      'blocked',
      'blocked',
      'blocked',
    ]);
  });

  it("assigns to me, to a person, or unassigns; 'Select all' takes every shown task", async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now, path: '/tasks?project=' + PROJECT_B });
    await screen.findByText('Inspect crane');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    await user.click(screen.getByRole('button', { name: 'Select all (2)' }));
    expect(screen.getByText('2 task(s) selected')).toBeTruthy();
    const assign = screen.getByRole('combobox', { name: 'Assign To' });
    await user.selectOptions(assign, 'Assign to Me');
    await waitFor(async () =>
      expect((await db.tasks.bulkGet([id(3), id(4)])).map((t) => t?.assigneeId)).toEqual([ME, ME]),
    );
    await user.selectOptions(assign, 'Maria Lopez');
    await waitFor(async () =>
      expect((await db.tasks.bulkGet([id(3), id(4)])).map((t) => t?.assigneeId)).toEqual([OTHER, OTHER]),
    );
    await user.selectOptions(assign, 'Unassign');
    await waitFor(async () =>
      expect((await db.tasks.bulkGet([id(3), id(4)])).map((t) => t?.assigneeId)).toEqual([null, null]),
    );
  });

  it('deletes the selected tasks only after a confirm; Cancel leaves bulk mode', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Pour slab' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Tidy yard' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Bulk edit' })).getByRole('button', { name: 'Delete' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Tasks' });
    expect(confirm.textContent).toContain('Are you sure you want to delete 2 task(s)?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await db.tasks.count()).toBe(6);
    await user.click(
      within(screen.getByRole('region', { name: 'Bulk edit' })).getByRole('button', { name: 'Delete' }),
    );
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete Tasks' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(async () => expect(await db.tasks.count()).toBe(4));
    expect(screen.getByText('0 task(s) selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Bulk edit' })).toBeNull();
  });
});

describe('Task Management: 2,000 tasks', () => {
  it('puts a screenful of rows in the page, not one per task, and counts every task', async () => {
    const many = Array.from({ length: 2_000 }, (_, n) =>
      pulledTask(`0195a0a0-0000-7000-9000-${String(n).padStart(12, '0')}`, PROJECT_A, `Bulk ${n}`, {
        dueDate: day('2025-03-20'),
      }),
    );
    renderTasks(await seed(many), { now });
    await screen.findByText('Showing 2006 of 2006 tasks');
    expect(tile('Total Tasks').textContent).toContain('2006');
    // jsdom's window is 1024x768: a screenful of rows plus a few beyond each edge.
    const rendered = screen.getAllByRole('article').length;
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThanOrEqual(30);
  });

  it('scrolling the page brings later rows in, and the focused row stays, still showing its own task', async () => {
    const many = Array.from({ length: 2_000 }, (_, n) =>
      pulledTask(`0195a0a0-0000-7000-9000-${String(n).padStart(12, '0')}`, PROJECT_A, `Bulk ${n}`, {
        dueDate: day('2025-03-20'),
      }),
    );
    renderTasks(await seed(many), { now });
    await screen.findByText('Showing 2006 of 2006 tasks');
    await screen.findByRole('progressbar', { name: 'Progress of Harbor Tower' });
    const first = titles();
    const focusedTitle = first.find((t) => t?.startsWith('Bulk'))!;
    const button = within(row(focusedTitle)).getByRole('button', { name: focusedTitle });
    button.focus();
    expect(document.activeElement).toBe(button);

    const scrollY = Object.getOwnPropertyDescriptor(window, 'scrollY');
    try {
      // 1,000 rows down (list rows are 64 px from md, 108 px below: jsdom matches neither query).
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 108_000 });
      fireEvent.scroll(window);
      // Of the first rows only the focused one and the two on each side of it stay (Tab goes on from it).
      await waitFor(() => expect(titles().filter((t) => first.includes(t)).length).toBeLessThanOrEqual(5));
    } finally {
      if (scrollY) Object.defineProperty(window, 'scrollY', scrollY);
      else delete (window as { scrollY?: number }).scrollY;
    }
    const later = titles();
    expect(later.length).toBeGreaterThan(3);
    expect(later.length).toBeLessThanOrEqual(30);
    expect(titles()).toContain(focusedTitle);
    // The focused button still belongs to its own task's row: it never acts for another task.
    expect(document.activeElement).toBe(
      within(row(focusedTitle)).getByRole('button', { name: focusedTitle }),
    );
  });
});

describe('Task Management: canvas', () => {
  it('Overview counts project, administrative and general tasks and shows the first six filtered tasks', async () => {
    const user = userEvent.setup();
    const more = Array.from({ length: 3 }, (_, i) =>
      pulledTask(id(20 + i), PROJECT_A, `Extra ${i + 1}`, { dueDate: day(`2025-04-0${i + 1}`) }),
    );
    renderTasks(await seed(more), { now });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('radio', { name: 'Canvas' }));
    expect(query()).toBe('?view=canvas');
    const overview = screen.getByRole('tabpanel', { name: 'Overview' });
    const counts = within(overview)
      .getAllByRole('definition')
      .map((d) => d.textContent);
    expect(counts).toEqual(['7', '1', '1']);
    expect(titles()).toEqual([
      'Order rebar',
      'Pour slab',
      'Inspect crane',
      'Tidy yard',
      'Install fence',
      'Extra 1',
    ]);
  });

  it('By Projects, Administrative and General tabs show their cards, with a hint when empty', async () => {
    const user = userEvent.setup();
    renderTasks(await seed(), { now, path: '/tasks?view=canvas' });
    await screen.findByText('Pour slab');
    await user.click(screen.getByRole('tab', { name: 'By Projects' }));
    await waitFor(() =>
      expect(titles()).toEqual(['Inspect crane', 'Install fence', 'Order rebar', 'Pour slab']),
    );
    expect(screen.getByRole('heading', { name: /Bridge Repair/ })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Administrative' }));
    await waitFor(() => expect(titles()).toEqual(['Payroll review']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'completed' } });
    expect(await screen.findByText('No administrative tasks match your filters.')).toBeTruthy();
    expect(query()).toBe('?view=canvas&tab=administrative&status=completed');
  });
});
