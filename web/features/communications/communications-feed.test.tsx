// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { CommunicationsFeed } from './communications-feed.tsx';
import { approvalEffect } from './components/feed-items.tsx';
import {
  MANAGER,
  ME,
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  pulledChangeOrder,
  pulledCommunication,
  renderOnDevice,
  rowId,
  testDb,
} from './components/test-support.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  db?.close();
});

const MANAGER_USER = { id: MANAGER, role: 'manager', grants: ['change_orders:approve'] };

async function seed() {
  db = testDb();
  await db.projects.bulkPut([
    { id: PROJECT_A, version: 1, name: 'Harbor Tower', status: 'active' },
    { id: PROJECT_B, version: 1, name: 'Depot', status: 'active' },
  ]);
  await db.communications.bulkPut([
    pulledCommunication(1, { subject: 'Crane schedule', type: 'message' }),
    pulledCommunication(2, { subject: 'Rebar short', type: 'dispute', priority: 'urgent' }),
    pulledCommunication(3, { subject: 'March invoice query', type: 'invoice', projectId: PROJECT_B }),
  ]);
  await db.change_orders.bulkPut([
    pulledChangeOrder(11, { title: 'Extra footing' }),
    pulledChangeOrder(12, { title: 'Glazing upgrade', status: 'approved', projectId: PROJECT_B }),
  ]);
}

const titles = (list: HTMLElement) =>
  within(list)
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

async function openFeed(user = {}) {
  renderOnDevice(db, <CommunicationsFeed />, user);
  return screen.findByRole('list', { name: 'All list' });
}

describe('CommunicationsFeed: tabs and filter', () => {
  it('lists everything newest first under All, and each tab only its kind', async () => {
    await seed();
    const u = userEvent.setup();
    const all = await openFeed();
    expect(new Set(titles(all))).toEqual(
      new Set(['Crane schedule', 'Rebar short', 'March invoice query', 'Extra footing', 'Glazing upgrade']),
    );
    const expected: [string, string[]][] = [
      ['Messages', ['Crane schedule']],
      ['Disputes', ['Rebar short']],
      ['Invoices', ['March invoice query']],
      ['Change Orders', ['Glazing upgrade', 'Extra footing']],
    ];
    for (const [tab, want] of expected) {
      await u.click(screen.getByRole('tab', { name: tab }));
      const list = await screen.findByRole('list', { name: `${tab} list` });
      expect(titles(list)).toEqual(want);
    }
  });

  it("never shows the last tab's items under the tab just chosen while its list loads", async () => {
    await seed();
    const u = userEvent.setup();
    await openFeed();
    await u.click(screen.getByRole('tab', { name: 'Invoices' }));
    await screen.findByRole('list', { name: 'Invoices list' });
    await u.click(screen.getByRole('tab', { name: 'Change Orders' }));
    // Straight after the click, before the device answers: whatever is labelled Change Orders holds no invoice.
    const early = screen.queryByRole('list', { name: 'Change Orders list' });
    if (early) expect(titles(early)).not.toContain('March invoice query');
    expect(screen.queryByRole('list', { name: 'Invoices list' })).toBeNull();
    const list = await screen.findByRole('list', { name: 'Change Orders list' });
    expect(titles(list)).toEqual(['Glazing upgrade', 'Extra footing']);
  });

  it('shows the newest first across communications and change orders', async () => {
    await seed();
    await db.communications.put(
      pulledCommunication(20, { subject: 'Newest', createdAt: '2026-04-01T00:00:00.000Z' }),
    );
    await db.change_orders.put(
      pulledChangeOrder(21, { title: 'Oldest', createdAt: '2026-01-01T00:00:00.000Z' }),
    );
    const all = await openFeed();
    await waitFor(() => expect(titles(all)[0]).toBe('Newest'));
    expect(titles(all).at(-1)).toBe('Oldest');
  });

  it('filters by project when the feed is given one', async () => {
    await seed();
    renderOnDevice(db, <CommunicationsFeed projectId={PROJECT_B} />);
    const list = await screen.findByRole('list', { name: 'All list' });
    expect(titles(list)).toEqual(['March invoice query', 'Glazing upgrade']);
    expect(screen.queryByRole('combobox', { name: 'Filter by project' })).toBeNull();
  });

  it('says so when a tab has nothing', async () => {
    db = testDb();
    renderOnDevice(db, <CommunicationsFeed />);
    expect(await screen.findByText('No communications or change orders yet')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Disputes' }));
    expect(await screen.findByText('No disputes yet')).toBeTruthy();
  });

  it('shows cost in dollars from cents and the time impact in days', async () => {
    await seed();
    const all = await openFeed();
    const card = within(all).getByRole('article', { name: 'Extra footing' });
    expect(within(card).getByText('$1,234.56')).toBeTruthy();
    expect(within(card).getByText('3 days')).toBeTruthy();
  });
});

describe('CommunicationsFeed: Approve and Reject', () => {
  it('shows no decision buttons to crew', async () => {
    await seed();
    const all = await openFeed();
    expect(within(all).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(all).queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('shows Approve and Reject to a manager on pending change orders only', async () => {
    await seed();
    const all = await openFeed(MANAGER_USER);
    const pending = within(all).getByRole('article', { name: 'Extra footing' });
    const approved = within(all).getByRole('article', { name: 'Glazing upgrade' });
    expect(within(pending).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(pending).getByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(within(approved).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(all).getAllByRole('button', { name: 'Approve' })).toHaveLength(1);
  });

  it('queues an approval as a patch of the status only, offline on the device', async () => {
    await seed();
    const u = userEvent.setup();
    const all = await openFeed(MANAGER_USER);
    const card = within(all).getByRole('article', { name: 'Extra footing' });
    await u.click(within(card).getByRole('button', { name: 'Approve' }));
    // A decision cannot be taken back: it asks first, saying what it adds, and nothing is queued until then.
    const confirm = await screen.findByRole('alertdialog', { name: 'Approve this change order?' });
    expect(confirm.textContent).toMatch(/It adds \$[\d,.]+ and \d+ days? to .+, and the requester is told/);
    expect(await db.outbox.count()).toBe(0);
    await u.click(within(confirm).getByRole('button', { name: 'Approve' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      table: 'change_orders',
      op: 'patch',
      rowId: rowId(11),
      data: { status: 'approved' },
      baseVersion: 4,
    });
    await waitFor(() => expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull());
    expect(within(card).getByText('Approved')).toBeTruthy();
  });

  it('asks before rejecting, then sends the spec’s reason', async () => {
    await seed();
    const u = userEvent.setup();
    const all = await openFeed(MANAGER_USER);
    const card = within(all).getByRole('article', { name: 'Extra footing' });
    await u.click(within(card).getByRole('button', { name: 'Reject' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Reject this change order?' });
    expect(await db.outbox.count()).toBe(0);
    await u.click(within(confirm).getByRole('button', { name: 'Reject' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry?.data).toEqual({ status: 'rejected', reason: 'Rejected by project manager' });
  });
});

async function pickOption(
  u: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  label: string,
  option: string,
) {
  await u.click(within(dialog).getByLabelText(label));
  await u.click(await screen.findByRole('option', { name: option }));
}

describe('CommunicationsFeed: New Communication', () => {
  it('names each missing field and sends nothing', async () => {
    await seed();
    const u = userEvent.setup();
    await openFeed();
    await u.click(screen.getByRole('button', { name: 'New Communication' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Communication' });
    await u.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Subject is required')).toBeTruthy();
    expect(within(dialog).getByText('Message is required')).toBeTruthy();
    expect(within(dialog).getByText('Project is required')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);
  });

  it('raises a dispute on the device, shown at once and queued for the server', async () => {
    await seed();
    const u = userEvent.setup();
    await openFeed();
    await u.click(screen.getByRole('button', { name: 'New Communication' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Communication' });
    await u.type(within(dialog).getByLabelText(/Subject/), 'Concrete truck late');
    await u.type(within(dialog).getByLabelText(/Message/), 'Pour moved to 2pm');
    await pickOption(u, dialog, 'Type', 'Dispute');
    await pickOption(u, dialog, 'Priority', 'High');
    await pickOption(u, dialog, 'Project *', 'Depot');
    await u.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Communication' })).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      table: 'communications',
      op: 'create',
      data: {
        subject: 'Concrete truck late',
        message: 'Pour moved to 2pm',
        type: 'dispute',
        priority: 'high',
        projectId: PROJECT_B,
        fromUserId: ME,
      },
    });
    await u.click(screen.getByRole('tab', { name: 'Disputes' }));
    const list = await screen.findByRole('list', { name: 'Disputes list' });
    await waitFor(() => expect(titles(list)).toContain('Concrete truck late'));
    expect(within(list).getByText('Waiting to sync')).toBeTruthy();
  });
});

describe('CommunicationsFeed: New Change Order', () => {
  async function openForm() {
    const u = userEvent.setup();
    await openFeed();
    await u.click(screen.getByRole('button', { name: 'New Change Order' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Change Order' });
    return { u, dialog };
  }

  it('names the missing fields and a bad amount, and sends nothing', async () => {
    await seed();
    const { u, dialog } = await openForm();
    await u.type(within(dialog).getByLabelText('Cost Impact ($)'), '12.345');
    await u.type(within(dialog).getByLabelText('Time Impact (days)'), '1.5');
    await u.click(within(dialog).getByRole('button', { name: 'Submit Change Order' }));
    expect(await within(dialog).findByText('Title is required')).toBeTruthy();
    expect(within(dialog).getByText('Description is required')).toBeTruthy();
    expect(within(dialog).getByText('Project is required')).toBeTruthy();
    expect(within(dialog).getByText('Cost impact can have at most 2 decimal places (cents)')).toBeTruthy();
    expect(within(dialog).getByText('Time impact must be a whole number of days')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);
  });

  it('turns 19.99 dollars into 1999 cents and starts pending', async () => {
    await seed();
    const { u, dialog } = await openForm();
    await u.type(within(dialog).getByLabelText(/Title/), 'Extra outlets');
    await u.type(within(dialog).getByLabelText(/Description/), 'Kitchen, level 2');
    await u.type(within(dialog).getByLabelText('Cost Impact ($)'), '19.99');
    await u.type(within(dialog).getByLabelText('Time Impact (days)'), '2');
    await pickOption(u, dialog, 'Project *', 'Harbor Tower');
    await u.click(within(dialog).getByRole('button', { name: 'Submit Change Order' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Change Order' })).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      table: 'change_orders',
      op: 'create',
      data: {
        title: 'Extra outlets',
        costImpact: 1999,
        timeImpact: 2,
        projectId: PROJECT_A,
        status: 'pending',
      },
    });
    const all = screen.getByRole('list', { name: 'All list' });
    const card = await within(all).findByRole('article', { name: 'Extra outlets' });
    expect(within(card).getByText('$19.99')).toBeTruthy();
    expect(within(card).getByText('Pending')).toBeTruthy();
  });

  it('takes -500 as a credit of $500: stored as -50000 cents, shown as a credit', async () => {
    await seed();
    const { u, dialog } = await openForm();
    await u.type(within(dialog).getByLabelText(/Title/), 'Delete second coat');
    await u.type(within(dialog).getByLabelText(/Description/), 'Owner accepts one coat of paint');
    await u.type(within(dialog).getByLabelText('Cost Impact ($)'), '-500');
    await pickOption(u, dialog, 'Project *', 'Harbor Tower');
    await u.click(within(dialog).getByRole('button', { name: 'Submit Change Order' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Change Order' })).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ table: 'change_orders', op: 'create', data: { costImpact: -50000 } });
    const all = screen.getByRole('list', { name: 'All list' });
    const card = await within(all).findByRole('article', { name: 'Delete second coat' });
    expect(within(card).getByText('-$500.00 (credit)')).toBeTruthy();
    // Approving it is said the right way round.
    expect(approvalEffect(-50000, 0)).toBe('It takes $500.00 off and adds 0 days to');
    expect(approvalEffect(4_200_000, 1)).toBe('It adds $42,000.00 and 1 day to');
  });
});
