// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb, type SyncDb } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { SyncIssuesList } from './sync-issues-panel.tsx';

const ROW = '0195a0a0-0000-7000-8000-0000000000c1';
let db: SyncDb;
let n = 0;

beforeEach(async () => {
  n += 1;
  db = openSyncDb({ companyId: `company-issues-${n}`, userId: 'user-1' });
  // A project create the server refused: the engine moves it from the outbox to syncIssues and drops the row.
  const entry = await mutate(db, 'projects', 'create', ROW, {
    name: 'Harbor Tower',
    location: '',
    progress: 10,
  });
  await db.transaction('rw', db.projects, db.outbox, db.syncIssues, async () => {
    await db.outbox.clear();
    await db.projects.delete(ROW);
    await db.syncIssues.add({
      kind: 'mutation',
      mutation: entry ?? undefined,
      code: 'VALIDATION_FAILED',
      message: 'location: Location is required',
      createdAt: Date.parse('2025-03-04T10:00:00Z'),
    });
  });
});

afterEach(async () => {
  cleanup();
  db.close();
});

function renderList() {
  return render(
    <StaticLocalData db={db}>
      <SyncIssuesList />
    </StaticLocalData>,
  );
}

describe('Sync issues list', () => {
  it("lists a rejected change with its content and the server's reason", async () => {
    renderList();
    const item = (
      await screen.findByRole('heading', { name: 'Project "Harbor Tower" was not created' })
    ).closest('li');
    expect(item).toBeTruthy();
    const scope = within(item as HTMLElement);
    expect(scope.getByText('Not saved')).toBeTruthy();
    expect(scope.queryByText('VALIDATION_FAILED')).toBeNull();
    expect(scope.getByText(/could not accept a value in it \(location: Location is required\)/)).toBeTruthy();
    expect(scope.getByText('Harbor Tower', { selector: 'dd' })).toBeTruthy();
    expect(scope.getByText('Location', { selector: 'dt' })).toBeTruthy();
  });

  it('Retry after editing re-queues the change through the sync module and removes the issue', async () => {
    renderList();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Retry: Project "Harbor Tower" was not created' }),
    );
    const location = screen.getByLabelText('Location');
    await userEvent.type(location, 'Pier 4');
    const progress = screen.getByLabelText('Progress');
    await userEvent.clear(progress);
    await userEvent.type(progress, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('progress must be a number')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);

    await userEvent.clear(progress);
    await userEvent.type(progress, '25');
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
    await waitFor(async () => expect(await db.syncIssues.count()).toBe(0));
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      op: 'create',
      table: 'projects',
      rowId: ROW,
      data: { name: 'Harbor Tower', location: 'Pier 4', progress: 25 },
    });
    expect(await db.projects.get(ROW)).toMatchObject({ location: 'Pier 4' });
    expect(await screen.findByText('No sync issues. Every change was accepted.')).toBeTruthy();
  });

  it('Discard asks first, then drops the issue without queueing anything', async () => {
    renderList();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Discard: Project "Harbor Tower" was not created' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await db.syncIssues.count()).toBe(1);

    await userEvent.click(
      screen.getByRole('button', { name: 'Discard: Project "Harbor Tower" was not created' }),
    );
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard' }),
    );
    await waitFor(async () => expect(await db.syncIssues.count()).toBe(0));
    expect(await db.outbox.count()).toBe(0);
  });

  it("names a refused request's task by its title from the device", async () => {
    const TASK = '0195a0a0-0000-7000-8000-0000000000c3';
    await db.tasks.put({ id: TASK, version: 3, title: 'Strip formwork' });
    await db.syncIssues.add({
      kind: 'mutation',
      code: 'FORBIDDEN',
      message: 'You do not have permission to do that',
      createdAt: Date.parse('2025-03-05T10:00:00Z'),
      mutation: {
        id: 11,
        op: 'create',
        table: 'schedule_changes',
        rowId: '0195a0a0-0000-7000-8000-0000000000c4',
        data: { taskId: TASK, reason: 'Crane down', newDate: '2025-03-09T00:00:00.000Z' },
        baseVersion: null,
        clientTime: 0,
        createdAt: 0,
      },
    });
    renderList();
    const heading = await screen.findByRole('heading', {
      name: 'Schedule change "Crane down" was not created',
    });
    const item = within(heading.closest('li') as HTMLElement);
    expect(item.getByText('Strip formwork', { selector: 'dd' })).toBeTruthy();
    expect(item.queryByText('a record no longer on this device')).toBeNull();
  });

  it('names a project gone from the device by the name it had when the change was refused', async () => {
    const PROJECT = '0195a0a0-0000-7000-8000-0000000000c5';
    await db.syncIssues.add({
      kind: 'mutation',
      code: 'NOT_FOUND',
      message: 'Project not found',
      createdAt: Date.parse('2025-03-05T10:00:00Z'),
      refNames: { [PROJECT]: 'Riverside Medical Office Building' },
      mutation: {
        id: 12,
        op: 'create',
        table: 'project_logs',
        rowId: '0195a0a0-0000-7000-8000-0000000000c6',
        data: { projectId: PROJECT, title: 'Sub diary' },
        baseVersion: null,
        clientTime: 0,
        createdAt: 0,
      },
    });
    renderList();
    const heading = await screen.findByRole('heading', { name: 'Project log "Sub diary" was not created' });
    const item = within(heading.closest('li') as HTMLElement);
    expect(item.getByText('Riverside Medical Office Building', { selector: 'dd' })).toBeTruthy();
  });

  it('names a partly applied edit by the record on the device and the field in words, never the raw code', async () => {
    const TASK = '0195a0a0-0000-7000-8000-0000000000c2';
    const USER = '0195a0a0-0000-7000-8000-0000000000a7';
    await db.tasks.put({ id: TASK, version: 3, title: 'Pour slab', dueDate: '2027-03-31T23:00:00.000Z' });
    await db.users.put({ id: USER, version: 1, name: 'Maria Lopez', firstName: 'Maria', email: 'm@x.test' });
    await db.syncIssues.add({
      kind: 'conflict',
      code: 'PARTIALLY_APPLIED',
      message: 'Someone else changed some of these fields later; their values were kept',
      conflicts: [
        { field: 'dueDate', kept: '2027-03-31T23:00:00.000Z', yours: '2027-02-26T23:00:00.000Z' },
        { field: 'assigneeId', kept: USER, yours: null },
      ],
      createdAt: Date.parse('2025-03-05T10:00:00Z'),
      mutation: {
        id: 9,
        op: 'patch',
        table: 'tasks',
        rowId: TASK,
        data: { dueDate: '2027-02-26T23:00:00.000Z', assigneeId: null, status: 'completed' },
        baseVersion: 2,
        clientTime: 0,
        createdAt: 0,
      },
    });
    renderList();
    const heading = await screen.findByRole('heading', {
      name: 'Task "Pour slab": your due date and assignee were not applied',
    });
    const item = within(heading.closest('li') as HTMLElement);
    expect(
      item.getByText(
        /^Someone else changed the due date and assignee of this task after you made your change, so their values were kept\./,
      ),
    ).toBeTruthy();
    expect(item.getByText('Partly saved')).toBeTruthy();
    const kept = item.getByRole('list', { name: 'Values kept by the server' }).textContent ?? '';
    expect(kept).toContain('Assignee: kept Maria Lopez; yours was (empty)');
    expect(kept).toMatch(/Due date: kept Mar (31|30|1), 2027/);
    expect(screen.queryByText(/PARTIALLY_APPLIED/)).toBeNull();
    expect(screen.queryByText(/^Edited/)).toBeNull();
  });
});
