// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider, onlineManager } from '@tanstack/react-query';
import type { RowHistory } from '#shared/sync-protocol.ts';
import { RecordHistoryDialog } from './record-history-dialog.tsx';

const ROW = '0195a0a0-0000-7000-8000-00000000000a';

beforeAll(() => {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.scrollIntoView ??= () => {};
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const history: RowHistory = {
  table: 'projects',
  rowId: ROW,
  entries: [
    {
      kind: 'replaced',
      id: 'c1',
      field: 'dueDate',
      replacedValue: '2027-03-31T00:00:00.000Z',
      replacedBy: { id: 'u1', name: 'Ada Admin' },
      keptValue: '2027-02-26T00:00:00.000Z',
      keptBy: { id: 'u2', name: 'Manny Manager' },
      at: '2026-11-23T12:50:00.000Z',
    },
    {
      kind: 'activity',
      id: 'a1',
      actionType: 'project_updated',
      description: 'Updated project Harbor Tower',
      by: { id: 'u2', name: 'Manny Manager' },
      at: '2026-11-23T12:50:00.000Z',
    },
  ],
};

function renderDialog(onRestore?: (field: string, value: unknown) => Promise<void>) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(history), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RecordHistoryDialog
        open
        onOpenChange={() => {}}
        table="projects"
        rowId={ROW}
        recordName="Harbor Tower"
        fieldLabels={{ dueDate: 'Due date' }}
        onRestore={onRestore}
      />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('RecordHistoryDialog', () => {
  it("asks the server for this record's history and shows the replaced value, who set it and who replaced it", async () => {
    const fetchMock = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'History of Harbor Tower' });
    const item = await within(dialog).findByRole('listitem', { name: 'Due date replaced' });
    expect(item.textContent).toContain(
      'Due date: Mar 31, 2027 (set by Ada Admin) was replaced by Feb 26, 2027 from Manny Manager',
    );
    expect(within(dialog).getByText('Updated project Harbor Tower by Manny Manager')).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toBe(
      `/api/sync/history?table=projects&rowId=${ROW}`,
    );
    // Without the right to edit there is nothing to restore with.
    expect(within(dialog).queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('restores the replaced value of that one field with one tap', async () => {
    const onRestore = vi.fn(async () => {});
    renderDialog(onRestore);
    const dialog = await screen.findByRole('dialog', { name: 'History of Harbor Tower' });
    await userEvent
      .setup()
      .click(await within(dialog).findByRole('button', { name: 'Restore due date Mar 31, 2027' }));
    expect(onRestore).toHaveBeenCalledWith('dueDate', '2027-03-31T00:00:00.000Z');
    await waitFor(() => expect(within(dialog).getByText('Restored')).toBeTruthy());
  });

  it('offline with no copy on the device, says it needs a connection instead of loading forever', async () => {
    onlineManager.setOnline(false);
    try {
      const fetchMock = renderDialog();
      const dialog = await screen.findByRole('dialog', { name: 'History of Harbor Tower' });
      expect(within(dialog).getByRole('status').textContent).toBe(
        'History is shown when this device is online.',
      );
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
