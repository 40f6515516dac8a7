// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { openSyncDb, readMeta } from '#sync/db.ts';
import type { SyncStatus } from '#sync/engine.ts';
import type { FailureKind } from '#sync/http.ts';
import { downloadProblem, FirstDownloadGate, firstDownloadText } from './first-download.tsx';
import { StaticLocalData } from './local-data.tsx';
import { CurrentScreenFrame } from './shell/screen-frames.tsx';
import { fakeSyncEngine, TEST_USER } from './test-utils.tsx';

afterEach(cleanup);

// The first download is under way unless a test says otherwise.
const engineWith = (status: Partial<SyncStatus>) => fakeSyncEngine({ pulling: true, ...status });

describe('the first download', () => {
  it('counts the rows with thousands separators as a user reads them', () => {
    const text = (rows: number) => firstDownloadText({ rows, online: true });
    expect(text(0)).toBe('Downloading your data... 0 rows so far');
    expect(text(1)).toBe('Downloading your data... 1 row so far');
    expect(text(999)).toBe('Downloading your data... 999 rows so far');
    expect(text(100_000)).toBe('Downloading your data... 100,000 rows so far');
    expect(text(1_234_567)).toBe('Downloading your data... 1,234,567 rows so far');
  });

  it('[C21] offline part-way, says the download is unfinished and how far it got, not that it has not begun', () => {
    const offline = (rows: number) => firstDownloadText({ rows, online: false });
    expect(offline(0)).toBe('Waiting for a connection to download your data for the first time...');
    expect(offline(2_000)).toBe(
      'The download of your data did not finish: 2,000 rows so far. It goes on when the connection returns.',
    );
  });

  it('says why a download is stuck in whole sentences, and nothing while it only waits for the network', () => {
    const failed = (kind: FailureKind, message: string) =>
      downloadProblem({ paused: null, error: { kind, message, at: 0, retryAt: null } });
    expect(failed('server', 'The server is not available right now, error 502')).toBe(
      'The download did not finish. The server is not available right now, error 502. It is tried again automatically.',
    );
    expect(failed('protocol', 'this device is out of storage space; free up space on it')).toBe(
      'The download did not finish. This device is out of storage space; free up space on it. It is tried again automatically.',
    );
    expect(failed('server', 'Too many requests.')).toBe(
      'The download did not finish. Too many requests. It is tried again automatically.',
    );
    expect(failed('network', 'Network error: fetch failed')).toBeNull();
  });

  it('shows progress instead of the screen until the first pull completes, then the screen', async () => {
    const db = openSyncDb({ companyId: `company-first-${Date.now()}`, userId: 'user-1' });
    await readMeta(db);
    const { engine, set } = engineWith({ rowsDownloaded: 0 });
    render(
      <StaticLocalData db={db} engine={engine}>
        <FirstDownloadGate>
          <p>No active projects.</p>
        </FirstDownloadGate>
      </StaticLocalData>,
    );
    expect(await screen.findByText('Downloading your data... 0 rows so far')).toBeTruthy();
    act(() => set({ rowsDownloaded: 1200 }));
    expect(screen.getByText('Downloading your data... 1,200 rows so far')).toBeTruthy();
    act(() => set({ online: false }));
    expect(
      screen.getByText(/did not finish: 1,200 rows so far\. It goes on when the connection returns/),
    ).toBeTruthy();
    expect(screen.queryByText('No active projects.')).toBeNull();

    await db.meta.update('state', { lastSyncedAt: Date.now() });
    expect(await screen.findByText('No active projects.')).toBeTruthy();
    db.close();
  });

  it('[C10] a download cut by a closed tab goes on counting from the rows it had brought, not from nothing', async () => {
    const db = openSyncDb({ companyId: `company-first-again-${Date.now()}`, userId: 'user-1' });
    // The tab before this one brought two pages of the download, then was closed.
    await db.meta.put({ ...(await readMeta(db)), cursor: 2_140, downloadedRows: 2_000 });
    const { engine } = engineWith({ rowsDownloaded: 0 });
    render(
      <StaticLocalData db={db} engine={engine}>
        <FirstDownloadGate>
          <p>No tasks</p>
        </FirstDownloadGate>
      </StaticLocalData>,
    );
    expect(await screen.findByText('Downloading your data... 2,000 rows so far')).toBeTruthy();
    await db.meta.update('state', { downloadedRows: 3_000 });
    expect(await screen.findByText('Downloading your data... 3,000 rows so far')).toBeTruthy();
    expect(screen.queryByText('No tasks')).toBeNull();
    db.close();
  });

  it.each([
    ['/tasks', TEST_USER.permissions, 'Task Management'],
    ['/projects', TEST_USER.permissions, 'Projects'],
    ['/projects', { ...TEST_USER.permissions, projects: false }, null],
  ])(
    "%s keeps its heading over the progress while the data comes (role's flags: %o)",
    async (path, permissions, heading) => {
      const db = openSyncDb({ companyId: `company-first-frame-${Date.now()}`, userId: 'user-1' });
      await readMeta(db);
      const { engine } = engineWith({ rowsDownloaded: 40 });
      const user = { ...TEST_USER, permissions };
      render(
        <MemoryRouter initialEntries={[path]}>
          <StaticLocalData db={db} engine={engine}>
            <FirstDownloadGate
              frame={({ children }) => <CurrentScreenFrame user={user}>{children}</CurrentScreenFrame>}
            >
              <p>The screen</p>
            </FirstDownloadGate>
          </StaticLocalData>
        </MemoryRouter>,
      );
      const progress = await screen.findByText('Downloading your data... 40 rows so far');
      if (heading === null) {
        // A screen the role may not open shows no heading before its Access Denied.
        expect(screen.queryByRole('heading')).toBeNull();
      } else {
        const h1 = screen.getByRole('heading', { level: 1, name: heading });
        expect(h1.closest('section')?.contains(progress)).toBe(true);
      }
      db.close();
    },
  );

  it('a device that finished its first download once shows the screen at once, offline too', async () => {
    const db = openSyncDb({ companyId: `company-first-done-${Date.now()}`, userId: 'user-1' });
    await readMeta(db);
    await db.meta.update('state', { lastSyncedAt: 1 });
    const { engine } = engineWith({ online: false });
    render(
      <StaticLocalData db={db} engine={engine}>
        <FirstDownloadGate>
          <p>The screen</p>
        </FirstDownloadGate>
      </StaticLocalData>,
    );
    expect(await screen.findByText('The screen')).toBeTruthy();
    expect(screen.queryByText(/Downloading|Waiting for a connection/)).toBeNull();
    db.close();
  });

  it('/schedule shows its loading skeleton until the first download completes, never once it has', async () => {
    const db = openSyncDb({ companyId: `company-first-skeleton-${Date.now()}`, userId: 'user-1' });
    await readMeta(db);
    const { engine } = engineWith({ rowsDownloaded: 0 });
    render(
      <MemoryRouter initialEntries={['/schedule']}>
        <StaticLocalData db={db} engine={engine}>
          <FirstDownloadGate>
            <p>Schedule Management</p>
          </FirstDownloadGate>
        </StaticLocalData>
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('schedule-skeleton')).toBeTruthy();
    expect(screen.getByText('Downloading your data... 0 rows so far')).toBeTruthy();
    await db.meta.update('state', { lastSyncedAt: Date.now() });
    expect(await screen.findByText('Schedule Management')).toBeTruthy();
    expect(screen.queryByTestId('schedule-skeleton')).toBeNull();
    db.close();
  });
});
