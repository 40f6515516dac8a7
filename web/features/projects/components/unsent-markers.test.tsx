// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledProject,
  pulledTask,
  renderScreen,
  testDb,
} from './test-support.tsx';

// Issue 9 item 4: every card, list row and task with unsent changes says "Waiting to sync".

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  db?.close();
});

const TASK = '0195a0a0-0000-7000-8000-000000000201';
const card = (name: string) => screen.getByRole('article', { name });

async function seed() {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active'),
    pulledProject(PROJECT_B, 'Bridge Repair', 'active'),
  ]);
  await db.tasks.put(pulledTask(TASK, PROJECT_B, 'Pour slab'));
}

describe('waiting-to-sync markers', () => {
  it('mark only the card whose project has unsent changes, and go once they are sent', async () => {
    await seed();
    renderScreen(db);
    await screen.findByRole('article', { name: 'Harbor Tower' });
    expect(screen.queryByText('Waiting to sync')).toBeNull();

    await mutate(db, 'projects', 'patch', PROJECT_A, { progress: 55 });
    expect(await within(card('Harbor Tower')).findByText('Waiting to sync')).toBeTruthy();
    expect(within(card('Bridge Repair')).queryByText('Waiting to sync')).toBeNull();

    // The push took it: the outbox is empty again.
    await db.outbox.clear();
    await waitFor(() => expect(screen.queryByText('Waiting to sync')).toBeNull());
  });

  it('mark a task row of the open task list and a row of the List view', async () => {
    await seed();
    renderScreen(db);
    await screen.findByRole('article', { name: 'Bridge Repair' });
    await mutate(db, 'tasks', 'patch', TASK, { status: 'completed' });
    await userEvent.click(within(card('Bridge Repair')).getByRole('button', { name: /^Tasks/ }));
    const task = await within(card('Bridge Repair')).findByRole('listitem', { name: 'Pour slab' });
    expect(await within(task).findByText('Waiting to sync')).toBeTruthy();
    // The task's change does not mark its project.
    expect(within(card('Bridge Repair')).getAllByText('Waiting to sync')).toHaveLength(1);

    await mutate(db, 'projects', 'patch', PROJECT_B, { progress: 70 });
    await userEvent.click(screen.getByRole('radio', { name: 'List' }));
    // The marker follows the outbox's live query, which renders a moment after the write commits.
    await waitFor(() => {
      const rows = screen.getAllByTestId('project-row');
      const bridge = rows.find((r) => r.textContent?.includes('Bridge Repair'));
      const harbor = rows.find((r) => r.textContent?.includes('Harbor Tower'));
      expect(within(bridge!).getByText('Waiting to sync')).toBeTruthy();
      expect(within(harbor!).queryByText('Waiting to sync')).toBeNull();
    });
  });

  it('a write that has not reached the server says "Saved on this device, will sync", not "Project created"', async () => {
    await seed();
    renderScreen(db);
    await screen.findByRole('article', { name: 'Harbor Tower' });
    await userEvent.click(screen.getByRole('button', { name: 'New Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Depot');
    await userEvent.type(within(dialog).getByLabelText(/^Location/), 'Pier 4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(screen.queryByText('Project created')).toBeNull();
    expect(
      await within(await screen.findByRole('article', { name: 'Depot' })).findByText('Waiting to sync'),
    ).toBeTruthy();
  });
});
