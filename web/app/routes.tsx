import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { PermissionFlags } from '#shared/permissions.ts';
import { AccessDenied } from '#web/components/access-denied.tsx';
import { ScreenErrorBoundary } from '#web/components/screen-error-boundary.tsx';
import { FullScreenSpinner } from '#web/components/spinner.tsx';
import { afterFirstContentfulPaint } from '#web/lib/after-paint.ts';
import { loadLocaleDataWhenIdle } from '#web/lib/locale-data.ts';
import { preloadable, type Preloadable } from '#web/lib/preloadable.ts';
import {
  APP_SCREENS,
  canOpenScreen,
  isAppPath,
  loginPathFor,
  returnPathFrom,
  signedInScreenAt,
  type AppScreenPath,
} from './app-paths.ts';
import { RouteTitle } from './route-title.tsx';
import { useCurrentUser, useSession } from './session.tsx';
import { SignedInFrame } from './shell/frame.tsx';
import { CurrentScreenFrame } from './shell/screen-frames.tsx';

// Each screen is its own chunk (DESIGN.md section 8: code-split per route).
const landing = preloadable(() => import('#web/features/landing/landing-page.tsx'));
const signIn = preloadable(() => import('#web/features/auth/sign-in-page.tsx'));
const signedInLayout = preloadable(() => import('./signed-in-layout.tsx'));
const LandingPage = landing.lazy();
const SignInPage = signIn.lazy();
const ChangePasswordPage = lazy(() => import('#web/features/auth/change-password-page.tsx'));
const NotFoundPage = lazy(() => import('#web/features/not-found/not-found-page.tsx'));
/** The chunk of each screen, by path: loaded by its route, and early by preloadFirstScreen for the first one. */
const SCREENS_CODE = {
  '/dashboard': preloadable(() => import('#web/features/dashboard/dashboard-page.tsx')),
  '/activity': preloadable(() => import('#web/features/dashboard/activity-page.tsx')),
  '/projects': preloadable(() => import('#web/features/projects/projects-page.tsx')),
  '/tasks': preloadable(() => import('#web/features/tasks/tasks-page.tsx')),
  '/project-health': preloadable(() => import('#web/features/project-health/project-health-page.tsx')),
  '/schedule': preloadable(() => import('#web/features/schedule/schedule-page.tsx')),
  '/photos': preloadable(() => import('#web/features/photos/photos-page.tsx')),
  '/logs': preloadable(() => import('#web/features/logs/logs-page.tsx')),
  '/crew': preloadable(() => import('#web/features/crew/crew-page.tsx')),
  '/subs': preloadable(() => import('#web/features/subs/subs-page.tsx')),
  '/rbac': preloadable(() => import('#web/features/rbac/rbac-page.tsx')),
  '/rbac-admin': preloadable(() => import('#web/features/rbac/rbac-page.tsx')),
} satisfies Record<AppScreenPath, Preloadable>;
const SCREEN_PAGES = {} as Record<AppScreenPath, LazyExoticComponent<ComponentType>>;
for (const path of Object.keys(SCREENS_CODE) as AppScreenPath[])
  SCREEN_PAGES[path] = SCREENS_CODE[path].lazy();
// Lazy: it reads the device database, which the first route (sign-in, landing) must not download.
const FirstDownloadGate = lazy(() =>
  import('./first-download.tsx').then((m) => ({ default: m.FirstDownloadGate })),
);

/**
 * Starts loading the chunk the first screen will need while the session request is still in flight, so
 * the two round trips overlap: the landing page or sign-in for a visitor; the shell when the page runs
 * from the service worker's cache, which holds it (a home-screen start, a returning device). Otherwise
 * the shell is downloaded once the app's frame has painted (signedInCodeAfterFirstPaint).
 */
export function preloadFirstScreen(
  pathname: string,
  { knownUser, codeOnDevice }: { knownUser: boolean; codeOnDevice: boolean },
): Promise<unknown> | null {
  if (pathname === '/login') return signIn.preload();
  if (knownUser || isAppPath(pathname)) return codeOnDevice ? loadSignedInCode(pathname) : null;
  if (pathname === '/') return landing.preload();
  return null;
}

function preloadScreen(pathname: string): Promise<unknown> | null {
  // The screen's own chunk too: otherwise it is asked for only once the shell has loaded and rendered.
  const screen = signedInScreenAt(pathname);
  return screen ? SCREENS_CODE[screen].preload() : null;
}

function loadSignedInCode(pathname: string): Promise<unknown> {
  return Promise.all([signedInLayout.preload(), preloadScreen(pathname)]);
}

/**
 * On a first visit the signed-in code (about 130 KiB) is asked for once the app's frame has shown its
 * first content: on a slow phone network those downloads would otherwise share the link with what that
 * paint needs (budget B10: nothing the first paint does not need comes before it).
 */
let afterFrame: Promise<void> | null = null;
function signedInCodeAfterFirstPaint(pathname: string): Promise<void> {
  return (afterFrame ??= new Promise<void>((resolve) => {
    afterFirstContentfulPaint(resolve);
  }).then(() => {
    void loadSignedInCode(pathname).catch(() => {});
    // While that code downloads: it would otherwise load the locale data as it is evaluated.
    loadLocaleDataWhenIdle();
  }));
}

const SignedInLayout = signedInLayout.lazy(() => afterFrame ?? signedInLayout.preload());

/** The signed-in layout, with the frame (the Suspense fallback around it) showing until its code is in. */
function SignedInCode() {
  const { pathname } = useLocation();
  if (!signedInLayout.requested) void signedInCodeAfterFirstPaint(pathname);
  return <SignedInLayout />;
}

export const SESSION_LOADING_TEXT = 'Loading your dashboard...';

function Screen({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // The signed-in shell has its own boundary per screen; this one catches what fails outside it.
  return (
    <ScreenErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullScreenSpinner label="Loading..." />}>{children}</Suspense>
    </ScreenErrorBoundary>
  );
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

/** The title of each screen of APP_SCREENS; `mirror` screens read the device mirror and wait for its first download. */
const SCREENS: Record<AppScreenPath, { title: string; mirror?: boolean }> = {
  '/dashboard': { title: 'Dashboard' },
  '/activity': { title: 'Recent Activity' },
  '/projects': { title: 'Projects', mirror: true },
  '/tasks': { title: 'Tasks', mirror: true },
  '/project-health': { title: 'Project Health' },
  '/schedule': { title: 'Schedule', mirror: true },
  '/photos': { title: 'Photos', mirror: true },
  '/logs': { title: 'Project Logs', mirror: true },
  '/crew': { title: 'Crew', mirror: true },
  '/subs': { title: 'Subs', mirror: true },
  '/rbac': { title: 'RBAC Admin' },
  '/rbac-admin': { title: 'RBAC Admin' },
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
  return mirror ? <FirstDownloadGate frame={GateFrame}>{children}</FirstDownloadGate> : <>{children}</>;
}

function GateFrame({ children }: { children: ReactNode }) {
  return <CurrentScreenFrame user={useCurrentUser()}>{children}</CurrentScreenFrame>;
}

/** /login when already signed in: on to where the link asked for, or the dashboard. */
function SignedInLogin() {
  const location = useLocation();
  return <Navigate to={returnPathFrom(location.search) ?? '/dashboard'} replace />;
}

function SignedInRoutes() {
  const DashboardPage = SCREEN_PAGES['/dashboard'];
  const user = useCurrentUser();
  return (
    <Screen>
      <Routes>
        <Route path="/login" element={<SignedInLogin />} />
        <Route
          element={
            // The app's frame (and the Dashboard's greeting) while the signed-in code loads, not a blank page.
            <Suspense fallback={<SignedInFrame user={user} />}>
              <SignedInCode />
            </Suspense>
          }
        >
          <Route
            index
            element={
              <Guarded flag="dashboard" title={SCREENS['/dashboard'].title}>
                <DashboardPage />
              </Guarded>
            }
          />
          {APP_SCREENS.map(({ path, flag }) => {
            const screen = SCREENS[path];
            const Page = SCREEN_PAGES[path];
            return (
              <Route
                key={path}
                path={path.slice(1)}
                element={
                  <Guarded flag={flag} title={screen.title} mirror={screen.mirror}>
                    <Page />
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
/** The name of the screen at an address, for the tab's title: signed in or not. */
function screenTitle(signedIn: boolean, pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/login') return 'Sign in';
  if (path === '/') return signedIn ? SCREENS['/dashboard'].title : null;
  if (path in SCREENS) return SCREENS[path as AppScreenPath].title;
  return 'Page not found';
}

export function AppRoutes() {
  const { status, user } = useSession();
  const signedIn = status === 'authenticated' && !!user;
  return (
    <>
      <RouteTitle titleOf={(pathname) => (status === 'loading' ? null : screenTitle(signedIn, pathname))} />
      <SessionRoutes />
    </>
  );
}

function SessionRoutes() {
  const { status, user, signingOut } = useSession();
  if (status === 'loading') return <FullScreenSpinner label={SESSION_LOADING_TEXT} />;
  if (status === 'unauthenticated' || !user) return <SignedOutRoutes />;
  // The frame alone while the logout call is out: no screen is left to ask under the ending session.
  if (signingOut) return <SignedInFrame user={user} />;
  if (user.mustChangePassword) {
    return (
      <Screen>
        <ChangePasswordPage />
      </Screen>
    );
  }
  return <SignedInRoutes />;
}
