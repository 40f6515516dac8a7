import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFirstDownloadDone } from '#web/app/local-data.tsx';
import { apiRequest } from '#web/lib/api.ts';
import { PERSISTED } from '#web/lib/query-persist.ts';
import { useRefetchAfterPull } from '#web/lib/refetch-after-pull.ts';

/** A notification as the panel reads it (spec 02 section 3). */
export interface Notification {
  id: string;
  title: string;
  message: string;
  type: string;
  isRead: boolean;
  createdAt: string;
  /** What it is about (`notificationTarget` leads there). */
  relatedEntityType?: string | null;
  relatedEntityId?: string | null;
}

export const NOTIFICATIONS_KEY = ['/api/notifications'] as const;

/**
 * The session user's notifications (the server ignores any userId and uses the session). On a new device
 * they wait for the first download: its end refetches them (below), so asking before it asked twice.
 */
export function useNotifications(enabled = true) {
  const downloaded = useFirstDownloadDone() === true;
  const ready = enabled && downloaded;
  // Kept per user (`PERSISTED`): opened offline, the panel shows the last list and its unread count
  // instead of "Notifications need a connection".
  const query = useQuery<Notification[] | null>({
    queryKey: NOTIFICATIONS_KEY,
    enabled: ready,
    meta: PERSISTED,
  });
  // A value of this user's that a later edit replaced is announced (sync/SPEC.md W11) with the pull that
  // brings the edit, while the user looks at the screen, not only when the panel is next opened.
  useRefetchAfterPull(ready, [NOTIFICATIONS_KEY]);
  return query;
}

function setAllRead(list: Notification[] | null | undefined, id?: string) {
  return list?.map((n) => (id === undefined || n.id === id ? { ...n, isRead: true } : n)) ?? list;
}

/** PATCH /api/notifications/{id}/read, shown at once and refetched afterwards. */
export function useMarkNotificationRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('PATCH', `/api/notifications/${encodeURIComponent(id)}/read`),
    onMutate: (id) => {
      qc.setQueryData<Notification[] | null>(NOTIFICATIONS_KEY, (list) => setAllRead(list, id));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

/** PATCH /api/notifications/mark-all-read. */
export function useMarkAllNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('PATCH', '/api/notifications/mark-all-read'),
    onMutate: () => {
      qc.setQueryData<Notification[] | null>(NOTIFICATIONS_KEY, (list) => setAllRead(list));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
