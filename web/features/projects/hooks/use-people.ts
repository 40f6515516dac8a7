import { useMemo } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import type { SyncDb } from '#sync/db.ts';
import { peopleOf, type People } from '../utils/assignee-name.ts';

/**
 * The company's people from the device's read-only `users` mirror (sync/SPEC.md L12): assignee and manager
 * names and the assignee choices, the same online, offline and after a cold start offline.
 */
export function usePeople(db: SyncDb): People {
  const users = useLiveQuery(() => db.users.toArray(), [db]);
  return useMemo(() => peopleOf(users ?? []), [users]);
}
