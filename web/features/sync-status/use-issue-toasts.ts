import { useEffect } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { useSyncDb } from '#web/app/local-data.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { loadIssueNames } from './issue-names.ts';
import { issueToast } from './issue-text.ts';

/** Where this device remembers the newest Sync issue it has announced (per user database). */
export const toastedKey = (dbName: string) => `sitecommand-issues-toasted:${dbName}`;

/**
 * A toast, once, when the server refuses a change or keeps someone else's value (issue 9 item 5): the
 * newest announced issue id is kept in localStorage, so a reload, a second tab or a change refused while
 * the app was closed is announced exactly once. On a device's first run nothing older is announced.
 */
export function useIssueToasts(): void {
  const db = useSyncDb();
  const latest = useLiveQuery(
    async () => ({ id: (await db.syncIssues.orderBy(':id').lastKey()) ?? 0 }),
    [db],
  );
  useEffect(() => {
    if (!latest) return;
    const key = toastedKey(db.name);
    const stored = Number(localStorage.getItem(key) ?? Number.NaN);
    const newest = Number(latest.id);
    if (!Number.isFinite(stored) || newest <= stored) {
      if (!Number.isFinite(stored) || newest < stored) localStorage.setItem(key, String(newest));
      return;
    }
    localStorage.setItem(key, String(newest));
    void (async () => {
      const fresh = await db.syncIssues.where(':id').above(stored).toArray();
      if (fresh.length === 0) return;
      const names = await loadIssueNames(db, fresh);
      toast({
        ...issueToast(fresh, (i) => (i.id === undefined ? null : (names.record.get(i.id) ?? null))),
        variant: fresh.some((i) => i.kind !== 'conflict') ? 'destructive' : 'default',
      });
    })().catch(() => {});
  }, [latest, db]);
}
