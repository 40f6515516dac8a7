import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { SyncIndicator } from '#web/features/sync-status/components/sync-indicator.tsx';
import { displayFirstName, initialsOf } from '#web/lib/session-user.ts';
import { useCurrentUser, useSession } from '../session.tsx';
import { MobileMenu } from './mobile-menu.tsx';
import { SignOutButton } from './sign-out-button.tsx';

export const PRODUCT_NAME = 'SiteCommand';

/** Company name (fallback: the product name), sync state, notifications, the user and Sign Out. */
export function TopBar() {
  const user = useCurrentUser();
  const { offline } = useSession();
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-slate-200 bg-white px-3 sm:gap-3 sm:px-5">
      <MobileMenu user={user} />
      <p
        className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900"
        data-testid="company-name"
      >
        {user.companyName || PRODUCT_NAME}
      </p>
      <SyncIndicator sessionOffline={offline} />
      <NotificationBell enabled={!offline} />
      <div className="flex items-center gap-2">
        <span
          className="flex h-8 w-8 items-center justify-center rounded-full bg-teal-700 text-xs font-semibold text-white"
          aria-hidden="true"
        >
          {initialsOf(user)}
        </span>
        <span className="hidden text-sm font-medium text-slate-800 sm:inline" data-testid="user-first-name">
          {displayFirstName(user)}
        </span>
      </div>
      <SignOutButton />
    </header>
  );
}
