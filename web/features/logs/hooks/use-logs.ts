import { appNow } from '#web/lib/app-clock.ts';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { logFilterPredicate, type LogFilters } from '#shared/rules/log-filters.ts';
import type { ProjectLogRow, ProjectRow, SyncDb } from '#sync/db.ts';

export interface LogPage {
  logs: ProjectLogRow[];
  /** More logs match than the page shows. */
  more: boolean;
}

/**
 * One page of the logs the filters keep, newest first: walks the createdAt index backwards and stops once
 * `limit` + 1 match, so a company with 50,000 logs never loads them all. Undefined while the first read runs.
 */
export function useLogPage(
  db: SyncDb,
  filters: LogFilters,
  timeZone: string,
  limit: number,
): LogPage | undefined {
  return useLiveQuery(async () => {
    const keep = logFilterPredicate(filters, appNow(), timeZone);
    const rows = await db.project_logs
      .orderBy('createdAt')
      .reverse()
      .filter((log) => keep(log))
      .limit(limit + 1)
      .toArray();
    return { logs: rows.slice(0, limit), more: rows.length > limit };
  }, [db, filters, timeZone, limit]);
}

/** Every project on the device (a company has few), by name, or undefined while the first read runs. */
export function useProjectChoices(db: SyncDb): ProjectRow[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db.projects.toArray();
    return rows.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
  }, [db]);
}
