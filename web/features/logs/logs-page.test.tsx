// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { readMeta } from '#sync/db.ts';
import { FirstDownloadGate } from '#web/app/first-download.tsx';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { fakeSyncEngine, json, renderInApp, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import { polyfillDom, testDb } from './components/test-support.tsx';
import LogsPage from './logs-page.tsx';

beforeAll(polyfillDom);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function mount(path: string) {
  stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
  const db = testDb();
  const { engine, set } = fakeSyncEngine({ pulling: true, rowsDownloaded: 120 });
  renderInApp(
    <StaticLocalData db={db} engine={engine}>
      <FirstDownloadGate>
        <LogsPage />
      </FirstDownloadGate>
    </StaticLocalData>,
    { path },
  );
  return { db, set };
}

describe('/logs before the first download completes', () => {
  it('shows five skeleton cards under the progress, then the screen with its empty state once done', async () => {
    const { db } = mount('/logs');
    await readMeta(db);
    expect(await screen.findByText('Downloading your data... 120 rows so far')).toBeTruthy();
    expect(screen.getAllByTestId('log-skeleton')).toHaveLength(5);
    expect(screen.queryByText('No logs found')).toBeNull();
    await act(() => db.meta.update('state', { lastSyncedAt: Date.now() }));
    expect(await screen.findByText('No logs found')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Project Logs' })).toBeTruthy();
    expect(screen.queryAllByTestId('log-skeleton')).toHaveLength(0);
    db.close();
  });

  it('other mirror screens show the progress without the logs skeleton', async () => {
    const { db } = mount('/projects');
    await readMeta(db);
    expect(await screen.findByTestId('first-download')).toBeTruthy();
    expect(screen.queryAllByTestId('log-skeleton')).toHaveLength(0);
    db.close();
  });
});
