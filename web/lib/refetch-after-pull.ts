import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useOptionalSyncStatus } from '#web/app/local-data.tsx';

/**
 * Refetches server lists (`keys`) once a pull that brought rows has ended, never per page: a screen that
 * reads the server, not the device's mirror, follows other people's changes as the mirror's screens do
 * (the notifications a replaced value raises; the Financial Health tab's projects beside the Overview's).
 */
export function useRefetchAfterPull(enabled: boolean, keys: readonly QueryKey[]) {
  const qc = useQueryClient();
  const { rowsDownloaded, pulling } = useOptionalSyncStatus();
  const seen = useRef(rowsDownloaded);
  const keysRef = useRef(keys);
  keysRef.current = keys;
  useEffect(() => {
    // Rows that came before the list was first asked for are in its first answer.
    if (!enabled) seen.current = rowsDownloaded;
    if (!enabled || pulling || rowsDownloaded <= seen.current) return;
    seen.current = rowsDownloaded;
    for (const queryKey of keysRef.current) void qc.invalidateQueries({ queryKey });
  }, [enabled, pulling, rowsDownloaded, qc]);
}
