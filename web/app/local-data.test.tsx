// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, lazy, Suspense, useEffect, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { openSyncDb, readMeta } from '#sync/db.ts';
import { appNow, setServerClockOffset } from '#web/lib/app-clock.ts';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { FirstScreenShown, LocalDataProvider } from './local-data.tsx';
import { useSession } from './session.tsx';
import { TopBar } from './shell/top-bar.tsx';
import {
  fakeSyncEngine,
  json,
  markFirstDownloadDone,
  renderInApp,
  stubApi,
  TEST_USER,
} from './test-utils.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Resolves after `n` frames and the task queued after the last: long enough for anything afterPaint runs. */
async function frames(n: number) {
  for (let i = 0; i < n; i++) {
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}

/** A screen chunk that loads when the test says so, as a route's lazy screen loads on a slow phone. */
function slowScreen(Screen: ComponentType) {
  let load = () => {};
  const Lazy = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        load = () => resolve({ default: Screen });
      }),
  );
  return { Lazy, load: () => load() };
}

/** The top bar as the signed-in layout renders it: once the session knows its user. */
function SignedInTopBar() {
  return useSession().user ? (
    <TooltipProvider>
      <TopBar />
    </TooltipProvider>
  ) : null;
}

/** A device database of its own, with an API that answers the session and counts the notification requests. */
function deviceAskingForNotifications() {
  const api = stubApi({
    'GET /api/auth/user': () => json(TEST_USER),
    'GET /api/notifications': () => json([]),
  });
  const scope = { companyId: TEST_USER.companyId, userId: `${TEST_USER.id}-${Date.now()}` };
  const asked = () => api.mock.calls.filter(([url]) => String(url).includes('/api/notifications')).length;
  return { scope, db: openSyncDb(scope), asked };
}

describe('start-up order (budget B10)', () => {
  it('the sync engine (its lock, event stream and first pull) starts only once the first screen has loaded and painted', async () => {
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
    const { Lazy, load } = slowScreen(FirstScreen);
    renderInApp(
      <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
        <p>Shell</p>
        <Suspense fallback={<p>Loading...</p>}>
          <Lazy />
          <FirstScreenShown />
        </Suspense>
      </LocalDataProvider>,
    );
    await screen.findByText('Loading...');
    // The shell has painted, frames go by; the screen's chunk is still on its way, so nothing starts.
    await frames(3);
    expect(events).toEqual([]);

    act(load);
    await screen.findByRole('heading', { name: 'Projects' });
    await waitFor(() => expect(events).toEqual(['screen mounted', 'frame', 'engine started']));
    db.close();
  });

  it('a sign-out that begins while the first screen loads leaves the engine stopped once it shows', async () => {
    let logoutAnswered = () => {};
    stubApi({
      'GET /api/auth/user': () => json(TEST_USER),
      // The logout call is slow: the provider stays mounted while the screen's chunk arrives.
      'POST /api/auth/logout': () =>
        new Promise<Response>((resolve) => {
          logoutAnswered = () => resolve(json({ message: 'Signed out' }));
        }),
    });
    const scope = { companyId: TEST_USER.companyId, userId: `${TEST_USER.id}-${Date.now()}` };
    const db = openSyncDb(scope);
    const started: string[] = [];
    const { engine } = fakeSyncEngine();
    engine.start = () => started.push('engine started');
    engine.stop = async () => {};
    function SignOut() {
      const { signOut, user } = useSession();
      return user ? <button onClick={() => void signOut()}>Sign Out</button> : null;
    }
    const { Lazy, load } = slowScreen(() => <h1>Dashboard</h1>);
    renderInApp(
      <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
        <SignOut />
        <Suspense fallback={<p>Loading...</p>}>
          <Lazy />
          <FirstScreenShown />
        </Suspense>
      </LocalDataProvider>,
    );
    (await screen.findByRole('button', { name: 'Sign Out' })).click();
    act(load);
    await screen.findByRole('heading', { name: 'Dashboard' });
    await frames(3);
    expect(started).toEqual([]);
    logoutAnswered();
    db.close();
  });

  it('the top bar asks for the notifications only once the first screen is shown', async () => {
    const { scope, db, asked } = deviceAskingForNotifications();
    // A device that has its data: only the first screen is waited for.
    await markFirstDownloadDone(db, Date.now() - 60_000);
    const { engine } = fakeSyncEngine();
    const { Lazy, load } = slowScreen(() => <h1>Dashboard</h1>);
    renderInApp(
      <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
        <SignedInTopBar />
        <Suspense fallback={<p>Loading...</p>}>
          <Lazy />
          <FirstScreenShown />
        </Suspense>
      </LocalDataProvider>,
    );
    await screen.findByRole('button', { name: 'Notifications' });
    await frames(3);
    expect(asked()).toBe(0);

    act(load);
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(asked()).toBe(1));
    db.close();
  });

  it('a new device asks for the notifications once, when its first download ends (not before it and again after it)', async () => {
    const { scope, db, asked } = deviceAskingForNotifications();
    const { engine, set } = fakeSyncEngine();
    renderInApp(
      <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
        <SignedInTopBar />
        <Suspense fallback={<p>Loading...</p>}>
          <h1>Projects</h1>
          <FirstScreenShown />
        </Suspense>
      </LocalDataProvider>,
    );
    await screen.findByRole('heading', { name: 'Projects' });
    // The download runs: the first page is in, the last is still coming.
    act(() => set({ pulling: true, rowsDownloaded: 1000 }));
    await frames(3);
    expect(asked()).toBe(0);

    // The last page is applied (the pull stores lastSyncedAt with it), then the cycle ends.
    act(() => set({ rowsDownloaded: 1323 }));
    await markFirstDownloadDone(db);
    act(() => set({ pulling: false, lastSyncedAt: Date.now() }));
    await waitFor(() => expect(asked()).toBe(1));
    await frames(3);
    expect(asked()).toBe(1);

    // A later pull that brings rows may bring a notification about them: asked again.
    act(() => set({ pulling: true }));
    act(() => set({ rowsDownloaded: 1325 }));
    act(() => set({ pulling: false }));
    await waitFor(() => expect(asked()).toBe(2));
    db.close();
  });
});

describe("the screens' clock", () => {
  it('takes the clock offset the last pull stored, at start and after each completed pull', async () => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    const scope = { companyId: TEST_USER.companyId, userId: `${TEST_USER.id}-${Date.now()}` };
    const db = openSyncDb(scope);
    const meta = await readMeta(db);
    await db.meta.put({ ...meta, clockOffsetMs: 3 * 86_400_000 });
    const { engine, set } = fakeSyncEngine();
    try {
      renderInApp(
        <LocalDataProvider scope={scope} db={db} createEngine={() => engine}>
          <p>Shell</p>
        </LocalDataProvider>,
      );
      await waitFor(() => expect(appNow().getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 5_000));
      // A later pull measured the phone's clock right again.
      await db.meta.put({ ...meta, clockOffsetMs: 120 });
      act(() => set({ lastSyncedAt: Date.now() }));
      await waitFor(() => expect(Math.abs(appNow().getTime() - Date.now())).toBeLessThan(5_000));
    } finally {
      setServerClockOffset(0);
      db.close();
    }
  });
});
