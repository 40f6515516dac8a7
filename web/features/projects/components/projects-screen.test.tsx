// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROJECT_REQUIRED_MESSAGE } from '#shared/schemas/task.ts';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  PROJECT_C,
  pulledProject,
  pulledTask,
  renderScreen,
  testDb,
  USER_1,
  USER_GONE,
} from './test-support.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  db?.close();
});

const card = (name: string) => screen.getByRole('article', { name });
const section = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });

async function seed() {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active', {
      description: 'Twelve floors',
      dueDate: '2030-06-01T00:00:00.000Z',
    }),
    pulledProject(PROJECT_B, 'Bridge Repair', 'delayed'),
    pulledProject(PROJECT_C, 'Depot', 'completed', { progress: 100 }),
  ]);
  await db.users.put({ id: USER_1, version: 1, name: 'Maria Lopez', email: 'maria@summit.test' });
  await db.tasks.bulkPut([
    pulledTask('0195a0a0-0000-7000-8000-000000000101', PROJECT_A, 'Pour slab', {
      assigneeId: USER_1,
      priority: 'high',
    }),
    pulledTask('0195a0a0-0000-7000-8000-000000000102', PROJECT_A, 'Order rebar'),
    pulledTask('0195a0a0-0000-7000-8000-000000000103', PROJECT_A, 'Inspect crane', {
      assigneeId: USER_GONE,
      status: 'in-progress',
    }),
  ]);
  return db;
}

describe('Projects screen', () => {
  it('shows the title, the company, and the loading text until the first read answers', async () => {
    await seed();
    renderScreen(db);
    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeTruthy();
    expect(screen.getByText('Summit Builders')).toBeTruthy();
    expect(screen.getByText('Loading projects...')).toBeTruthy();
    await screen.findByRole('article', { name: 'Harbor Tower' });
    expect(screen.queryByText('Loading projects...')).toBeNull();
  });

  it('groups completed projects under Completed and the rest under Active, with counts', async () => {
    await seed();
    renderScreen(db);
    await screen.findByRole('article', { name: 'Harbor Tower' });
    const active = section('Active Projects');
    const completed = section('Completed Projects');
    expect(within(active).getByLabelText('2 projects')).toBeTruthy();
    expect(within(completed).getByLabelText('1 project')).toBeTruthy();
    expect(
      within(active)
        .getAllByRole('article')
        .map((a) => a.querySelector('h3')?.textContent),
    ).toEqual(['Bridge Repair', 'Harbor Tower']);
    expect(within(completed).getByRole('article', { name: 'Depot' })).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(completed).getByRole('button', { name: /Completed Projects/ }));
    await waitFor(() => expect(within(completed).queryByRole('article')).toBeNull());
  });

  it('shows every field of a card and its buttons', async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const c = within(harbor);
    expect(c.getByText('Active')).toBeTruthy();
    expect(c.getByText('Harbor Tower site')).toBeTruthy();
    expect(c.getByText('Twelve floors')).toBeTruthy();
    expect(c.getByText('40%')).toBeTruthy();
    expect(c.getByRole('progressbar', { name: 'Progress of Harbor Tower' })).toBeTruthy();
    expect(await c.findByText('3 tasks')).toBeTruthy();
    expect(c.getByText('Due Jun 1, 2030')).toBeTruthy();
    for (const name of ['Edit project', 'Add task', 'Delete project', 'Upload photo', 'Gallery']) {
      expect(c.getByRole('button', { name })).toBeTruthy();
    }
    expect(within(card('Bridge Repair')).getByText('Delayed')).toBeTruthy();
  });

  it("names assignees from the manager lookup, with 'Unassigned' and 'Unknown User'", async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: /Tasks/ }));
    await within(harbor).findAllByRole('listitem');
    const text = (title: string) => within(harbor).getByRole('listitem', { name: title }).textContent ?? '';
    expect(text('Pour slab')).toContain('Maria Lopez');
    expect(text('Pour slab')).toContain('High');
    expect(text('Order rebar')).toContain('Unassigned');
    expect(text('Inspect crane')).toContain('Unknown User');
    expect(text('Inspect crane')).toContain('In Progress');
  });

  it("says 'No tasks yet' for a project without tasks", async () => {
    await seed();
    renderScreen(db);
    const bridge = await screen.findByRole('article', { name: 'Bridge Repair' });
    await userEvent.setup().click(within(bridge).getByRole('button', { name: /Tasks/ }));
    expect(await within(bridge).findByText('No tasks yet')).toBeTruthy();
  });

  it('creates a project on the device: name and location required, a non-numeric progress becomes 0', async () => {
    db = testDb();
    renderScreen(db);
    await screen.findByText('No active projects.');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    const d = within(dialog);
    await user.clear(d.getByLabelText('Progress (%)'));
    await user.click(d.getByRole('button', { name: 'Create Project' }));
    expect(d.getByText('Name is required')).toBeTruthy();
    expect(d.getByText('Location is required')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);

    await user.type(d.getByLabelText(/^Name/), 'Riverside Lofts');
    await user.type(d.getByLabelText(/^Location/), 'Portland');
    await user.type(d.getByLabelText('Progress (%)'), 'abc');
    await user.click(d.getByRole('button', { name: 'Create Project' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const rows = await db.projects.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Riverside Lofts',
      location: 'Portland',
      status: 'active',
      progress: 0,
    });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'create', table: 'projects', rowId: rows[0]?.id });
    expect(await screen.findByRole('article', { name: 'Riverside Lofts' })).toBeTruthy();
  });

  it('refuses a progress outside 0 to 100', async () => {
    db = testDb();
    renderScreen(db);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Project' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create New Project' }));
    await user.type(d.getByLabelText(/^Name/), 'A');
    await user.type(d.getByLabelText(/^Location/), 'B');
    await user.clear(d.getByLabelText('Progress (%)'));
    await user.type(d.getByLabelText('Progress (%)'), '150');
    await user.click(d.getByRole('button', { name: 'Create Project' }));
    expect(d.getByText('Progress must be 0 to 100')).toBeTruthy();
    expect(await db.projects.count()).toBe(0);
  });

  it("shows 'Failed to create project' with the message when the write fails", async () => {
    db = testDb();
    renderScreen(db, {
      write: async () => {
        throw new Error('400: {"message":"Name is required"}');
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Project' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create New Project' }));
    await user.type(d.getByLabelText(/^Name/), 'A');
    await user.type(d.getByLabelText(/^Location/), 'B');
    await user.click(d.getByRole('button', { name: 'Create Project' }));
    const alert = await d.findByText('Failed to create project');
    expect(alert.closest('[role="alert"]')?.textContent).toContain('400: {"message":"Name is required"}');
    expect(screen.getByRole('dialog', { name: 'Create New Project' })).toBeTruthy();
  });

  it('edits a project and saves only the changed fields', async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: 'Edit project' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Project' }));
    expect((d.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Harbor Tower');
    expect((d.getByLabelText('Due date') as HTMLInputElement).value).toBe('2030-06-01');
    await user.clear(d.getByLabelText('Progress (%)'));
    await user.type(d.getByLabelText('Progress (%)'), '65');
    await user.click(d.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The dialog closes on the write itself, before its transaction has committed: wait for the outbox.
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'patch', table: 'projects', rowId: PROJECT_A, baseVersion: 1 });
    expect(entry?.data).toEqual({ progress: 65 });
    expect(await within(card('Harbor Tower')).findByText('65%')).toBeTruthy();
  });

  it('lists what the delete takes with the task count, and deletes the project and its tasks on the device', async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: 'Delete project' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Project' });
    const d = within(dialog);
    expect(await d.findByText('All associated tasks (3 tasks)')).toBeTruthy();
    expect(d.getByText('All project photos and documentation')).toBeTruthy();
    expect(d.getByText('Project logs and progress history')).toBeTruthy();
    expect(d.getByText('Related schedule changes')).toBeTruthy();
    expect(d.getByText('This action cannot be undone.')).toBeTruthy();
    await user.click(d.getByRole('button', { name: 'Delete Project' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Harbor Tower' })).toBeNull());
    expect(await db.projects.get(PROJECT_A)).toBeUndefined();
    expect(await db.tasks.where('projectId').equals(PROJECT_A).count()).toBe(0);
    const ops = (await db.outbox.toArray()).map((e) => `${e.op} ${e.table}`);
    expect(ops).toEqual(['delete projects', 'delete tasks', 'delete tasks', 'delete tasks']);
  });

  it("shows 'Error: {message}' when the delete fails, with the spec's default text", async () => {
    await seed();
    renderScreen(db, {
      write: async () => {
        throw new Error('');
      },
    });
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: 'Delete project' }));
    const d = within(await screen.findByRole('alertdialog', { name: 'Delete Project' }));
    await user.click(d.getByRole('button', { name: 'Delete Project' }));
    expect(
      await d.findByText(
        'Error: Failed to delete project. It may have associated data that needs to be removed first.',
      ),
    ).toBeTruthy();
    expect(await db.projects.get(PROJECT_A)).toBeTruthy();
  });

  it("adds a task: title required, and a project task needs a project with the spec's message", async () => {
    await seed();
    renderScreen(db);
    const bridge = await screen.findByRole('article', { name: 'Bridge Repair' });
    const user = userEvent.setup();
    await user.click(within(bridge).getByRole('button', { name: 'Add task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Task to Bridge Repair' });
    const d = within(dialog);
    await user.click(d.getByRole('button', { name: 'Add Task' }));
    expect(d.getByText('Title is required')).toBeTruthy();

    // General tasks may go without a project...
    await user.click(d.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'General' }));
    await user.click(d.getByRole('combobox', { name: 'Project' }));
    await user.click(await screen.findByRole('option', { name: 'No Project' }));
    // ...but back on 'Project Related' the 'No Project' choice is hidden and a project is required.
    await user.click(d.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Project Related' }));
    await user.click(d.getByRole('combobox', { name: /^Project \(Required\)/ }));
    expect(screen.queryByRole('option', { name: 'No Project' })).toBeNull();
    await user.keyboard('{Escape}');
    await user.type(d.getByLabelText(/^Title/), 'Replace bearings');
    await user.click(d.getByRole('button', { name: 'Add Task' }));
    expect(await d.findByText(PROJECT_REQUIRED_MESSAGE)).toBeTruthy();
    expect(await db.tasks.where('projectId').equals(PROJECT_B).count()).toBe(0);

    await user.click(d.getByRole('combobox', { name: /^Project \(Required\)/ }));
    await user.click(await screen.findByRole('option', { name: 'Bridge Repair' }));
    await user.click(d.getByRole('combobox', { name: 'Assignee' }));
    await user.click(await screen.findByRole('option', { name: 'Maria Lopez' }));
    await user.click(d.getByRole('button', { name: 'Add Task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [task] = await db.tasks.where('projectId').equals(PROJECT_B).toArray();
    expect(task).toMatchObject({
      title: 'Replace bearings',
      category: 'project',
      assigneeId: USER_1,
      status: 'pending',
    });
    expect(await within(card('Bridge Repair')).findByText('1 task')).toBeTruthy();
  });

  it('edits a task, and deletes one only after the confirm prompt', async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: /Tasks/ }));
    const row = await within(harbor).findByRole('listitem', { name: 'Order rebar' });
    await user.click(within(row).getByRole('button', { name: 'Edit task' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Task' }));
    expect((d.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Order rebar');
    await user.click(d.getByRole('combobox', { name: 'Assignee' }));
    await user.click(await screen.findByRole('option', { name: 'Maria Lopez' }));
    await user.click(d.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(row).findByText('Maria Lopez')).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Delete task' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete Task' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(await db.tasks.get('0195a0a0-0000-7000-8000-000000000102')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Delete task' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete Task' })).getByRole('button', {
        name: 'Delete Task',
      }),
    );
    await waitFor(() => expect(within(harbor).queryByRole('listitem', { name: 'Order rebar' })).toBeNull());
    expect(await db.tasks.get('0195a0a0-0000-7000-8000-000000000102')).toBeUndefined();
  });

  it('switches to the List view with the same projects as rows', async () => {
    await seed();
    renderScreen(db);
    await screen.findByRole('article', { name: 'Harbor Tower' });
    await userEvent.setup().click(screen.getByRole('radio', { name: 'List' }));
    const table = await screen.findByRole('table', { name: 'Projects' });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.firstChild?.textContent),
    ).toEqual(['Bridge Repair', 'Depot', 'Harbor Tower']);
    // A row offers the History as a card does (replaced values and Restore, issue 9 item 3).
    const harborRow = within(table).getByRole('row', { name: /Harbor Tower/ });
    await userEvent.setup().click(within(harborRow).getByRole('button', { name: 'History' }));
    expect(await screen.findByRole('dialog', { name: 'History of Harbor Tower' })).toBeTruthy();
  });

  it('opens the gallery from the Gallery button and the photo upload control', async () => {
    await seed();
    renderScreen(db);
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    const user = userEvent.setup();
    await user.click(within(harbor).getByRole('button', { name: 'Gallery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    expect(within(dialog).getByText('No photos yet')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(card('Harbor Tower')).getByRole('button', { name: 'Upload photo' }));
    const upload = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    expect(within(upload).getByRole('tab', { name: 'Upload New', selected: true })).toBeTruthy();
  });

  it('hides the writes the user may not make', async () => {
    await seed();
    renderScreen(db, { can: (p) => p === 'projects:read' || p === 'photos:read' });
    const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
    expect(screen.queryByRole('button', { name: 'New Project' })).toBeNull();
    for (const name of ['Edit project', 'Add task', 'Delete project', 'Upload photo']) {
      expect(within(harbor).queryByRole('button', { name })).toBeNull();
    }
    expect(within(harbor).getByRole('button', { name: 'Gallery' })).toBeTruthy();
  });
});
