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
    const item = (await screen.findByRole('heading', { name: 'New project: Harbor Tower' })).closest('li');
    expect(item).toBeTruthy();
    const scope = within(item as HTMLElement);
    expect(scope.getByText('VALIDATION_FAILED')).toBeTruthy();
    expect(scope.getByText('location: Location is required')).toBeTruthy();
    expect(scope.getByText('Harbor Tower', { selector: 'dd' })).toBeTruthy();
  });

  it('Retry after editing re-queues the change through the sync module and removes the issue', async () => {
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Retry: New project: Harbor Tower' }));
    const location = screen.getByLabelText('location');
    await userEvent.type(location, 'Pier 4');
    const progress = screen.getByLabelText('progress');
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
    await userEvent.click(await screen.findByRole('button', { name: 'Discard: New project: Harbor Tower' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await db.syncIssues.count()).toBe(1);

    await userEvent.click(screen.getByRole('button', { name: 'Discard: New project: Harbor Tower' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard' }),
    );
    await waitFor(async () => expect(await db.syncIssues.count()).toBe(0));
    expect(await db.outbox.count()).toBe(0);
  });
});
