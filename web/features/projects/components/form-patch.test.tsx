// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { polyfillDom, PROJECT_A, pulledProject, pulledTask, renderScreen, testDb } from './test-support.tsx';

// Issue 9 items 1 and 2: an edit dialog sends only what the user changed, and a due date keeps its time.

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  db?.close();
});

const TASK = '0195a0a0-0000-7000-8000-000000000201';

async function seed() {
  db = testDb();
  await db.projects.put(
    pulledProject(PROJECT_A, 'Harbor Tower', 'active', {
      description: 'Twelve floors',
      dueDate: '2030-02-26T23:00:00.000Z',
    }),
  );
  await db.tasks.put(pulledTask(TASK, PROJECT_A, 'Pour slab', { dueDate: '2030-03-10T23:00:00.000Z' }));
  renderScreen(db);
  return userEvent.setup();
}

async function openProjectEdit(user: ReturnType<typeof userEvent.setup>) {
  const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
  await user.click(within(harbor).getByRole('button', { name: 'Edit project' }));
  return within(await screen.findByRole('dialog', { name: 'Edit Project' }));
}

async function openTaskEdit(user: ReturnType<typeof userEvent.setup>) {
  const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
  await user.click(within(harbor).getByRole('button', { name: /Tasks/ }));
  const row = await within(harbor).findByRole('listitem', { name: 'Pour slab' });
  await user.click(within(row).getByRole('button', { name: 'Edit task' }));
  return within(await screen.findByRole('dialog', { name: 'Edit Task' }));
}

async function savedPatch(d: ReturnType<typeof within>) {
  await userEvent.setup().click(d.getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  // The dialog closes on the write itself, before its transaction has committed: wait for the outbox.
  await waitFor(async () => expect(await db.outbox.count()).toBeGreaterThan(0));
  return (await db.outbox.toArray()).map((e) => e.data);
}

describe('edit dialogs send only the changed fields', () => {
  it('[C3] a project edit of the description alone carries only the description, not the due date it loaded', async () => {
    const user = await seed();
    const d = await openProjectEdit(user);
    await user.clear(d.getByLabelText('Description'));
    await user.type(d.getByLabelText('Description'), 'Fourteen floors');
    expect(await savedPatch(d)).toEqual([{ description: 'Fourteen floors' }]);
    expect((await db.projects.get(PROJECT_A))?.dueDate).toBe('2030-02-26T23:00:00.000Z');
  });

  it('[C3] a field typed and then put back as it was is not sent', async () => {
    const user = await seed();
    const d = await openProjectEdit(user);
    await user.clear(d.getByLabelText(/^Name/));
    await user.type(d.getByLabelText(/^Name/), 'Harbor Tower');
    await user.clear(d.getByLabelText('Progress (%)'));
    await user.type(d.getByLabelText('Progress (%)'), '55');
    expect(await savedPatch(d)).toEqual([{ progress: 55 }]);
  });

  it('a new project due date keeps the time of day of the stored one (T23:00Z stays T23:00Z)', async () => {
    const user = await seed();
    const d = await openProjectEdit(user);
    expect((d.getByLabelText('Due date') as HTMLInputElement).value).toBe('2030-02-26');
    await user.clear(d.getByLabelText('Due date'));
    await user.type(d.getByLabelText('Due date'), '2030-03-31');
    expect(await savedPatch(d)).toEqual([{ dueDate: '2030-03-31T23:00:00.000Z' }]);
  });

  it('[C3] a task edit of the status alone carries only the status and leaves the due time alone', async () => {
    const user = await seed();
    const d = await openTaskEdit(user);
    await user.click(d.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'In Progress' }));
    expect(await savedPatch(d)).toEqual([{ status: 'in-progress' }]);
    expect((await db.tasks.get(TASK))?.dueDate).toBe('2030-03-10T23:00:00.000Z');
  });

  it('a new task due date keeps the time of day of the stored one', async () => {
    const user = await seed();
    const d = await openTaskEdit(user);
    await user.clear(d.getByLabelText('Due date'));
    await user.type(d.getByLabelText('Due date'), '2030-04-02');
    expect(await savedPatch(d)).toEqual([{ dueDate: '2030-04-02T23:00:00.000Z' }]);
  });
});
