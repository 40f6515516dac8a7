import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullScreenSpinner } from '#web/components/spinner.tsx';
import { useSession } from './session.tsx';
import type { PlaceholderKey } from '#web/features/placeholder/screens.ts';

// Each screen is its own chunk (DESIGN.md section 8: code-split per route).
const loadLanding = () => import('#web/features/landing/landing-page.tsx');
const loadSignIn = () => import('#web/features/auth/sign-in-page.tsx');
const loadSignedInLayout = () => import('./signed-in-layout.tsx');
const LandingPage = lazy(loadLanding);
const SignInPage = lazy(loadSignIn);
const ChangePasswordPage = lazy(() => import('#web/features/auth/change-password-page.tsx'));
const NotFoundPage = lazy(() => import('#web/features/not-found/not-found-page.tsx'));
const SignedInLayout = lazy(loadSignedInLayout);
const ProjectsPage = lazy(() => import('#web/features/projects/projects-page.tsx'));
const PlaceholderPage = lazy(() => import('#web/features/placeholder/placeholder-page.tsx'));

/**
 * Starts loading the chunk the first screen will need while the session request is still in flight, so
 * the two round trips overlap: the landing page or sign-in for a visitor, the shell for a known user.
 */
export function preloadFirstScreen(pathname: string, knownUser: boolean): void {
  if (pathname === '/login') void loadSignIn();
  else if (knownUser) void loadSignedInLayout();
  else if (pathname === '/') void loadLanding();
}

export const SESSION_LOADING_TEXT = 'Loading your dashboard...';

function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullScreenSpinner label="Loading..." />}>{children}</Suspense>;
}

function SignedOutRoutes() {
  return (
    <Screen>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/login" element={<SignInPage />} />
        <Route
          path="*"
          element={
            <main>
              <NotFoundPage />
            </main>
          }
        />
      </Routes>
    </Screen>
  );
}

function placeholder(key: PlaceholderKey) {
  return <PlaceholderPage screen={key} />;
}

function SignedInRoutes() {
  return (
    <Screen>
      <Routes>
        <Route path="/login" element={<Navigate to="/dashboard" replace />} />
        <Route element={<SignedInLayout />}>
          <Route index element={placeholder('dashboard')} />
          <Route path="dashboard" element={placeholder('dashboard')} />
          <Route path="projects" element={<ProjectsPage />} />
          <Route path="tasks" element={placeholder('tasks')} />
          <Route path="project-health" element={placeholder('projectHealth')} />
          <Route path="schedule" element={placeholder('schedule')} />
          <Route path="photos" element={placeholder('photos')} />
          <Route path="logs" element={placeholder('logs')} />
          <Route path="crew" element={placeholder('crew')} />
          <Route path="subs" element={placeholder('subs')} />
          <Route path="rbac" element={placeholder('rbacAdmin')} />
          <Route path="rbac-admin" element={placeholder('rbacAdmin')} />
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
