import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ScreenErrorBoundary } from '#web/components/screen-error-boundary.tsx';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { FirstScreenShown, LocalDataProvider } from './local-data.tsx';
import { useCurrentUser } from './session.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { ScreenPlaceholder, SignedInFrame } from './shell/frame.tsx';

/**
 * The signed-in part of the app, one lazy chunk: the user's local mirror and sync engine, the shell, and
 * the current screen. Keyed by user and company so a different user never reuses this one's database.
 */
export default function SignedInLayout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  return (
    <LocalDataProvider
      key={`${user.companyId}:${user.id}`}
      scope={{ companyId: user.companyId, userId: user.id }}
      fallback={<SignedInFrame user={user} />}
    >
      <TooltipProvider>
        <AppShell>
          <ScreenErrorBoundary resetKey={pathname}>
            <Suspense fallback={<ScreenPlaceholder user={user} />}>
              <Outlet />
              <FirstScreenShown />
            </Suspense>
          </ScreenErrorBoundary>
        </AppShell>
      </TooltipProvider>
    </LocalDataProvider>
  );
}
