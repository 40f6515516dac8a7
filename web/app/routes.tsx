import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { PermissionFlags } from '#shared/permissions.ts';
import { AccessDenied } from '#web/components/access-denied.tsx';
import { FullScreenSpinner } from '#web/components/spinner.tsx';
import {
  APP_SCREENS,
  canOpenScreen,
  appScreenPath,
  isAppPath,
  loginPathFor,
  returnPathFrom,
  type AppScreenPath,
} from './app-paths.ts';
import { useCurrentUser, useSession } from './session.tsx';

// Each screen is its own chunk (DESIGN.md section 8: code-split per route).
const loadLanding = () => import('#web/features/landing/landing-page.tsx');
const loadSignIn = () => import('#web/features/auth/sign-in-page.tsx');
const loadSignedInLayout = () => import('./signed-in-layout.tsx');
const LandingPage = lazy(loadLanding);
const SignInPage = lazy(loadSignIn);
const ChangePasswordPage = lazy(() => import('#web/features/auth/change-password-page.tsx'));
const NotFoundPage = lazy(() => import('#web/features/not-found/not-found-page.tsx'));
const SignedInLayout = lazy(loadSignedInLayout);
/** The chunk of each screen, by path: loaded by its route, and early by preloadFirstScreen for the first one. */
const SCREEN_LOADERS = {
  '/dashboard': () => import('#web/features/dashboard/dashboard-page.tsx'),
  '/activity': () => import('#web/features/dashboard/activity-page.tsx'),
  '/projects': () => import('#web/features/projects/projects-page.tsx'),
  '/tasks': () => import('#web/features/tasks/tasks-page.tsx'),
  '/project-health': () => import('#web/features/project-health/project-health-page.tsx'),
  '/schedule': () => import('#web/features/schedule/schedule-page.tsx'),
  '/photos': () => import('#web/features/photos/photos-page.tsx'),
  '/logs': () => import('#web/features/logs/logs-page.tsx'),
  '/crew': () => import('#web/features/crew/crew-page.tsx'),
  '/subs': () => import('#web/features/subs/subs-page.tsx'),
  '/rbac': () => import('#web/features/rbac/rbac-page.tsx'),
  '/rbac-admin': () => import('#web/features/rbac/rbac-page.tsx'),
} satisfies Record<AppScreenPath, () => Promise<{ default: ComponentType }>>;
const ProjectsPage = lazy(SCREEN_LOADERS['/projects']);
const TasksPage = lazy(SCREEN_LOADERS['/tasks']);
const CrewPage = lazy(SCREEN_LOADERS['/crew']);
const SchedulePage = lazy(SCREEN_LOADERS['/schedule']);
const PhotosPage = lazy(SCREEN_LOADERS['/photos']);
const LogsPage = lazy(SCREEN_LOADERS['/logs']);
const SubsPage = lazy(SCREEN_LOADERS['/subs']);
const RbacPage = lazy(SCREEN_LOADERS['/rbac']);
const DashboardPage = lazy(SCREEN_LOADERS['/dashboard']);
const ActivityPage = lazy(SCREEN_LOADERS['/activity']);
const ProjectHealthPage = lazy(SCREEN_LOADERS['/project-health']);
// Lazy: it reads the device database, which the first route (sign-in, landing) must not download.
const FirstDownloadGate = lazy(() =>
  import('./first-download.tsx').then((m) => ({ default: m.FirstDownloadGate })),
);

/**
 * Starts loading the chunk the first screen will need while the session request is still in flight, so
 * the two round trips overlap: the landing page or sign-in for a visitor, the shell for a known user or
 * for an address of the app (a bookmark, a home-screen start after the device forgot its user).
 */
export function preloadFirstScreen(pathname: string, knownUser: boolean): void {
  if (pathname === '/login') void loadSignIn();
  else if (knownUser || isAppPath(pathname)) {
    void loadSignedInLayout();
    // The screen's own chunk too: otherwise it is asked for only once the shell has loaded and rendered.
    const screen = pathname === '/' ? '/dashboard' : appScreenPath(pathname);
    if (screen) void SCREEN_LOADERS[screen]();
  } else if (pathname === '/') void loadLanding();
}

export const SESSION_LOADING_TEXT = 'Loading your dashboard...';

function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullScreenSpinner label="Loading..." />}>{children}</Suspense>;
}

/**
 * A signed-out visit to a screen of the app (a bookmark, a shared link) goes to sign-in and comes back
 * afterwards (DECISIONS.md); any other address is the 404 page.
 */
function SignedOutFallback() {
  const location = useLocation();
  const { signedOutHere } = useSession();
  if (isAppPath(location.pathname)) {
    return <Navigate to={signedOutHere ? '/login' : loginPathFor(location)} replace />;
  }
  return (
    <main>
      <NotFoundPage />
    </main>
  );
}

function SignedOutRoutes() {
  return (
    <Screen>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/login" element={<SignInPage />} />
        <Route path="*" element={<SignedOutFallback />} />
      </Routes>
    </Screen>
  );
}

/** What each screen of APP_SCREENS renders; `mirror` screens read the device mirror and wait for its first download. */
const SCREEN_ELEMENTS: Record<AppScreenPath, { element: ReactNode; title: string; mirror?: boolean }> = {
  '/dashboard': { element: <DashboardPage />, title: 'Dashboard' },
  '/activity': { element: <ActivityPage />, title: 'Recent Activity' },
  '/projects': { element: <ProjectsPage />, title: 'Projects', mirror: true },
  '/tasks': { element: <TasksPage />, title: 'Tasks', mirror: true },
  '/project-health': { element: <ProjectHealthPage />, title: 'Project Health' },
  '/schedule': { element: <SchedulePage />, title: 'Schedule', mirror: true },
  '/photos': { element: <PhotosPage />, title: 'Photos', mirror: true },
  '/logs': { element: <LogsPage />, title: 'Project Logs', mirror: true },
  '/crew': { element: <CrewPage />, title: 'Crew', mirror: true },
  '/subs': { element: <SubsPage />, title: 'Subs', mirror: true },
  '/rbac': { element: <RbacPage />, title: 'RBAC Admin' },
  '/rbac-admin': { element: <RbacPage />, title: 'RBAC Admin' },
};

/** A route guard on the same permission flag as the screen's menu item (issue 9 item 9). */
function Guarded({
  flag,
  title,
  mirror,
  children,
}: {
  flag: keyof PermissionFlags;
  title: string;
  mirror?: boolean;
  children: ReactNode;
}) {
  const user = useCurrentUser();
  if (!canOpenScreen(user, flag)) {
    return (
      <AccessDenied
        reason={
          flag === 'rbacAdmin'
            ? 'RBAC Administration requires admin privileges.'
            : `Your role does not include the ${title} screen.`
        }
      />
    );
  }
  return mirror ? <FirstDownloadGate>{children}</FirstDownloadGate> : <>{children}</>;
}

/** /login when already signed in: on to where the link asked for, or the dashboard. */
function SignedInLogin() {
  const location = useLocation();
  return <Navigate to={returnPathFrom(location.search) ?? '/dashboard'} replace />;
}

function SignedInRoutes() {
  const dashboard = SCREEN_ELEMENTS['/dashboard'];
  return (
    <Screen>
      <Routes>
        <Route path="/login" element={<SignedInLogin />} />
        <Route element={<SignedInLayout />}>
          <Route
            index
            element={
              <Guarded flag="dashboard" title={dashboard.title}>
                {dashboard.element}
              </Guarded>
            }
          />
          {APP_SCREENS.map(({ path, flag }) => {
            const screen = SCREEN_ELEMENTS[path];
            return (
              <Route
                key={path}
                path={path.slice(1)}
                element={
                  <Guarded flag={flag} title={screen.title} mirror={screen.mirror}>
                    {screen.element}
                  </Guarded>
                }
              />
            );
          })}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Screen>
  );
}

/** The route table: public pages when signed out, the app shell when signed in (spec 01/02 section 2). */
export function AppRoutes() {
  const { status, user } = useSession();
  if (status === 'loading') return <FullScreenSpinner label={SESSION_LOADING_TEXT} />;
  if (status === 'unauthenticated' || !user) return <SignedOutRoutes />;
  if (user.mustChangePassword) {
    return (
      <Screen>
        <ChangePasswordPage />
      </Screen>
    );
  }
  return <SignedInRoutes />;
}
