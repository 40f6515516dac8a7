// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScheduleChangeRow, SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  ME,
  OTHER_USER,
  polyfillDom,
  PROJECT_A,
  pulledProject,
  pulledTask,
  renderOnDevice,
  taskId,
  testDb,
  writeTo,
} from '#web/features/schedule-changes/test-support.tsx';
import { setServerClockOffset } from '#web/lib/app-clock.ts';
import { CrewScreen } from './crew-screen.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  db?.close();
});

// A loaded machine (seven engineers on two cores) can be slow to answer a live query; this is a ceiling.
const SLOW = { timeout: 5_000 };

/** Fixes only the clock (timers stay real, so IndexedDB and the UI run as usual). */
function at(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

async function show(timeZone = 'UTC') {
  renderOnDevice(db, <CrewScreen db={db} write={writeTo(db)} userId={ME} timeZone={timeZone} />, {
    companyTimeZone: timeZone,
  });
  await screen.findByRole('heading', { level: 2, name: "Today's Tasks" });
}

const section = (name: string) => screen.getByRole('region', { name });
const counter = (name: string) => within(screen.getByRole('group', { name })).getByRole('definition');
const titles = (region: HTMLElement) =>
  within(region)
    .queryAllByRole('article')
    .map((a) => a.getAttribute('aria-label'));

describe('Crew Dashboard', () => {
  it("follows the server's day when the phone's clock is 3 days behind (the offset its last pull measured)", async () => {
    at('2026-03-07T12:00:00.000Z'); // the phone says Mar 7; the server said it is Mar 10
    setServerClockOffset(3 * 86_400_000);
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower'));
    await db.tasks.bulkPut([
      pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z' }),
      pulledTask(taskId(2), 'Phone-day task', { dueDate: '2026-03-07T15:00:00.000Z' }),
    ]);
    try {
      await show();
      await waitFor(() => expect(titles(section("Today's Tasks"))).toEqual(['Pour slab']), SLOW);
      // The task due on the phone's own day is three days overdue by the server's.
      expect(titles(section('Upcoming Tasks (Next 7 Days)'))).toEqual([]);
    } finally {
      setServerClockOffset(0);
    }
  });

  it("selects today's, upcoming and completed-today tasks of the signed-in user, with the counters", async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower'));
    await db.tasks.bulkPut([
      pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z', priority: 'high' }),
      pulledTask(taskId(2), 'Sweep deck', {
        dueDate: '2026-03-10T08:00:00.000Z',
        status: 'completed',
        completedAt: '2026-03-10T09:00:00.000Z',
      }),
      pulledTask(taskId(3), "Someone else's today", {
        dueDate: '2026-03-10T10:00:00.000Z',
        assigneeId: OTHER_USER,
      }),
      // Upcoming: 7 open tasks due in the next 7 days (the list shows the 5 soonest).
      ...[7, 1, 6, 2, 5, 3, 4].map((d) =>
        pulledTask(taskId(10 + d), `Day ${d} task`, { dueDate: `2026-03-${10 + d}T09:00:00.000Z` }),
      ),
      pulledTask(taskId(30), 'Day 8 task', { dueDate: '2026-03-18T09:00:00.000Z' }),
      pulledTask(taskId(31), 'Done early', {
        dueDate: '2026-03-12T09:00:00.000Z',
        status: 'completed',
        completedAt: '2026-03-10T07:00:00.000Z',
      }),
      pulledTask(taskId(32), 'Done yesterday', {
        dueDate: '2026-03-09T09:00:00.000Z',
        status: 'completed',
        completedAt: '2026-03-09T16:00:00.000Z',
      }),
      pulledTask(taskId(33), 'No date', {}),
    ]);
    await show();
    expect(titles(section("Today's Tasks"))).toEqual(['Sweep deck', 'Pour slab']);
    expect(titles(section('Upcoming Tasks (Next 7 Days)'))).toEqual([
      'Day 1 task',
      'Day 2 task',
      'Day 3 task',
      'Day 4 task',
      'Day 5 task',
    ]);
    expect(counter("Today's Tasks").textContent).toBe('2');
    expect(counter('Upcoming Tasks').textContent).toBe('7');
    expect(counter('Completed Today').textContent).toBe('2');
  });

  it("shows the due time or 'No time set', the priority, and disables Request Change once completed", async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.tasks.bulkPut([
      pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z', priority: 'high' }),
      pulledTask(taskId(2), 'Order rebar', { dueDate: '2026-03-10T00:00:00.000Z', priority: 'low' }),
      pulledTask(taskId(3), 'Sweep deck', { dueDate: '2026-03-10T08:00:00.000Z', status: 'completed' }),
    ]);
    await show();
    const pour = screen.getByRole('article', { name: 'Pour slab' });
    expect(within(pour).getByText(/3:00 PM/)).toBeTruthy();
    expect(within(pour).getByText('High')).toBeTruthy();
    expect(within(pour).getByRole<HTMLButtonElement>('button', { name: 'Request Change' }).disabled).toBe(
      false,
    );
    const rebar = screen.getByRole('article', { name: 'Order rebar' });
    expect(within(rebar).getByText(/No time set/)).toBeTruthy();
    expect(within(rebar).getByText('Low')).toBeTruthy();
    const sweep = screen.getByRole('article', { name: 'Sweep deck' });
    expect(within(sweep).getByRole<HTMLInputElement>('checkbox', { name: /Sweep deck/ }).checked).toBe(true);
    const request = within(sweep).getByRole<HTMLButtonElement>('button', { name: 'Request Change' });
    expect(request.disabled).toBe(true);
    // Why, in words a phone shows (not a hover title).
    expect(within(sweep).getByText('Completed: no change to request')).toBeTruthy();
    expect(request.getAttribute('aria-describedby')).toBe(
      within(sweep).getByText('Completed: no change to request').id,
    );
    expect(within(pour).queryByText('Completed: no change to request')).toBeNull();
  });

  it('shows the three empty texts when the user has no tasks and no requests', async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.tasks.put(
      pulledTask(taskId(1), 'Not mine', { dueDate: '2026-03-10T15:00:00.000Z', assigneeId: OTHER_USER }),
    );
    await show();
    expect(within(section("Today's Tasks")).getByText('No tasks scheduled for today')).toBeTruthy();
    expect(
      within(section('Upcoming Tasks (Next 7 Days)')).getByText('No upcoming tasks in the next 7 days'),
    ).toBeTruthy();
    expect(
      within(section('Recent Schedule Change Requests')).getByText('No schedule change requests'),
    ).toBeTruthy();
    expect(counter("Today's Tasks").textContent).toBe('0');
  });

  it("at 23:30 in Los Angeles the day's task is still today's, and tomorrow's is upcoming", async () => {
    at('2026-03-11T06:30:00.000Z');
    db = testDb();
    await db.tasks.bulkPut([
      pulledTask(taskId(1), 'Due the 10th', { dueDate: '2026-03-10T15:00:00.000Z' }),
      pulledTask(taskId(2), 'Due the 11th', { dueDate: '2026-03-11T00:00:00.000Z' }),
    ]);
    await show('America/Los_Angeles');
    expect(titles(section("Today's Tasks"))).toEqual(['Due the 10th']);
    const upcoming = section('Upcoming Tasks (Next 7 Days)');
    expect(titles(upcoming)).toEqual(['Due the 11th']);
    expect(within(upcoming).getByText(/Wed, Mar 11 \(Due tomorrow\)/)).toBeTruthy();
  });

  it("at 00:30 in Auckland the day's task is today's, although UTC is still on the day before", async () => {
    at('2026-03-10T11:30:00.000Z');
    db = testDb();
    await db.tasks.bulkPut([
      pulledTask(taskId(1), 'Due the 10th', { dueDate: '2026-03-10T15:00:00.000Z' }),
      pulledTask(taskId(2), 'Due the 11th', { dueDate: '2026-03-11T00:00:00.000Z' }),
    ]);
    await show('Pacific/Auckland');
    expect(titles(section("Today's Tasks"))).toEqual(['Due the 11th']);
    expect(
      within(screen.getByRole('article', { name: 'Due the 11th' })).getByText(/No time set/),
    ).toBeTruthy();
    expect(titles(section('Upcoming Tasks (Next 7 Days)'))).toEqual([]);
  });

  it('ticking a task completes it on the device, counts it as completed today, and unticking sets pending', async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.tasks.put(
      pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z', status: 'in-progress' }),
    );
    const user = userEvent.setup();
    await show();
    expect(counter('Completed Today').textContent).toBe('0');
    const pour = screen.getByRole('article', { name: 'Pour slab' });
    await user.click(within(pour).getByRole('checkbox', { name: /Pour slab/ }));
    await waitFor(() => expect(counter('Completed Today').textContent).toBe('1'), SLOW);
    expect(within(pour).getByRole<HTMLButtonElement>('button', { name: 'Request Change' }).disabled).toBe(
      true,
    );
    expect(await screen.findByText('Task completed!', {}, SLOW)).toBeTruthy();
    expect(within(pour).getByText('Waiting to sync')).toBeTruthy();
    let entries = await db.outbox.toArray();
    expect(entries.map((e) => [e.op, e.table, e.rowId, e.data])).toEqual([
      ['patch', 'tasks', taskId(1), { status: 'completed' }],
    ]);
    await user.click(within(pour).getByRole('checkbox', { name: /Pour slab/ }));
    await waitFor(() => expect(counter('Completed Today').textContent).toBe('0'), SLOW);
    expect(await screen.findByText('Task marked as pending', {}, SLOW)).toBeTruthy();
    entries = await db.outbox.toArray();
    expect(entries.at(-1)?.data).toEqual({ status: 'pending' });
  });

  it("'Request Change' opens the request dialog for that task", async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower'));
    await db.tasks.put(pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z' }));
    const user = userEvent.setup();
    await show();
    await user.click(
      within(screen.getByRole('article', { name: 'Pour slab' })).getByRole('button', {
        name: 'Request Change',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Request Schedule Change' });
    const task = await within(dialog).findByLabelText<HTMLInputElement>('Task');
    expect(task.value).toBe('Pour slab - Harbor Tower');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Original Date').value).toBe('2026-03-10');
  });

  it("lists the user's latest 5 schedule-change requests, newest first, with status badges", async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.tasks.put(pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-12T15:00:00.000Z' }));
    const statuses = ['pending', 'approved', 'rejected', 'pending', 'approved', 'rejected'];
    const change = (n: number, extra: Partial<ScheduleChangeRow> = {}): ScheduleChangeRow => ({
      id: `0195a0a0-0000-7000-8000-0000000c000${n}`,
      version: 3,
      taskId: taskId(1),
      userId: ME,
      reason: `Reason ${n}`,
      originalDate: '2026-03-12T15:00:00.000Z',
      newDate: '2026-03-14T15:00:00.000Z',
      status: statuses[n - 1],
      createdAt: `2026-03-0${n}T10:00:00.000Z`,
      ...extra,
    });
    await db.schedule_changes.bulkPut([
      ...[1, 2, 3, 4, 5, 6].map((n) => change(n)),
      change(7, { userId: OTHER_USER, reason: 'Not mine' }),
    ]);
    await show();
    const region = section('Recent Schedule Change Requests');
    const items = within(region).getAllByRole('article');
    expect(items.map((i) => within(i).getByText(/^Reason/).textContent)).toEqual([
      'Reason 6',
      'Reason 5',
      'Reason 4',
      'Reason 3',
      'Reason 2',
    ]);
    expect(items.map((i) => within(i).getByText(/^(Pending|Approved|Rejected)$/).textContent)).toEqual([
      'Rejected',
      'Approved',
      'Pending',
      'Rejected',
      'Approved',
    ]);
    expect(within(region).queryByText('Not mine')).toBeNull();
  });

  it('a request made on the device shows at once among the recent requests as Pending, waiting to sync', async () => {
    at('2026-03-10T12:00:00.000Z');
    db = testDb();
    await db.tasks.put(pulledTask(taskId(1), 'Pour slab', { dueDate: '2026-03-10T15:00:00.000Z' }));
    const user = userEvent.setup();
    await show();
    expect(
      within(section('Recent Schedule Change Requests')).getByText('No schedule change requests'),
    ).toBeTruthy();
    await user.click(
      within(screen.getByRole('article', { name: 'Pour slab' })).getByRole('button', {
        name: 'Request Change',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Request Schedule Change' });
    await user.type(await within(dialog).findByLabelText('Reason for Schedule Change'), 'Crane not on site');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-13' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    const item = await within(section('Recent Schedule Change Requests')).findByRole(
      'article',
      { name: 'Request for Pour slab' },
      SLOW,
    );
    expect(within(item).getByText('Pending')).toBeTruthy();
    expect(within(item).getByText('Crane not on site')).toBeTruthy();
    expect(within(item).getByText('Tue, Mar 10 → Fri, Mar 13')).toBeTruthy();
    expect(within(item).getByText('Waiting to sync')).toBeTruthy();
  });
});
