import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { readMeta, type SyncDb } from '#sync/db.ts';
import type { SyncEngine, SyncStatus } from '#sync/engine.ts';
import { Toaster } from '#web/components/ui/toast.tsx';
import { createQueryClient } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/session-user.ts';
import { SessionProvider } from './session.tsx';

export const TEST_USER: SessionUser = {
  id: '0195a0a0-0000-7000-8000-0000000000a1',
  email: 'crew@summit.test',
  firstName: 'Casey',
  lastName: 'Rivera',
  name: 'Casey Rivera',
  role: 'crew',
  roleId: 3,
  companyId: '0195a0a0-0000-7000-8000-0000000000c0',
  companyName: 'Summit Builders',
  companyTimeZone: 'UTC',
  mustChangePassword: false,
  permissions: {
    dashboard: true,
    projects: true,
    tasks: true,
    projectHealth: false,
    schedule: true,
    photos: true,
    logs: true,
    crew: true,
    subs: false,
    rbacAdmin: false,
  },
  grants: [],
};

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response>;

/** Stubs `fetch` with a handler per "METHOD /path" (unknown calls answer 404). Returns the mock. */
export function stubApi(handlers: Record<string, Handler>) {
  const fn = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${new URL(url, 'http://localhost').pathname}`;
    const handler = handlers[key];
    if (!handler) return new Response('{"message":"Not found"}', { status: 404 });
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders `ui` at `path` inside the app's providers (query client, router, session, toasts). */
export function renderInApp(
  ui: ReactNode,
  { path = '/', client = createQueryClient() }: { path?: string; client?: QueryClient } = {},
) {
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          <Routes>
            <Route path="*" element={ui} />
          </Routes>
          <LocationProbe />
          <Toaster />
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A sync engine that does nothing but hold a status the test sets (`set` notifies subscribers). */
/** Marks a device database's first download done at `at` (what a pull that reached the end stores). */
export async function markFirstDownloadDone(db: SyncDb, at = Date.now()): Promise<void> {
  await db.meta.put({ ...(await readMeta(db)), lastSyncedAt: at });
}

export function fakeSyncEngine(initial: Partial<SyncStatus> = {}) {
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

/** jsdom lacks a few browser APIs Radix and photo previews use (pointer capture, scrolling into view,
 * ResizeObserver, object URLs). */
export function polyfillDom(): void {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
  const g = globalThis as unknown as Record<string, unknown>;
  g.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  const u = URL as unknown as Record<string, unknown>;
  u.createObjectURL ??= () => 'blob:preview';
  u.revokeObjectURL ??= () => {};
}

/**
 * A browser's paint timeline (PerformanceObserver and performance.getEntriesByName for 'paint'): entries
 * appear when the test says the page painted. Returns `paint(name)`.
 */
export function stubPaintTimeline() {
  const observers = new Set<(names: string[]) => void>();
  const painted: string[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    constructor(private readonly cb: (list: { getEntriesByName(n: string): unknown[] }) => void) {}
    observe() {
      const notify = (names: string[]) =>
        this.cb({ getEntriesByName: (n: string) => names.filter((x) => x === n) });
      observers.add(notify);
      if (painted.length) notify(painted);
    }
    disconnect() {
      observers.clear();
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.spyOn(performance, 'getEntriesByName').mockImplementation(
    (name: string) => painted.filter((x) => x === name) as unknown as PerformanceEntryList,
  );
  return (name: string) => {
    painted.push(name);
    for (const o of [...observers]) o([name]);
  };
}
