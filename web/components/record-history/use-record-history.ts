import { useQuery } from '@tanstack/react-query';
import type { SyncTable } from '#shared/sync-protocol.ts';
import type { RowHistory } from '#shared/sync-protocol.ts';
import { apiJson } from '#web/lib/api.ts';

export const recordHistoryKey = (table: SyncTable, rowId: string) =>
  ['/api/sync/history', table, rowId] as const;

/**
 * GET /api/sync/history for one synced record: read afresh each time the History opens (another device's
 * edit may have replaced a value since); the persisted query cache keeps the last copy for offline.
 */
export function useRecordHistory(table: SyncTable, rowId: string, enabled = true) {
  return useQuery({
    queryKey: recordHistoryKey(table, rowId),
    queryFn: () =>
      apiJson<RowHistory>('GET', `/api/sync/history?${new URLSearchParams({ table, rowId }).toString()}`),
    enabled,
    refetchOnMount: 'always',
  });
}
