import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { SyncIndicator } from '#web/features/sync-status/components/sync-indicator.tsx';
import { useFirstScreenShown } from '../local-data.tsx';
import { useCurrentUser, useSession } from '../session.tsx';
import { TopBarFrame } from './frame.tsx';
import { MobileMenu } from './mobile-menu.tsx';
import { SignOutButton } from './sign-out-button.tsx';

/** Company name (fallback: the product name), sync state, notifications, the user and Sign Out. */
export function TopBar() {
  const user = useCurrentUser();
  const { offline } = useSession();
  // The bell's list waits for the first screen, as the sync engine does: it is not what the user came for.
  const screenShown = useFirstScreenShown();
  return (
    <TopBarFrame
      user={user}
      menu={<MobileMenu user={user} />}
      controls={
        <>
          <SyncIndicator sessionOffline={offline} />
          <NotificationBell enabled={!offline && screenShown} />
        </>
      }
      end={<SignOutButton />}
    />
  );
}
