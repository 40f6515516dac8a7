// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { openSyncDb } from '#sync/db.ts';
import { LocalDataProvider } from './local-data.tsx';
import { fakeSyncEngine, json, renderInApp, stubApi, TEST_USER } from './test-utils.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('start-up order (budget B10)', () => {
  it('the sync engine (its lock, event stream and first pull) starts only after the first screen has painted', async () => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    const scope = { companyId: TEST_USER.companyId, userId: `${TEST_USER.id}-${Date.now()}` };
    const db = openSyncDb(scope);
    const events: string[] = [];
    const { engine } = fakeSyncEngine();
    engine.start = () => events.push('engine started');
    function FirstScreen() {
      useEffect(() => {
        events.push('screen mounted');
        // The browser paints a frame after requestAnimationFrame callbacks run.
        requestAnimationFrame(() => events.push('frame'));
      }, []);
      return <h1>Projects</h1>;
    }
    renderInApp(
      <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
        <FirstScreen />
      </LocalDataProvider>,
    );
    await screen.findByRole('heading', { name: 'Projects' });
    await waitFor(() => expect(events).toEqual(['screen mounted', 'frame', 'engine started']));
    db.close();
  });
});
