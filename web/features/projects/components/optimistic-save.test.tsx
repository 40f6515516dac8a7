// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { SAVED_ON_DEVICE } from '#web/app/saved-toast.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledProject,
  renderScreen,
  testDb,
  writeTo,
} from './test-support.tsx';

// Issue 14 item 6 (budget B7): an edit shows on the screen in the tap that saves it, while the local write
// commits; a write that fails takes the change off the card and gives the user back what they typed.

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  db?.close();
});

/** The real write, held back until the test lets it go (or fails it). */
function heldWrite(real: LocalWrite) {
  const calls: { args: Parameters<LocalWrite>; release: () => void; fail: (err: Error) => void }[] = [];
  const write: LocalWrite = (...args) =>
    new Promise<void>((resolve, reject) => {
      calls.push({
        args,
        release: () => void real(...args).then(resolve, reject),
        fail: reject,
      });
    });
  return { write, calls };
}

async function seed() {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active', { progress: 40 }),
    pulledProject(PROJECT_B, 'Bridge Repair', 'active', { progress: 10 }),
  ]);
}

const bar = (name: string) => screen.getByRole('progressbar', { name: `Progress of ${name}`, hidden: true });

async function editProgress(to: string) {
  const user = userEvent.setup();
  const harbor = await screen.findByRole('article', { name: 'Harbor Tower' });
  await user.click(within(harbor).getByRole('button', { name: 'Edit project' }));
  const d = within(await screen.findByRole('dialog', { name: 'Edit Project' }));
  await user.clear(d.getByLabelText('Progress (%)'));
  await user.type(d.getByLabelText('Progress (%)'), to);
  await user.click(d.getByRole('button', { name: 'Save Changes' }));
  return user;
}

describe('an edit shows before its local write commits', () => {
  it('closes the dialog and shows the new progress while the write is still pending, and keeps it once committed', async () => {
    await seed();
    const held = heldWrite(writeTo(db));
    renderScreen(db, { write: held.write });
    await editProgress('65');

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('65');
    expect(bar('Bridge Repair').getAttribute('aria-valuenow')).toBe('10');
    expect(held.calls.map((c) => c.args)).toEqual([['projects', 'patch', PROJECT_A, { progress: 65 }]]);
    expect(await db.outbox.count()).toBe(0);

    held.calls[0]!.release();
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect((await db.projects.get(PROJECT_A))?.progress).toBe(65);
    // Still the saved value after the live query reads the committed row (no flicker back to 40).
    expect(await screen.findByText(SAVED_ON_DEVICE)).toBeTruthy();
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('65');
  });

  it('a failed write takes the change off the card, says so, and opens the dialog again with what was typed', async () => {
    await seed();
    const held = heldWrite(writeTo(db));
    renderScreen(db, { write: held.write });
    await editProgress('65');
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('65');

    held.calls[0]!.fail(new Error('QuotaExceededError: the device is full'));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Project' }));
    expect(screen.getAllByText('Failed to update project').length).toBeGreaterThan(0);
    const alert = d.getByText('Failed to update project').closest('[role="alert"]');
    expect(alert?.textContent).toContain('QuotaExceededError: the device is full');
    expect((d.getByLabelText('Progress (%)') as HTMLInputElement).value).toBe('65');
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('40');
    expect(await db.outbox.count()).toBe(0);

    // Saving again sends the typed change (it still counts as a change to the stored project) with
    // whatever else the user types now.
    const user = userEvent.setup();
    await user.type(d.getByLabelText('Description'), 'Roof done');
    expect((d.getByLabelText('Progress (%)') as HTMLInputElement).value).toBe('65');
    await user.click(d.getByRole('button', { name: 'Save Changes' }));
    expect(held.calls.map((c) => c.args[3])).toEqual([
      { progress: 65 },
      { progress: 65, description: 'Roof done' },
    ]);
    held.calls[1]!.release();
    await waitFor(async () => expect((await db.projects.get(PROJECT_A))?.progress).toBe(65));
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('65');
  });

  it('an invalid form stays open with its message and writes nothing', async () => {
    await seed();
    const held = heldWrite(writeTo(db));
    renderScreen(db, { write: held.write });
    await editProgress('150');
    const d = within(screen.getByRole('dialog', { name: 'Edit Project' }));
    expect(await d.findByText('Progress must be 0 to 100')).toBeTruthy();
    expect(held.calls).toEqual([]);
    expect(bar('Harbor Tower').getAttribute('aria-valuenow')).toBe('40');
  });
});
