import { useEffect, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SyncDb } from '#sync/db.ts';
import { displayName, mergeManagers, type Manager } from '../utils/assignee-name.ts';

const cacheKey = (db: SyncDb) => `sitecommand:managers:${db.scope.companyId}:${db.scope.userId}`;

function readCache(db: SyncDb): Manager[] {
  try {
    const raw = localStorage.getItem(cacheKey(db));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter((m): m is Manager => typeof m?.id === 'string' && typeof m?.name === 'string')
      : [];
  } catch {
    return [];
  }
}

/**
 * The manager lookup of spec 01 section 2: names from the device's read-only users mirror (works offline),
 * filled in from `GET /api/users/managers` when it has answered, else from the last answer kept on this
 * device for this user, so a cold start offline still names assignees.
 */
export function useManagerLookup(db: SyncDb, server: readonly Manager[] | undefined): Map<string, string> {
  const mirror = useLiveQuery(
    async () => (await db.users.toArray()).map((u) => ({ id: u.id, name: displayName(u) })),
    [db],
  );
  useEffect(() => {
    if (!server) return;
    try {
      localStorage.setItem(cacheKey(db), JSON.stringify(server.map(({ id, name }) => ({ id, name }))));
    } catch {
      // storage full or denied: the lookup still works online
    }
  }, [db, server]);
  return useMemo(() => mergeManagers(mirror, server ?? readCache(db)), [db, mirror, server]);
}

/** The assignee choices of the task form, by name. */
export function managerOptions(managers: ReadonlyMap<string, string>): Manager[] {
  return [...managers].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}
