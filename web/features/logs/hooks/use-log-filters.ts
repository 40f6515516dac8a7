import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LOG_DATE_FILTERS, NO_LOG_FILTERS, type LogFilters } from '#shared/rules/log-filters.ts';

/** The query-string key of each filter: a filtered view can be bookmarked and shared (DECISIONS.md). */
const PARAMS: Record<keyof LogFilters, string> = {
  search: 'q',
  projectId: 'project',
  type: 'type',
  status: 'status',
  date: 'date',
  start: 'start',
  end: 'end',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function readFilters(params: URLSearchParams): LogFilters {
  const get = (k: keyof LogFilters) => params.get(PARAMS[k]) ?? '';
  const date = get('date');
  return {
    search: get('search'),
    projectId: get('projectId') || 'all',
    type: get('type') || 'all',
    status: get('status') || 'all',
    date: LOG_DATE_FILTERS.find((d) => d === date) ?? 'all',
    start: DAY.test(get('start')) ? get('start') : '',
    end: DAY.test(get('end')) ? get('end') : '',
  };
}

/** The screen's filters, kept in the URL query; `set` merges a change, `clear` resets them all. */
export function useLogFilters(): {
  filters: LogFilters;
  set: (change: Partial<LogFilters>) => void;
  clear: () => void;
} {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const set = useCallback(
    (change: Partial<LogFilters>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          const merged = { ...readFilters(prev), ...change };
          for (const key of Object.keys(PARAMS) as (keyof LogFilters)[]) {
            const value = merged[key];
            if (value === NO_LOG_FILTERS[key]) next.delete(PARAMS[key]);
            else next.set(PARAMS[key], value);
          }
          return next;
        },
        // Typing in the search box must not add a history entry per keystroke.
        { replace: true },
      ),
    [setParams],
  );
  const clear = useCallback(() => set(NO_LOG_FILTERS), [set]);
  return { filters, set, clear };
}
