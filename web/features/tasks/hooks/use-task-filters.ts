import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_TASK_FILTERS,
  filtersFromQuery,
  filtersToQuery,
  type TaskFilters,
} from '#shared/rules/task-filters.ts';

export type TaskView = 'canvas' | 'list';
export const CANVAS_TABS = ['overview', 'projects', 'administrative', 'general'] as const;
export type CanvasTab = (typeof CANVAS_TABS)[number];

export interface TaskViewState {
  filters: TaskFilters;
  view: TaskView;
  tab: CanvasTab;
  setFilters: (patch: Partial<TaskFilters>) => void;
  reset: () => void;
  setView: (view: TaskView) => void;
  setTab: (tab: CanvasTab) => void;
}

/**
 * The screen's filters, view and canvas tab, kept in the URL query (DECISIONS.md: a filtered view can be
 * bookmarked and shared). Typing replaces the history entry instead of adding one per keystroke.
 */
export function useTaskViewState(): TaskViewState {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromQuery(params), [params]);
  const view: TaskView = params.get('view') === 'canvas' ? 'canvas' : 'list';
  const tabParam = params.get('tab');
  const tab: CanvasTab = CANVAS_TABS.find((t) => t === tabParam) ?? 'overview';

  const setFilters = useCallback(
    (patch: Partial<TaskFilters>) =>
      setParams((prev) => filtersToQuery({ ...filtersFromQuery(prev), ...patch }, prev), {
        replace: true,
      }),
    [setParams],
  );
  const reset = useCallback(
    () => setParams((prev) => filtersToQuery(DEFAULT_TASK_FILTERS, prev), { replace: true }),
    [setParams],
  );
  const setKey = useCallback(
    (key: string, value: string, fallback: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === fallback) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setView = useCallback((v: TaskView) => setKey('view', v, 'list'), [setKey]);
  const setTab = useCallback((t: CanvasTab) => setKey('tab', t, 'overview'), [setKey]);
  return { filters, view, tab, setFilters, reset, setView, setTab };
}
