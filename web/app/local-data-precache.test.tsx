// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { openSyncDb } from '#sync/db.ts';
import { LocalDataProvider } from './local-data.tsx';
import { precacheGate } from './precache-gate.ts';
import { fakeSyncEngine, json, renderInApp, stubApi, TEST_USER } from './test-utils.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function settledNow(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

// Its own file: the page's gate is one per page (module), and this test must see it closed first.
it("the signed-in app lets the service worker install once the engine's first pull has reached the end (ADR 025)", async () => {
  stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
  const scope = { companyId: TEST_USER.companyId, userId: `${TEST_USER.id}-${Date.now()}` };
  const db = openSyncDb(scope);
  const { engine, set } = fakeSyncEngine();
  renderInApp(
    <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
      <p>Shell</p>
    </LocalDataProvider>,
  );
  const mayStart = precacheGate.whenMayStart(Promise.resolve(true), 60_000);
  expect(await settledNow(mayStart)).toBe(false);
  act(() => set({ pulling: true, rowsDownloaded: 1000 }));
  expect(await settledNow(mayStart)).toBe(false);
  act(() => set({ pulling: false, rowsDownloaded: 2400, lastSyncedAt: Date.now() }));
  expect(await settledNow(mayStart)).toBe(true);
  db.close();
});
