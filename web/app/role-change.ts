import { sidebarItems } from './shell/nav-items.ts';
import type { SessionUser } from '#web/lib/session-user.ts';

/**
 * What a user can no longer do after their role changed, in words for a toast, or null when they lost
 * nothing: the screens they can no longer open by name, else that some actions are gone.
 */
export function roleChangeNotice(
  before: Pick<SessionUser, 'permissions' | 'grants'>,
  after: Pick<SessionUser, 'permissions' | 'grants'>,
): string | null {
  const kept = new Set(sidebarItems(after.permissions).map((item) => item.label));
  const screens = sidebarItems(before.permissions)
    .map((item) => item.label)
    .filter((label) => !kept.has(label));
  if (screens.length > 0) return `You can no longer open ${screens.join(', ')}.`;
  const granted = new Set(after.grants);
  return before.grants.some((g) => !granted.has(g)) ? 'Some actions are no longer available to you.' : null;
}
