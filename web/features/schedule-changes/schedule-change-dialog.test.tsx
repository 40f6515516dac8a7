// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScheduleChangeRow, SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { ScheduleChangeDialog, type ScheduleChangeDialogProps } from './schedule-change-dialog.tsx';
import {
  ME,
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledProject,
  pulledTask,
  renderOnDevice,
  taskId,
  testDb,
} from './test-support.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
beforeEach(() => {
  // Only the clock is fixed: "today" is Tuesday 10 March 2026 in the company's zone.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-10T12:00:00.000Z'));
});
afterEach(async () => {
  cleanup();
  resetToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  db?.close();
});

const POUR = taskId(101);
const FRAME = taskId(102);
const CHANGE = '0195a0a0-0000-7000-8000-0000000c0001';

async function seed() {
  db = testDb();
  await db.projects.bulkPut([pulledProject(PROJECT_A, 'Harbor Tower'), pulledProject(PROJECT_B, 'Depot')]);
  await db.tasks.bulkPut([
    pulledTask(POUR, 'Pour slab', { dueDate: '2026-03-12T15:00:00.000Z' }),
    pulledTask(FRAME, 'Frame walls', { projectId: PROJECT_B, dueDate: '2026-03-20T00:00:00.000Z' }),
    pulledTask(taskId(103), 'Old work', { status: 'completed', dueDate: '2026-03-01T09:00:00.000Z' }),
  ]);
}

function Host(props: Omit<ScheduleChangeDialogProps, 'open' | 'onOpenChange'>) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <ScheduleChangeDialog {...props} open={open} onOpenChange={setOpen} />
      {!open && <p>dialog closed</p>}
    </>
  );
}

const outbox = () => db.outbox.toArray();

async function openDialog(props: Omit<ScheduleChangeDialogProps, 'open' | 'onOpenChange'>, title: string) {
  renderOnDevice(db, <Host {...props} />);
  const dialog = await screen.findByRole('dialog', { name: title });
  await within(dialog).findByLabelText('Reason for Schedule Change');
  return dialog;
}

describe('Request Schedule Change (crew)', () => {
  it('shows the task fixed and its due date as a read-only Original Date; the new date starts at today', async () => {
    await seed();
    const dialog = await openDialog({ mode: 'request', taskId: POUR }, 'Request Schedule Change');
    const task = within(dialog).getByLabelText<HTMLInputElement>('Task');
    expect(task.value).toBe('Pour slab - Harbor Tower');
    expect(task.readOnly).toBe(true);
    const original = within(dialog).getByLabelText<HTMLInputElement>('Original Date');
    expect(original.value).toBe('2026-03-12');
    expect(original.readOnly).toBe(true);
    expect(within(dialog).getByLabelText<HTMLInputElement>('New Requested Date').value).toBe('2026-03-10');
    // The keyboard starts where there is something to type.
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Reason for Schedule Change'));
  });

  it('requires a reason and a new date, and writes nothing until both are given', async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'request', taskId: POUR }, 'Request Schedule Change');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), { target: { value: '' } });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(within(dialog).getByText('New Requested Date is required')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reason for Schedule Change').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await outbox()).toEqual([]);
  });

  it('says clearly when the new date is the same as the original one', async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'request', taskId: POUR }, 'Request Schedule Change');
    await user.type(within(dialog).getByLabelText('Reason for Schedule Change'), 'Rain');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-12' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    expect(
      await within(dialog).findByText(
        'New Requested Date is the same as the Original Date: choose another day',
      ),
    ).toBeTruthy();
    expect(await outbox()).toEqual([]);
  });

  it('refuses a new date before today', async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'request', taskId: POUR }, 'Request Schedule Change');
    await user.type(within(dialog).getByLabelText('Reason for Schedule Change'), 'Rain');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-09' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    expect(await within(dialog).findByText('New Requested Date cannot be in the past')).toBeTruthy();
    expect(await outbox()).toEqual([]);
  });

  it('saves the request on the device (a schedule_changes create), closes, and says it will sync', async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'request', taskId: POUR }, 'Request Schedule Change');
    await user.type(within(dialog).getByLabelText('Reason for Schedule Change'), '  Concrete truck delayed ');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-14' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    await screen.findByText('dialog closed');
    const [entry] = await outbox();
    expect(entry).toMatchObject({ op: 'create', table: 'schedule_changes', baseVersion: null });
    // The due time of day (15:00) is kept on the new day, so an approval keeps the task due at 15:00.
    expect(entry?.data).toEqual({
      taskId: POUR,
      reason: 'Concrete truck delayed',
      originalDate: '2026-03-12T15:00:00.000Z',
      newDate: '2026-03-14T15:00:00.000Z',
      userId: ME,
    });
    const row = await db.schedule_changes.get(entry!.rowId);
    expect(row?.newDate).toBe('2026-03-14T15:00:00.000Z');
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(screen.getByText('Schedule change request submitted')).toBeTruthy();
  });
});

describe('Update Task Schedule (schedule screen)', () => {
  it('offers the open tasks as "<task title> - <project name>" and requires one', async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'update' }, 'Update Task Schedule');
    const select = within(dialog).getByLabelText('Task');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['Select a task', 'Frame walls - Depot', 'Pour slab - Harbor Tower']);
    await user.type(within(dialog).getByLabelText('Reason for Schedule Change'), 'Crane booked');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-25' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    expect(await within(dialog).findByText('Please select a task')).toBeTruthy();
    expect(await outbox()).toEqual([]);
  });

  it("choosing a task sets the Original Date to that task's due date", async () => {
    await seed();
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'update' }, 'Update Task Schedule');
    const original = within(dialog).getByLabelText<HTMLInputElement>('Original Date');
    expect(original.value).toBe('2026-03-10');
    await user.selectOptions(within(dialog).getByLabelText('Task'), 'Frame walls - Depot');
    expect(original.value).toBe('2026-03-20');
    expect(original.readOnly).toBe(false);
    await user.type(within(dialog).getByLabelText('Reason for Schedule Change'), 'Crane booked');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-25' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Request' }));
    await screen.findByText('dialog closed');
    const [entry] = await outbox();
    expect(entry?.data).toMatchObject({
      taskId: FRAME,
      originalDate: '2026-03-20T00:00:00.000Z',
      newDate: '2026-03-25T00:00:00.000Z',
    });
  });
});

describe('Edit Schedule Change', () => {
  const pulledChange: ScheduleChangeRow = {
    id: CHANGE,
    version: 7,
    taskId: POUR,
    userId: ME,
    reason: 'Rain forecast',
    originalDate: '2026-03-12T15:00:00.000Z',
    newDate: '2026-03-16T15:00:00.000Z',
    status: 'pending',
    createdAt: '2026-03-09T10:00:00.000Z',
  };

  it('prefills the request and sends only the fields the user changed', async () => {
    await seed();
    await db.schedule_changes.put(pulledChange);
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'edit', change: pulledChange }, 'Edit Schedule Change');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Task').value).toBe('Pour slab - Harbor Tower');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Original Date').value).toBe('2026-03-12');
    expect(within(dialog).getByLabelText<HTMLInputElement>('New Requested Date').value).toBe('2026-03-16');
    const reason = within(dialog).getByLabelText('Reason for Schedule Change');
    await user.clear(reason);
    await user.type(reason, 'Rain all week');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('dialog closed');
    const [entry] = await outbox();
    expect(entry).toMatchObject({ op: 'patch', rowId: CHANGE, baseVersion: 7 });
    expect(entry?.data).toEqual({ reason: 'Rain all week' });
  });

  it('a changed new date alone is sent alone, at the time of day it had', async () => {
    await seed();
    await db.schedule_changes.put(pulledChange);
    const user = userEvent.setup();
    const dialog = await openDialog({ mode: 'edit', change: pulledChange }, 'Edit Schedule Change');
    fireEvent.change(within(dialog).getByLabelText('New Requested Date'), {
      target: { value: '2026-03-18' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('dialog closed');
    await waitFor(async () => expect(await outbox()).toHaveLength(1));
    const [entry] = await outbox();
    expect(entry?.data).toEqual({ newDate: '2026-03-18T15:00:00.000Z' });
  });

  it('opens inside a screen mounted without a session (component tests of other screens)', async () => {
    await seed();
    render(
      <StaticLocalData db={db}>
        <Host mode="request" taskId={POUR} />
      </StaticLocalData>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Request Schedule Change' });
    expect((await within(dialog).findByLabelText<HTMLTextAreaElement>('Task')).value).toBe(
      'Pour slab - Harbor Tower',
    );
  });
});
