// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb, TaskRow } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledProject,
  pulledTask,
  testDb,
  writeTo,
} from '#web/features/projects/components/test-support.tsx';
import { SubsScreen, type SubsScreenProps } from './subs-screen.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  db?.close();
});

const SUB_1 = '0195a0a0-0000-7000-8000-0000000000b1';
const SUB_2 = '0195a0a0-0000-7000-8000-0000000000b2';
const SUB_OFF = '0195a0a0-0000-7000-8000-0000000000b3';
const MANAGER = '0195a0a0-0000-7000-8000-0000000000b4';
const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
// Monday 23 Nov 2026, 10:00 in Los Angeles.
const MONDAY = new Date('2026-11-23T18:00:00.000Z');

let n = 0;
const tid = () => `0195a0a0-0000-7000-8000-${String(++n).padStart(12, '0')}`;
const subTask = (title: string, extra: Partial<TaskRow> = {}): TaskRow =>
  pulledTask(tid(), PROJECT_A, title, {
    category: 'subcontractor',
    isMilestone: false,
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  });
const user = (id: string, name: string, role: string, isActive = true) => ({
  id,
  version: 1,
  name,
  firstName: null,
  lastName: null,
  email: null,
  role,
  isActive,
  profileImageUrl: null,
});

async function seed(tasks: TaskRow[]) {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active'),
    pulledProject(PROJECT_B, 'Bridge Repair', 'active'),
  ]);
  await db.users.bulkPut([
    user(SUB_1, 'Sparks Electric', 'subcontractor'),
    user(SUB_2, 'Aqua Plumbing', 'subcontractor'),
    user(SUB_OFF, 'Gone Drywall', 'subcontractor', false),
    user(MANAGER, 'Maria Lopez', 'manager'),
  ]);
  await db.subcontractor_assignments.bulkPut([
    {
      id: tid(),
      version: 1,
      subcontractorId: SUB_1,
      projectId: PROJECT_A,
      status: 'active',
    },
  ]);
  await db.tasks.bulkPut(tasks);
}

function renderSubs(props: Partial<SubsScreenProps> = {}) {
  return render(
    <StaticLocalData db={db}>
      <SubsScreen
        db={db}
        write={writeTo(db)}
        timeZone={LA}
        online
        assign={async () => {}}
        unassign={async () => {}}
        now={() => MONDAY}
        {...props}
      />
      <Toaster />
    </StaticLocalData>,
  );
}

const list = (name: string) => screen.getByRole('list', { name });
const titlesIn = (name: string) =>
  within(list(name))
    .getAllByRole('button', { description: 'Open task' })
    .map((b) => b.querySelector('.font-medium')!.textContent);
async function openTab(name: string) {
  await userEvent.setup().click(await screen.findByRole('tab', { name }));
}

describe('Subcontractors board tabs', () => {
  it('Overview counts active subcontractors, pending tasks and tasks due today, and lists 5 recent rows', async () => {
    await seed([
      subTask('Pull cable L1', {
        dueDate: '2026-11-23T00:00:00.000Z',
        updatedAt: '2026-11-20T01:00:00.000Z',
      }),
      subTask('Pull cable L2', {
        dueDate: '2026-11-23T00:00:00.000Z',
        status: 'completed',
        updatedAt: '2026-11-20T02:00:00.000Z',
      }),
      subTask('Fit valves', { status: 'in-progress', updatedAt: '2026-11-20T03:00:00.000Z' }),
      subTask('Seal risers', { updatedAt: '2026-11-20T04:00:00.000Z' }),
      subTask('Test circuits', { updatedAt: '2026-11-20T05:00:00.000Z' }),
      subTask('Label panels', { updatedAt: '2026-11-20T06:00:00.000Z' }),
      // Not a subcontractor task: never on the board.
      pulledTask(tid(), PROJECT_A, 'Pour slab', { dueDate: '2026-11-23T00:00:00.000Z' }),
    ]);
    renderSubs();
    expect(await screen.findByLabelText('Active Subcontractors: 2')).toBeTruthy();
    expect(screen.getByLabelText('Pending Tasks: 4')).toBeTruthy();
    expect(screen.getByLabelText('Due Today: 2')).toBeTruthy();
    const recent = within(list('Recent activity')).getAllByRole('listitem');
    expect(recent.map((li) => within(li).getByRole('button').textContent)).toEqual([
      'Label panels',
      'Test circuits',
      'Seal risers',
      'Fit valves',
      'Pull cable L2',
    ]);
    expect(screen.queryByText('Pour slab')).toBeNull();
  });

  it('Daily Tasks lists what is due today in the company zone, not in UTC', async () => {
    // 16:30 on Monday in Los Angeles is already Tuesday in UTC.
    await seed([
      subTask('Monday job', { dueDate: '2026-11-23T00:00:00.000Z' }),
      subTask('Tuesday job', { dueDate: '2026-11-24T00:00:00.000Z' }),
    ]);
    renderSubs({ now: () => new Date('2026-11-24T00:30:00.000Z') });
    await openTab('Daily Tasks');
    expect(titlesIn('Tasks due today')).toEqual(['Monday job']);
  });

  it('Weekly View at Saturday 23:30 in Los Angeles shows Sunday 15 to Saturday 21 with due date and time', async () => {
    await seed([
      subTask('Saturday pour', { dueDate: '2026-11-21T17:00:00.000Z' }),
      subTask('Sunday start', { dueDate: '2026-11-15T00:00:00.000Z' }),
      subTask('Next Sunday', { dueDate: '2026-11-22T00:00:00.000Z' }),
    ]);
    renderSubs({ now: () => new Date('2026-11-22T07:30:00.000Z') });
    await openTab('Weekly View');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings[0]).toMatch(/^Sunday, Nov 15/);
    expect(headings[6]).toMatch(/^Saturday, Nov 21/);
    expect(headings).toHaveLength(7);
    expect(titlesIn('Tasks due Saturday, Nov 21')).toEqual(['Saturday pour']);
    expect(titlesIn('Tasks due Sunday, Nov 15')).toEqual(['Sunday start']);
    expect(within(list('Tasks due Saturday, Nov 21')).getByText('Due Sat, Nov 21, 17:00 UTC')).toBeTruthy();
    expect(screen.queryByText('Next Sunday')).toBeNull();
    // It is still Saturday in Los Angeles: that day is marked as today.
    expect(within(screen.getByRole('region', { name: 'Saturday, Nov 21' })).getByText('Today')).toBeTruthy();
    expect(screen.getAllByText('Today')).toHaveLength(1);
  });

  it('Weekly View at Sunday 00:30 in Auckland already shows the new week', async () => {
    await seed([
      subTask('Saturday pour', { dueDate: '2026-11-21T00:00:00.000Z' }),
      subTask('Sunday start', { dueDate: '2026-11-22T00:00:00.000Z' }),
      subTask('Saturday end', { dueDate: '2026-11-28T00:00:00.000Z' }),
    ]);
    renderSubs({ timeZone: AKL, now: () => new Date('2026-11-21T11:30:00.000Z') });
    await openTab('Weekly View');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings[0]).toMatch(/^Sunday, Nov 22/);
    expect(titlesIn('Tasks due Sunday, Nov 22')).toEqual(['Sunday start']);
    expect(titlesIn('Tasks due Saturday, Nov 28')).toEqual(['Saturday end']);
    expect(screen.queryByText('Saturday pour')).toBeNull();
  });

  it('By Projects groups tasks under their project', async () => {
    await seed([
      subTask('Tower wiring'),
      subTask('Bridge joints', { projectId: PROJECT_B }),
      subTask('Tower lights'),
    ]);
    renderSubs();
    await openTab('By Projects');
    expect(titlesIn('Tasks of Harbor Tower')).toEqual(['Tower lights', 'Tower wiring']);
    expect(titlesIn('Tasks of Bridge Repair')).toEqual(['Bridge joints']);
  });

  it("By Subcontractors groups by assignee, lists 'Unassigned Tasks', and names each one's projects", async () => {
    await seed([
      subTask('Wire panel', { assigneeId: SUB_1 }),
      subTask('Unowned job', { assigneeId: null }),
      subTask('Fix leak', { assigneeId: SUB_2 }),
    ]);
    renderSubs();
    await openTab('By Subcontractors');
    expect(titlesIn('Tasks of Sparks Electric')).toEqual(['Wire panel']);
    expect(titlesIn('Tasks of Aqua Plumbing')).toEqual(['Fix leak']);
    expect(titlesIn('Unassigned tasks')).toEqual(['Unowned job']);
    expect(screen.getByRole('heading', { name: /^Unassigned Tasks/ })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Projects of Sparks Electric' })).getByText('Harbor Tower'),
    ).toBeTruthy();
    expect(screen.getByText('Not assigned to a project')).toBeTruthy();
    // A deactivated subcontractor with no work has no group.
    expect(screen.queryByRole('heading', { name: /^Gone Drywall/ })).toBeNull();
  });

  it('Milestones lists only flagged tasks, each with its Milestone badge', async () => {
    await seed([subTask('Handover', { isMilestone: true }), subTask('Routine check')]);
    renderSubs();
    await openTab('Milestones');
    expect(titlesIn('Milestone tasks')).toEqual(['Handover']);
    expect(within(list('Milestone tasks')).getByText('Milestone')).toBeTruthy();
  });
});

describe('Subcontractor task rows and dialogs', () => {
  it('a row shows its priority in words beside its dot and its status badge; ticking it completes the task on the device', async () => {
    const t = subTask('Pull cable', { dueDate: '2026-11-23T00:00:00.000Z', priority: 'critical' });
    await seed([t]);
    renderSubs();
    await openTab('Daily Tasks');
    const rows = list('Tasks due today');
    // The priority is a word on screen (a colour-blind user cannot read the dot's red), heard as 'Critical priority'.
    const priority = within(rows).getByTestId('priority');
    expect(within(priority).getByText('Critical')).toBeTruthy();
    expect(priority.textContent).toBe('Critical priority');
    expect(within(rows).getByText('Pending')).toBeTruthy();
    await userEvent.setup().click(within(rows).getByRole('checkbox', { name: 'Completed: Pull cable' }));
    await waitFor(async () => expect((await db.tasks.get(t.id))?.status).toBe('completed'));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'patch', table: 'tasks', rowId: t.id, data: { status: 'completed' } });
    expect(await screen.findByText('Task completed!')).toBeTruthy();
    expect(await within(rows).findByText('Completed')).toBeTruthy();
  });

  it('marks a task overdue when it is not completed and its day has passed in the company zone', async () => {
    // Monday 10:00 in Los Angeles: Sunday's open task is overdue, Sunday's completed one and today's are not.
    await seed([
      subTask('Late job', { dueDate: '2026-11-22T00:00:00.000Z', assigneeId: SUB_1 }),
      subTask('Done late', { dueDate: '2026-11-22T00:00:00.000Z', status: 'completed', assigneeId: SUB_1 }),
      subTask('Today job', { dueDate: '2026-11-23T00:00:00.000Z', assigneeId: SUB_1 }),
    ]);
    renderSubs();
    await openTab('By Subcontractors');
    const rows = within(list('Tasks of Sparks Electric')).getAllByRole('listitem');
    const overdueOf = (title: string) =>
      within(rows.find((r) => within(r).queryByText(title))!).queryByText('Overdue') !== null;
    expect(overdueOf('Late job')).toBe(true);
    expect(overdueOf('Done late')).toBe(false);
    expect(overdueOf('Today job')).toBe(false);
  });

  it('unticking sets the task back to pending', async () => {
    const t = subTask('Done job', { dueDate: '2026-11-23T00:00:00.000Z', status: 'completed' });
    await seed([t]);
    renderSubs();
    await openTab('Daily Tasks');
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Completed: Done job' }));
    await waitFor(async () => expect((await db.tasks.get(t.id))?.status).toBe('pending'));
    expect(await screen.findByText('Task marked as pending')).toBeTruthy();
  });

  it("'Create New Subcontractor Task' requires a project and a title, then creates a subcontractor milestone", async () => {
    await seed([]);
    renderSubs();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add Task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Subcontractor Task' });
    await u.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(await within(dialog).findByText('Project selection is required')).toBeTruthy();
    expect(within(dialog).getByText('Title is required')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);

    await u.click(within(dialog).getByRole('combobox', { name: /^Project/ }));
    await u.click(await screen.findByRole('option', { name: 'Bridge Repair' }));
    await u.type(within(dialog).getByLabelText(/^Title/), 'Install lighting');
    await u.click(within(dialog).getByRole('combobox', { name: 'Assign to Subcontractor' }));
    // Assignee choices are the active subcontractors only.
    expect(screen.queryByRole('option', { name: 'Maria Lopez' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Gone Drywall' })).toBeNull();
    await u.click(await screen.findByRole('option', { name: 'Sparks Electric' }));
    await u.click(within(dialog).getByRole('checkbox', { name: 'Mark as milestone' }));
    await u.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      op: 'create',
      table: 'tasks',
      data: {
        title: 'Install lighting',
        category: 'subcontractor',
        projectId: PROJECT_B,
        assigneeId: SUB_1,
        isMilestone: true,
        status: 'pending',
        priority: 'medium',
        dueDate: null,
      },
    });
    expect(await screen.findByText('Task created successfully')).toBeTruthy();
  });

  it("a row opens 'Edit Subcontractor Task'; assigning a subcontractor sends only the assignee", async () => {
    const t = subTask('Fix leak', { assigneeId: null });
    await seed([t]);
    renderSubs();
    const u = userEvent.setup();
    await openTab('By Subcontractors');
    // The row is named by what it shows, title first (a voice user says what they see); its action is its
    // description.
    expect(
      screen.getByRole('button', {
        name: 'Fix leak Medium priority Pending No due date Harbor Tower Unassigned',
        description: 'Open task',
      }),
    ).toBeTruthy();
    await u.click(screen.getByRole('button', { name: /^Fix leak / }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Subcontractor Task' });
    expect(within(dialog).getByLabelText(/^Title/)).toHaveProperty('value', 'Fix leak');
    await u.click(within(dialog).getByRole('combobox', { name: 'Assign to Subcontractor' }));
    await u.click(await screen.findByRole('option', { name: 'Aqua Plumbing' }));
    await u.click(within(dialog).getByRole('button', { name: 'Update Task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'patch', rowId: t.id, data: { assigneeId: SUB_2 } });
    expect(Object.keys(entry!.data ?? {})).toEqual(['assigneeId']);
    expect(await screen.findByText('Task updated successfully')).toBeTruthy();
    expect(titlesIn('Tasks of Aqua Plumbing')).toEqual(['Fix leak']);
  });
});

describe('Assigning a subcontractor to a project', () => {
  it('sends the assignment to the server from the subcontractor group', async () => {
    await seed([]);
    const assign = vi.fn(async () => {});
    renderSubs({ assign });
    const u = userEvent.setup();
    await openTab('By Subcontractors');
    const group = screen.getByRole('region', { name: 'Aqua Plumbing' });
    await u.click(within(group).getByRole('button', { name: 'Assign Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Subcontractor to Project' });
    await u.click(within(dialog).getByRole('combobox', { name: /^Project/ }));
    await u.click(await screen.findByRole('option', { name: 'Bridge Repair' }));
    await u.type(within(dialog).getByLabelText('Specialization'), 'Plumbing');
    await u.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(assign).toHaveBeenCalledWith({
      subcontractorId: SUB_2,
      projectId: PROJECT_B,
      specialization: 'Plumbing',
    });
    expect(await screen.findByText('Subcontractor assigned to project')).toBeTruthy();
  });

  it('refuses an assignment that already exists, and shows a server refusal in the dialog', async () => {
    await seed([]);
    const assign = vi.fn(async () => {
      throw new Error('Project not found');
    });
    renderSubs({ assign });
    const u = userEvent.setup();
    await openTab('By Subcontractors');
    await u.click(
      within(screen.getByRole('region', { name: 'Sparks Electric' })).getByRole('button', {
        name: 'Assign Project',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Assign Subcontractor to Project' });
    await u.click(within(dialog).getByRole('combobox', { name: /^Project/ }));
    await u.click(await screen.findByRole('option', { name: 'Harbor Tower' }));
    await u.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(
      await within(dialog).findByText('This subcontractor is already assigned to this project'),
    ).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    await u.click(within(dialog).getByRole('combobox', { name: /^Project/ }));
    await u.click(await screen.findByRole('option', { name: 'Bridge Repair' }));
    await u.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Project not found')).toBeTruthy();
  });

  it('takes a subcontractor off a project after a confirmation', async () => {
    await seed([]);
    const unassign = vi.fn(async () => {});
    renderSubs({ unassign });
    const u = userEvent.setup();
    await openTab('By Subcontractors');
    const [assignment] = await db.subcontractor_assignments.toArray();
    await u.click(screen.getByRole('button', { name: 'Remove Sparks Electric from Harbor Tower' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove from Project' });
    expect(within(confirm).getByText(/Remove Sparks Electric from Harbor Tower\?/)).toBeTruthy();
    expect(unassign).not.toHaveBeenCalled();
    await u.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(unassign).toHaveBeenCalledWith(assignment!.id));
    expect(await screen.findByText('Subcontractor removed from project')).toBeTruthy();
  });

  it('is disabled offline with the reason shown, while tasks can still be assigned', async () => {
    await seed([]);
    renderSubs({ online: false });
    await openTab('By Subcontractors');
    expect(screen.getByText(/needs a connection: you are offline/)).toBeTruthy();
    for (const b of screen.getAllByRole('button', { name: /Assign (to )?Project|^Remove / }))
      expect((b as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Remove Sparks Electric from Harbor Tower' })).toBeTruthy();
  });

  it('is not offered without assignments:manage, nor Add Task without tasks:create', async () => {
    await seed([]);
    renderSubs({ can: (p) => p === 'tasks:update', online: false });
    await openTab('By Subcontractors');
    expect(screen.queryByRole('button', { name: /Assign (to )?Project|^Remove / })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Task' })).toBeNull();
    expect(screen.queryByText(/needs a connection/)).toBeNull();
  });
});
