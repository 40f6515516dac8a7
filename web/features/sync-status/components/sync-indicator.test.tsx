// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { fakeSyncEngine, markFirstDownloadDone } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { SyncIndicator } from './sync-indicator.tsx';

afterEach(() => {
  cleanup();
  resetToasts();
  localStorage.clear();
});

describe('SyncIndicator', () => {
  it('follows the engine status and opens the details and the Sync issues list', async () => {
    const db = openSyncDb({ companyId: 'company-indicator', userId: 'user-1' });
    const now = Date.now();
    const { engine, set } = fakeSyncEngine({
      pending: 2,
      oldestPendingAt: now - 4 * 86_400_000,
      lastSyncedAt: now - 120_000,
    });
    await markFirstDownloadDone(db, now - 120_000);
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    const button = screen.getByRole('button', { name: /^Sync status/ });
    expect(button.getAttribute('aria-label')).toBe('Sync status, Online, 2 changes waiting');
    act(() => set({ online: false, blobsPending: 1 }));
    expect(button.getAttribute('aria-label')).toBe(
      'Sync status, Offline, 2 changes waiting, 1 photo waiting',
    );

    await userEvent.click(button);
    expect(screen.getByText('Last synced 2 minutes ago')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/oldest unsent change is 4 days old/);
    expect((screen.getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => set({ online: true, issues: 1, pending: 0, oldestPendingAt: null, blobsPending: 0 }));
    // Nothing waits, but a change was refused: the popover does not say "All changes sent" beside it.
    expect(screen.queryByText('All changes sent')).toBeNull();
    expect(screen.getByText('Nothing waiting to send')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(engine.syncNow).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sync issues (1)' }));
    expect(await screen.findByRole('dialog', { name: 'Sync issues' })).toBeTruthy();
    db.close();
  });

  it('closing Sync issues gives focus back to the sync status button that opened its popover', async () => {
    const db = openSyncDb({ companyId: 'company-indicator-focus', userId: 'user-1' });
    const { engine } = fakeSyncEngine({ issues: 1 });
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    const button = screen.getByRole('button', { name: /^Sync status/ });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Sync issues (1)' }));
    expect(await screen.findByRole('dialog', { name: 'Sync issues' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sync issues' })).toBeNull());
    expect(document.activeElement).toBe(button);
    db.close();
  });

  it('tells a screen reader when the device goes offline, comes back, and everything waiting is sent', () => {
    const db = openSyncDb({ companyId: 'company-indicator-live', userId: 'user-1' });
    const { engine, set } = fakeSyncEngine({});
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    const live = screen.getByTestId('sync-announcer');
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('');
    act(() => set({ online: false }));
    expect(live.textContent).toBe('Offline. Your changes are saved on this device.');
    act(() => set({ pending: 2, oldestPendingAt: Date.now() }));
    act(() => set({ online: true, pushing: true }));
    expect(live.textContent).toBe('Back online.');
    act(() => set({ pending: 0, oldestPendingAt: null, pushing: false }));
    expect(live.textContent).toBe('All changes sent.');
    db.close();
  });

  it('names a failing sync in the header button, not only inside the popover', async () => {
    const db = openSyncDb({ companyId: 'company-indicator-failing', userId: 'user-1' });
    const { engine, set } = fakeSyncEngine({});
    // A device whose download has completed: only then is nothing waiting 'All sent' (C21).
    await markFirstDownloadDone(db);
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    act(() =>
      set({ error: { kind: 'server', code: 'INTERNAL', message: 'Server error', at: 0, retryAt: null } }),
    );
    expect(screen.getByRole('button', { name: /^Sync status/ }).getAttribute('aria-label')).toBe(
      'Sync status, Online, All sent, Sync failed: Server error',
    );
    act(() => set({ error: null, paused: 'unauthorized' }));
    expect(screen.getByRole('button', { name: /^Sync status/ }).getAttribute('aria-label')).toBe(
      'Sync status, Online, All sent, Sync is paused: sign in again to send your changes.',
    );
    db.close();
  });

  it('[C21] a first download that failed does not say All sent: the header says Not synced, with its own icon', async () => {
    const db = openSyncDb({ companyId: 'company-indicator-download', userId: 'user-1' });
    const { engine, set } = fakeSyncEngine({ rowsDownloaded: 1000 });
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    const error = { kind: 'server' as const, message: 'The server is not available right now, error 502' };
    act(() => set({ error: { ...error, at: Date.now(), retryAt: Date.now() + 2_000 } }));
    const button = screen.getByRole('button', { name: /^Sync status/ });
    await waitFor(() => expect(within(button).getByTestId('sync-word').textContent).toBe('Not synced'));
    expect(button.getAttribute('aria-label')).toBe(
      'Sync status, Online, Not synced, Sync failed: The server is not available right now, error 502',
    );
    expect(button.getAttribute('data-sync-phase')).toBe('incomplete');
    expect(button.querySelector('svg')?.getAttribute('class')).not.toMatch(/lucide-cloud-check/);
    await userEvent.click(button);
    expect(screen.getByText('Your data has not finished downloading')).toBeTruthy();
    // Once the download ends, everything sent reads as such again.
    await act(() => markFirstDownloadDone(db));
    act(() => set({ error: null }));
    await waitFor(() => expect(within(button).getByTestId('sync-word').textContent).toBe('All sent'));
    db.close();
  });

  it('shows offline, waiting, syncing and all sent by sight: an icon and a word of their own, on a phone too', async () => {
    const db = openSyncDb({ companyId: 'company-indicator-phases', userId: 'user-1' });
    const { engine, set } = fakeSyncEngine({ pending: 0 });
    // A device whose download has completed: only then is nothing waiting 'All sent' (C21).
    await markFirstDownloadDone(db);
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    const button = screen.getByRole('button', { name: /^Sync status/ });
    // What a sighted user sees on a phone: the icon's shape and the word under it (the sm-only summary aside).
    const seen = () => {
      const word = within(button).getByTestId('sync-word');
      expect(word.className.split(/\s+/)).not.toContain('hidden');
      const icon = button.querySelector('svg')?.getAttribute('class') ?? '';
      return { word: word.textContent, icon: icon.split(/\s+/).find((c) => /^lucide-(?!icon$)/.test(c)) };
    };
    const synced = seen();
    act(() => set({ pushing: true, pending: 2 }));
    const syncing = seen();
    act(() => set({ pushing: false }));
    const waiting = seen();
    act(() => set({ online: false }));
    const offline = seen();

    expect(synced.word).toBe('All sent');
    expect(syncing.word).toBe('Syncing');
    expect(waiting.word).toBe('Waiting');
    expect(offline.word).toBe('Offline');
    const icons = [synced.icon, syncing.icon, waiting.icon, offline.icon];
    expect(icons.every(Boolean)).toBe(true);
    expect(new Set(icons).size).toBe(4);
    // The visible word is in the button's accessible name (WCAG 2.5.3).
    act(() => set({ online: true, pending: 0 }));
    expect(button.getAttribute('aria-label')).toBe('Sync status, Online, All sent');
    db.close();
  });

  it('shows the number waiting in the header itself, in a warning colour once the oldest is over 3 days old', () => {
    const db = openSyncDb({ companyId: 'company-indicator-count', userId: 'user-1' });
    const now = Date.now();
    const { engine, set } = fakeSyncEngine({ pending: 0 });
    render(
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
      </StaticLocalData>,
    );
    expect(screen.queryByTestId('pending-count')).toBeNull();
    act(() => set({ pending: 3, oldestPendingAt: now - 2 * 86_400_000 }));
    const count = screen.getByTestId('pending-count');
    expect(count.textContent).toBe('3');
    expect(count.getAttribute('data-warning')).toBeNull();
    // The count sits in the header button, not in the popover: visible without opening anything.
    expect(screen.getByRole('button', { name: /^Sync status/ }).contains(count)).toBe(true);
    // Shown on a phone (hidden only from the sm breakpoint up, where the summary text carries the count).
    expect(count.className.split(/\s+/)).not.toContain('hidden');
    act(() => set({ pending: 3, oldestPendingAt: now - 3 * 86_400_000 - 60_000 }));
    expect(screen.getByTestId('pending-count').getAttribute('data-warning')).toBe('true');
    expect(screen.getByTestId('pending-count').className).toMatch(/bg-amber-500/);
    db.close();
  });

  it("toasts once when the server refuses a change or keeps someone else's value", async () => {
    const db = openSyncDb({ companyId: `company-indicator-toast-${Date.now()}`, userId: 'user-1' });
    const ROW = '0195a0a0-0000-7000-8000-0000000000e1';
    await db.projects.put({ id: ROW, version: 4, name: 'Harbor Tower' });
    const { engine } = fakeSyncEngine({});
    const ui = (
      <StaticLocalData db={db} engine={engine}>
        <SyncIndicator />
        <Toaster />
      </StaticLocalData>
    );
    const first = render(ui);
    // Give the indicator its first read (nothing to announce on a device's first run).
    await waitFor(() => expect(localStorage.length).toBe(1));
    await db.syncIssues.add({
      kind: 'conflict',
      code: 'PARTIALLY_APPLIED',
      message: 'x',
      conflicts: [{ field: 'dueDate', kept: null, yours: '2027-02-26T23:00:00.000Z' }],
      createdAt: Date.now(),
      mutation: {
        id: 3,
        op: 'patch',
        table: 'projects',
        rowId: ROW,
        data: { dueDate: '2027-02-26T23:00:00.000Z' },
        baseVersion: 2,
        clientTime: 0,
        createdAt: 0,
      },
    });
    expect(await screen.findByText('Project "Harbor Tower": your due date was not applied')).toBeTruthy();
    first.unmount();
    resetToasts();

    // Opened again (a reload): the same issue is not announced a second time.
    render(ui);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText('Project "Harbor Tower": your due date was not applied')).toBeNull();
    db.close();
  });
});
