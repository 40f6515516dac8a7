import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { SyncIndicator } from '#web/features/sync-status/components/sync-indicator.tsx';
import { displayFirstName, initialsOf } from '#web/lib/session-user.ts';
import { useFirstScreenShown } from '../local-data.tsx';
import { useCurrentUser, useSession } from '../session.tsx';
import { MobileMenu } from './mobile-menu.tsx';
import { SignOutButton } from './sign-out-button.tsx';

export const PRODUCT_NAME = 'SiteCommand';

/** Company name (fallback: the product name), sync state, notifications, the user and Sign Out. */
export function TopBar() {
  const user = useCurrentUser();
  const { offline } = useSession();
  // The bell's list waits for the first screen, as the sync engine does: it is not what the user came for.
  const screenShown = useFirstScreenShown();
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-1 border-b border-slate-200 bg-white px-2 sm:gap-3 sm:px-5">
      <MobileMenu user={user} />
      {/* On a phone the name may take two lines rather than be cut ("Summit Buil..."). */}
      <p
        className="line-clamp-2 min-w-0 flex-1 text-sm leading-tight font-semibold break-words text-slate-900 sm:truncate sm:text-base"
        data-testid="company-name"
      >
        {user.companyName || PRODUCT_NAME}
      </p>
      <SyncIndicator sessionOffline={offline} />
      <NotificationBell enabled={!offline && screenShown} />
      {/* Spec 02 section 2: initials and first name; stacked on a phone so both fit. */}
      <div className="flex max-w-20 min-w-0 flex-col items-center gap-0.5 sm:max-w-none sm:flex-row sm:gap-2">
        <span
          className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-teal-700 text-xs font-semibold text-white"
          aria-hidden="true"
        >
          {initialsOf(user)}
        </span>
        <span
          className="max-w-full truncate text-xs font-medium text-slate-800 sm:text-sm"
          data-testid="user-first-name"
        >
          {displayFirstName(user)}
        </span>
      </div>
      <SignOutButton />
    </header>
  );
}
