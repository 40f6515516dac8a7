// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb } from '#sync/db.ts';
import type { SyncEngine, SyncStatus } from '#sync/engine.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { SyncIndicator } from './sync-indicator.tsx';

afterEach(cleanup);

function fakeEngine(initial: Partial<SyncStatus>) {
  let value: SyncStatus = {
    online: true,
    pushing: false,
    pulling: false,
    pending: 0,
    oldestPendingAt: null,
    blobsPending: 0,
    issues: 0,
    lastSyncedAt: null,
    rowsDownloaded: 0,
    error: null,
    paused: null,
    leader: true,
    ...initial,
  };
  const subs = new Set<(s: SyncStatus) => void>();
  const engine: SyncEngine = {
    start: () => {},
    stop: async () => {},
    syncNow: vi.fn(async () => {}),
    resume: () => {},
    status: {
      get: () => value,
      subscribe: (fn) => {
        subs.add(fn);
        return () => subs.delete(fn);
      },
    },
  };
  const set = (patch: Partial<SyncStatus>) => {
    value = { ...value, ...patch };
    for (const fn of subs) fn(value);
  };
  return { engine, set };
}

describe('SyncIndicator', () => {
  it('follows the engine status and opens the details and the Sync issues list', async () => {
    const db = openSyncDb({ companyId: 'company-indicator', userId: 'user-1' });
    const now = Date.now();
    const { engine, set } = fakeEngine({
      pending: 2,
      oldestPendingAt: now - 4 * 86_400_000,
      lastSyncedAt: now - 120_000,
    });
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

    act(() => set({ online: true, issues: 1 }));
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(engine.syncNow).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sync issues (1)' }));
    expect(await screen.findByRole('dialog', { name: 'Sync issues' })).toBeTruthy();
    db.close();
  });
});
