import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFirstDownloadDone, useSyncStatus } from '#web/app/local-data.tsx';
import { apiRequest } from '#web/lib/api.ts';

/** A notification as the panel reads it (spec 02 section 3). */
export interface Notification {
  id: string;
  title: string;
  message: string;
  type: string;
  isRead: boolean;
  createdAt: string;
}

export const NOTIFICATIONS_KEY = ['/api/notifications'] as const;

/**
 * The session user's notifications (the server ignores any userId and uses the session). On a new device
 * they wait for the first download: its end refetches them (below), so asking before it asked twice.
 */
export function useNotifications(enabled = true) {
  const downloaded = useFirstDownloadDone() === true;
  const ready = enabled && downloaded;
  const query = useQuery<Notification[] | null>({ queryKey: NOTIFICATIONS_KEY, enabled: ready });
  useRefetchAfterPull(ready);
  return query;
}

/**
 * A pull that brought other people's changes may come with a notification about them: a value of this
 * user's that a later edit replaced is announced (sync/SPEC.md W11) while the user looks at the screen,
 * not only when the panel is next opened. Refetched once a pull ends, never per page.
 */
function useRefetchAfterPull(enabled: boolean) {
  const qc = useQueryClient();
  const { rowsDownloaded, pulling } = useSyncStatus();
  const seen = useRef(rowsDownloaded);
  useEffect(() => {
    // Rows that came before the list was first asked for are in its first answer.
    if (!enabled) seen.current = rowsDownloaded;
    if (!enabled || pulling || rowsDownloaded <= seen.current) return;
    seen.current = rowsDownloaded;
    void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  }, [enabled, pulling, rowsDownloaded, qc]);
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
