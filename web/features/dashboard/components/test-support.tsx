import 'fake-indexeddb/auto';
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { TEST_USER } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { createQueryClient } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { writeTo } from '#web/features/projects/components/test-support.tsx';
import { DashboardScreen } from './dashboard-screen.tsx';

export {
  polyfillDom,
  pulledProject,
  pulledTask,
  testDb,
} from '#web/features/projects/components/test-support.tsx';
export { json, stubApi, TEST_USER } from '#web/app/test-utils.tsx';

/**
 * A crew member (no finance, cannot add projects) and a project manager (finance), as GET /api/auth/user
 * gives them.
 */
export const CREW: CurrentUser = {
  ...TEST_USER,
  grants: [
    'dashboard:view',
    'projects:read',
    'tasks:read',
    'tasks:create',
    'tasks:update',
    'photos:read',
    'photos:create',
  ],
};
export const MANAGER: CurrentUser = {
  ...TEST_USER,
  email: 'manager@summit.test',
  firstName: 'Morgan',
  role: 'manager',
  roleId: 2,
  permissions: { ...TEST_USER.permissions, subs: true, projectHealth: true },
  grants: [...CREW.grants, 'projects:create', 'finance:read', 'change_orders:approve'],
};

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** `ui` at `path` with the app's query client (the spec's calling convention), router and toasts. */
export function renderWithApp(
  db: SyncDb,
  ui: ReactNode,
  { path = '/dashboard', client = createQueryClient() }: { path?: string; client?: QueryClient } = {},
) {
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <StaticLocalData db={db}>
          <Routes>
            <Route path="*" element={ui} />
          </Routes>
          <LocationProbe />
          <Toaster />
        </StaticLocalData>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The dashboard on `db` as `user` at `now`, writing through the app's real write path. */
export function renderDashboard(
  db: SyncDb,
  { user = CREW, now, path, client }: { user?: CurrentUser; now: Date; path?: string; client?: QueryClient },
) {
  return renderWithApp(db, <DashboardScreen db={db} user={user} write={writeTo(db)} now={now} />, {
    path,
    client,
  });
}
