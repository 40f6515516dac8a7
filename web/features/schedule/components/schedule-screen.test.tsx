// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb, type ProjectRow, type ScheduleChangeRow, type SyncDb, type TaskRow } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import type { SessionUser } from '#web/lib/session-user.ts';
import { ScheduleScreen } from './schedule-screen.tsx';

const LA = 'America/Los_Angeles';
const PROJECT = '0195a0a0-0000-7000-8000-00000000000a';
const MANAGER: SessionUser = {
  ...TEST_USER,
  id: '0195a0a0-0000-7000-8000-0000000000b2',
  email: 'manager@summit.test',
  role: 'manager',
  grants: ['schedule_changes:approve', 'schedule_changes:create', 'tasks:update'],
};

let db: SyncDb;
let n = 0;
beforeAll(() => {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.scrollIntoView ??= () => {};
  (globalThis as unknown as Record<string, unknown>).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
beforeEach(() => {
  n += 1;
  db = openSyncDb({ companyId: `company-schedule-${n}-${Date.now()}`, userId: MANAGER.id });
});
afterEach(() => {
  cleanup();
  db.close();
  vi.unstubAllGlobals();
});

let seq = 0;
const id = () => `0195a0a0-0000-7000-8000-${String(++seq).padStart(12, '0')}`;
const task = (title: string, dueDate: string | null, extra: Partial<TaskRow> = {}): TaskRow => ({
  id: id(),
  version: 2,
  projectId: PROJECT,
  title,
  category: 'project',
  status: 'pending',
  priority: 'medium',
  assigneeId: null,
  dueDate,
  ...extra,
});
const project: ProjectRow = {
  id: PROJECT,
  version: 1,
  name: 'Riverside Clinic',
  status: 'active',
  dueDate: null,
};

async function seed(
  tasks: TaskRow[],
  extra: { changes?: ScheduleChangeRow[]; projects?: ProjectRow[] } = {},
) {
  await db.projects.bulkPut(extra.projects ?? [project]);
  await db.tasks.bulkPut(tasks);
  await db.schedule_changes.bulkPut(extra.changes ?? []);
}

function show(opts: { now: Date; timeZone?: string; user?: SessionUser; path?: string }) {
  const user = opts.user ?? MANAGER;
  stubApi({ 'GET /api/auth/user': () => json(user) });
  return renderInApp(
    <StaticLocalData db={db}>
      <ScheduleScreen
        db={db}
        userId={user.id}
        grants={user.grants}
        timeZone={opts.timeZone ?? 'UTC'}
        now={opts.now}
      />
    </StaticLocalData>,
    { path: opts.path ?? '/schedule' },
  );
}

const day = (n: number, time = '09:00') => `2026-05-${String(n).padStart(2, '0')}T${time}:00.000Z`;

describe('Overview: Upcoming Tasks', () => {
  it('lists future-dated tasks by due date, the first 10, with date and time, project, priority and status', async () => {
    await seed([
      task('Past due', day(11)),
      task('No date', null),
      ...Array.from({ length: 12 }, (_, i) => task(`Task ${25 - i}`, day(25 - i))),
      task('Pour footing', day(12, '00:00'), { status: 'in-progress', priority: 'high' }),
    ]);
    show({ now: new Date('2026-05-12T15:00:00.000Z') });
    const list = await screen.findByRole('list', { name: 'Upcoming Tasks' }, { timeout: 5000 });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(10));
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.font-medium')?.textContent)).toEqual([
      'Pour footing',
      'Task 14',
      'Task 15',
      'Task 16',
      'Task 17',
      'Task 18',
      'Task 19',
      'Task 20',
      'Task 21',
      'Task 22',
    ]);
    expect(items[0]!.textContent).toContain('May 12, 2026 · No time set');
    expect(items[0]!.textContent).toContain('Riverside Clinic');
    expect(items[0]!.textContent).toContain('In Progress');
    // The priority is a word beside its shape, seen without telling its colour.
    expect(within(items[0]!).getByTestId('priority-mark').textContent).toBe('High priority');
    expect(within(within(items[0]!).getByTestId('priority-mark')).getByText('High')).toBeTruthy();
    expect(items[1]!.textContent).toContain('May 14, 2026 · 9:00 AM');
    // The button is named by what it shows, title first, so a voice user can say what they see (WCAG 2.5.3);
    // what it does is its description.
    expect(
      within(items[0]!).getByRole('button', {
        name: 'Pour footing In Progress High priority May 12, 2026 · No time set Riverside Clinic',
        description: 'Update schedule',
      }),
    ).toBeTruthy();
  });

  it('opens Update Task Schedule when an upcoming task is clicked', async () => {
    await seed([task('Frame walls', day(20))]);
    show({ now: new Date('2026-05-12T15:00:00.000Z') });
    await userEvent.click(await screen.findByRole('button', { name: /^Frame walls / }));
    expect(screen.getByRole('dialog', { name: 'Update Task Schedule' })).toBeTruthy();
  });

  it('at 23:30 in Los Angeles a task due that day is still upcoming', async () => {
    await seed([
      task('Due tonight', '2026-03-10T00:00:00.000Z'),
      task('Yesterday', '2026-03-09T00:00:00.000Z'),
    ]);
    show({ now: new Date('2026-03-11T06:30:00.000Z'), timeZone: LA });
    const list = await screen.findByRole('list', { name: 'Upcoming Tasks' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(list.textContent).toContain('Due tonight');
  });
});

describe('Overview: Recent Schedule Updates', () => {
  const change = (t: TaskRow, extra: Partial<ScheduleChangeRow> = {}): ScheduleChangeRow => ({
    id: id(),
    version: 5,
    taskId: t.id,
    userId: TEST_USER.id,
    reason: 'Concrete delivery late',
    originalDate: '2026-05-14T00:00:00.000Z',
    newDate: '2026-05-21T00:00:00.000Z',
    status: 'pending',
    decidedBy: null,
    decidedAt: null,
    createdAt: '2026-05-12T14:05:00.000Z',
    ...extra,
  });

  it("says 'No recent schedule updates' when there are none", async () => {
    await seed([]);
    show({ now: new Date('2026-05-12T15:00:00.000Z') });
    expect(await screen.findByText('No recent schedule updates')).toBeTruthy();
  });

  it('shows reason, original and updated dates, created time, the Updated badge and the status', async () => {
    const t = task('Pour slab', day(14));
    await seed([t], { changes: [change(t)] });
    show({ now: new Date('2026-05-12T15:00:00.000Z'), timeZone: LA });
    const item = await screen.findByRole('listitem', { name: 'Schedule change: Concrete delivery late' });
    expect(item.textContent).toContain('Pour slab');
    expect(item.textContent).toContain('OriginalMay 14, 2026');
    expect(item.textContent).toContain('UpdatedMay 21, 2026');
    // 14:05 UTC is 7:05 AM in Los Angeles (PDT).
    expect(item.textContent).toContain('CreatedMay 12, 2026, 7:05 AM');
    expect(within(item).getByText('Updated', { selector: 'span' })).toBeTruthy();
    expect(within(item).getByText('Pending')).toBeTruthy();
  });

  it('Approve queues the decision on the device for a manager', async () => {
    const t = task('Pour slab', day(14));
    const c = change(t);
    await seed([t], { changes: [c] });
    show({ now: new Date('2026-05-12T15:00:00.000Z') });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      op: 'patch',
      table: 'schedule_changes',
      rowId: c.id,
      data: { status: 'approved' },
    });
    expect(await screen.findByText('Approved')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('Reject asks first, and Cancel queues nothing', async () => {
    const t = task('Pour slab', day(14));
    const c = change(t);
    await seed([t], { changes: [c] });
    show({ now: new Date('2026-05-12T15:00:00.000Z') });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Reject this schedule change?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await db.outbox.count()).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Reject' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect((await db.outbox.toArray())[0]!.data).toEqual({ status: 'rejected' });
  });

  it('crew see the status but no Approve or Reject; the requester may edit a pending request', async () => {
    const t = task('Pour slab', day(14));
    await seed([t], { changes: [change(t), change(t, { reason: 'Crane booked', status: 'approved' })] });
    show({ now: new Date('2026-05-12T15:00:00.000Z'), user: TEST_USER });
    await screen.findByRole('listitem', { name: 'Schedule change: Crane booked' });
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('dialog', { name: 'Edit Schedule Change' })).toBeTruthy();
  });
});

describe('Timeline', () => {
  it("chains dated tasks by due date with category, status and the company's day count", async () => {
    await seed([
      task('Roof', '2026-03-13T00:00:00.000Z', { category: 'administrative' }),
      task('Undated', null),
      task('Footing', '2026-03-08T00:00:00.000Z'),
      task('Slab', '2026-03-10T00:00:00.000Z', { status: 'blocked' }),
      task('Done', '2026-03-01T00:00:00.000Z', { status: 'completed' }),
    ]);
    show({ now: new Date('2026-03-11T06:30:00.000Z'), timeZone: LA, path: '/schedule?tab=timeline' });
    const region = await screen.findByRole('region', { name: 'Timeline' });
    await waitFor(() => expect(within(region).getAllByRole('article')).toHaveLength(4));
    const cards = within(region).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Done', 'Footing', 'Slab', 'Roof']);
    expect(cards[0]!.textContent).toContain('Completed');
    expect(cards[1]!.textContent).toContain('2 days overdue');
    expect(cards[2]!.textContent).toContain('Due today');
    expect(cards[2]!.textContent).toContain('Blocked');
    expect(cards[3]!.textContent).toContain('3 days remaining');
    expect(cards[3]!.textContent).toContain('Administrative');
    expect(cards[3]!.textContent).toContain('Mar 13, 2026');
    expect(cards[3]!.textContent).toContain('Riverside Clinic');
  });

  it('opens at today, not at the oldest task: the earlier ones are a scroll back', async () => {
    await seed([
      task('Old one', '2026-03-01T00:00:00.000Z', { status: 'completed' }),
      task('Old two', '2026-03-05T00:00:00.000Z'),
      task('Today', '2026-03-11T00:00:00.000Z'),
      task('Later', '2026-03-20T00:00:00.000Z'),
    ]);
    show({ now: new Date('2026-03-11T15:00:00.000Z'), path: '/schedule?tab=timeline' });
    const region = await screen.findByRole('region', { name: 'Timeline' });
    await waitFor(() => expect(within(region).getAllByRole('article')).toHaveLength(4));
    // Two cards (252 px each along the chain) come before today's.
    await waitFor(() => expect(region.scrollLeft).toBe(2 * 252));
  });
});

describe('Gantt chart', () => {
  it('places bars by days until due (clamped), 2 of 7 columns wide, coloured by state and priority', async () => {
    await seed([
      task('Overdue', day(10), { priority: 'low' }),
      task('Today high', day(12), { priority: 'high' }),
      task('Done late', day(1), { status: 'completed', priority: 'critical' }),
      task('Done today', day(12), { status: 'completed', priority: 'critical' }),
      task('In 3 days', day(15)),
      task('Far away', day(30), { priority: 'low' }),
    ]);
    show({ now: new Date('2026-05-12T15:00:00.000Z'), path: '/schedule?tab=gantt' });
    const region = await screen.findByRole('region', { name: 'Gantt chart' });
    // Work completed before today has nothing left to schedule: it is left out (phone review).
    await waitFor(() => expect(within(region).getAllByTestId('gantt-bar')).toHaveLength(5));
    expect(within(region).queryByRole('button', { name: /^Done late:/ })).toBeNull();
    const bar = (name: string) => within(region).getByRole('button', { name: new RegExp(`^${name}:`) });
    // Column c of 7 starts at c/7 of the track; every bar is 2/7 wide.
    const placed = (name: string) => ({
      left: Math.round(parseFloat(bar(name).style.left) * 100) / 100,
      width: Math.round(parseFloat(bar(name).style.width) * 100) / 100,
      colour: bar(name).dataset.colour,
    });
    const col = (c: number) => Math.round((c * 10000) / 7) / 100;
    const width = 28.57;
    expect(placed('Done today')).toEqual({ left: col(0), width, colour: 'low-completed' });
    expect(placed('Overdue')).toEqual({ left: col(0), width, colour: 'overdue' });
    expect(placed('Today high')).toEqual({ left: col(0), width, colour: 'high' });
    expect(placed('In 3 days')).toEqual({ left: col(3), width, colour: 'medium' });
    expect(placed('Far away')).toEqual({ left: col(6), width, colour: 'low-completed' });
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['High', 'Medium', 'Low/Completed', 'Overdue']);
    const days = within(screen.getByRole('list', { name: 'Days' })).getAllByRole('listitem');
    expect(days.map((d) => d.textContent)).toEqual([
      'Today',
      'Wed 13',
      'Thu 14',
      'Fri 15',
      'Sat 16',
      'Sun 17',
      'Mon 18',
    ]);
  });

  it('each bar shows the shape of its legend entry, one shape per colour: not told by colour alone', async () => {
    await seed([
      task('Overdue', day(10), { priority: 'low' }),
      task('Today high', day(12), { priority: 'high' }),
      task('Done today', day(12), { status: 'completed', priority: 'critical' }),
      task('In 3 days', day(15)),
    ]);
    show({ now: new Date('2026-05-12T15:00:00.000Z'), path: '/schedule?tab=gantt' });
    const region = await screen.findByRole('region', { name: 'Gantt chart' });
    await waitFor(() => expect(within(region).getAllByTestId('gantt-bar')).toHaveLength(4));
    // lucide names its drawing in the svg's class ('lucide-triangle-alert').
    const shapeOf = (el: Element) =>
      [...(el.querySelector('svg')?.classList ?? [])].find((c) => c.startsWith('lucide-')) ?? 'none';
    const legend = new Map(
      screen.getAllByTestId('gantt-legend-swatch').map((s) => [s.dataset.colour, shapeOf(s)] as const),
    );
    expect(new Set(legend.values()).size).toBe(4);
    expect(legend.has(undefined)).toBe(false);
    expect([...legend.values()]).not.toContain('none');
    for (const bar of within(region).getAllByTestId('gantt-bar'))
      expect(shapeOf(bar), bar.getAttribute('aria-label') ?? '').toBe(legend.get(bar.dataset.colour));
    expect(shapeOf(within(region).getByRole('button', { name: /^Overdue:/ }))).toBe(
      'lucide-triangle-exclamation-point',
    );
  });

  it("starts at the company's today: 00:30 in Auckland is already the next day", async () => {
    await seed([task('Tomorrow in UTC', '2026-07-15T00:00:00.000Z')]);
    show({
      now: new Date('2026-07-14T12:30:00.000Z'),
      timeZone: 'Pacific/Auckland',
      path: '/schedule?tab=gantt',
    });
    const bar = await screen.findByRole('button', { name: /^Tomorrow in UTC:/ });
    expect(bar.style.left).toBe('0%');
    expect(bar.dataset.colour).toBe('medium');
  });
});

describe('Calendar', () => {
  it("shows the month from Sunday, projects due, 3 tasks a day then '+N more', and today highlighted", async () => {
    await seed(
      [
        ...['A', 'B', 'C', 'D', 'E'].map((t) => task(`Task ${t}`, '2026-03-10T08:00:00.000Z')),
        task('Inspection', '2026-03-02T00:00:00.000Z'),
      ],
      { projects: [{ ...project, dueDate: '2026-03-20T00:00:00.000Z' }] },
    );
    // 23:30 on 10 March in Los Angeles: already 11 March in UTC.
    show({ now: new Date('2026-03-11T06:30:00.000Z'), timeZone: LA, path: '/schedule?tab=calendar' });
    const grid = await screen.findByRole('table', { name: 'March 2026' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    const cells = within(grid).getAllByRole('cell');
    expect(cells[0]!.getAttribute('aria-label')).toBe('Sunday, March 1, 2026');
    const today = cells.filter((c) => c.getAttribute('aria-current') === 'date');
    expect(today.map((c) => c.getAttribute('aria-label'))).toEqual(['Tuesday, March 10, 2026']);
    const tenth = today[0]!;
    await waitFor(() => expect(within(tenth).getByText('+2 more')).toBeTruthy());
    expect(within(tenth).getAllByRole('button', { name: /^Task / })).toHaveLength(3);
    await userEvent.click(within(tenth).getByText('+2 more'));
    expect(within(tenth).getAllByRole('button', { name: /^Task / })).toHaveLength(5);
    const twentieth = cells.find((c) => c.getAttribute('aria-label') === 'Friday, March 20, 2026')!;
    expect(twentieth.textContent).toContain('Riverside Clinic');
    await userEvent.click(within(grid).getByRole('button', { name: /^Inspection/ }));
    expect(screen.getByRole('dialog', { name: 'Update Task Schedule' })).toBeTruthy();
  });

  it("on DST change days today is the zone's calendar day: Los Angeles falling back, Auckland springing forward", async () => {
    await seed([task('Walkthrough', '2026-11-01T00:00:00.000Z')]);
    // Sun 1 Nov 2026, 23:30 PST (a 25-hour day): 2 Nov in UTC.
    show({ now: new Date('2026-11-02T07:30:00.000Z'), timeZone: LA, path: '/schedule?tab=calendar' });
    const grid = await screen.findByRole('table', { name: 'November 2026' });
    const today = within(grid)
      .getAllByRole('cell')
      .filter((c) => c.getAttribute('aria-current') === 'date');
    expect(today.map((c) => c.getAttribute('aria-label'))).toEqual(['Sunday, November 1, 2026']);
    await waitFor(() => expect(within(today[0]!).getByRole('button', { name: /^Walkthrough/ })).toBeTruthy());
    cleanup();
    // Sun 27 Sep 2026, 00:30 NZST as Auckland springs forward: still 26 Sep in UTC.
    show({
      now: new Date('2026-09-26T12:30:00.000Z'),
      timeZone: 'Pacific/Auckland',
      path: '/schedule?tab=timeline',
    });
    await seed([
      task('Crane lift', '2026-09-26T00:00:00.000Z'),
      task('Formwork', '2026-09-28T00:00:00.000Z'),
    ]);
    const region = await screen.findByRole('region', { name: 'Timeline' });
    await waitFor(() => expect(within(region).getAllByRole('article')).toHaveLength(3));
    const text = (name: string) => within(region).getByRole('article', { name }).textContent;
    expect(text('Crane lift')).toContain('1 day overdue');
    expect(text('Formwork')).toContain('1 day remaining');
  });

  it('moves between months with Previous and Next', async () => {
    await seed([]);
    show({ now: new Date('2026-01-15T12:00:00.000Z'), path: '/schedule?tab=calendar' });
    await screen.findByRole('table', { name: 'January 2026' });
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('table', { name: 'December 2025' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const feb = await screen.findByRole('table', { name: 'February 2026' });
    // February 2026 starts on a Sunday and fills exactly 4 weeks.
    expect(within(feb).getAllByRole('row')).toHaveLength(5);
    expect(screen.getByTestId('location').textContent).toBe('/schedule');
  });
});
