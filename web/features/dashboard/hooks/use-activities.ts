import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiJson } from '#web/lib/api.ts';
import { PERSISTED } from '#web/lib/query-persist.ts';

/** GET /api/activities (spec 01 section 3), newest first. */
export interface Activity {
  id: string;
  action_type: string;
  first_name: string | null;
  email: string | null;
  description: string | null;
  created_at: string;
}

/** Recent Activity shows the first 5 (spec 01 section 9): only those are asked for. */
export const RECENT_ACTIVITY_LIMIT = 5;
export const RECENT_ACTIVITY_KEY = [`/api/activities?limit=${RECENT_ACTIVITY_LIMIT}`] as const;

/** The full list's page size. */
export const ACTIVITY_PAGE_SIZE = 50;
export const ACTIVITY_LIST_KEY = [`/api/activities?limit=${ACTIVITY_PAGE_SIZE}`] as const;

/**
 * Recent Activity: an office read (TanStack Query, the URL as the key), kept per user (`PERSISTED`) so the
 * dashboard opened offline shows the last answer with its time. A 401 answers null: read as empty.
 */
export function useRecentActivity() {
  return useQuery<Activity[] | null>({ queryKey: RECENT_ACTIVITY_KEY, meta: PERSISTED });
}

interface Cursor {
  before: string;
  beforeId: string;
}

/** The page after `page`: older than its last row (its id breaks ties of the same instant). */
function nextCursor(page: Activity[] | null): Cursor | undefined {
  const last = page?.[page.length - 1];
  if (!page || page.length < ACTIVITY_PAGE_SIZE || !last) return undefined;
  return { before: last.created_at, beforeId: last.id };
}

/** The full activity list behind 'View all' (DECISIONS.md), newest first, a page at a time. */
export function useActivityPages() {
  return useInfiniteQuery({
    queryKey: ACTIVITY_LIST_KEY,
    meta: PERSISTED,
    initialPageParam: undefined as Cursor | undefined,
    queryFn: ({ pageParam }) => {
      const url = new URL(ACTIVITY_LIST_KEY[0], 'http://local.invalid');
      if (pageParam) {
        url.searchParams.set('before', pageParam.before);
        url.searchParams.set('beforeId', pageParam.beforeId);
      }
      return apiJson<Activity[] | null>('GET', `${url.pathname}${url.search}`);
    },
    getNextPageParam: nextCursor,
  });
}
