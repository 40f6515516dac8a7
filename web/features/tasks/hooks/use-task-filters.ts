import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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

/** How long typing pauses before the search reaches the URL. */
export const SEARCH_URL_DELAY_MS = 300;

/**
 * The screen's filters, view and canvas tab, kept in the URL query (DECISIONS.md: a filtered view can be
 * bookmarked and shared). Typing replaces the history entry instead of adding one per keystroke, and the
 * typed search filters at once but reaches the URL once typing pauses: a URL change re-renders everything
 * that reads the location (the shell's navigation too), which a keystroke over 10,000 tasks cannot afford.
 */
export function useTaskViewState(): TaskViewState {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => filtersFromQuery(params), [params]);
  const [search, setSearch] = useState(fromUrl.search);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typed = useRef(search);
  typed.current = search;
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancel, []);
  // Searches this screen wrote to the URL and has not seen land yet: on a slow device an earlier write can
  // land after a later keystroke, and following it would put an old word back in the box.
  const ours = useRef(new Set<string>());
  // The URL changed by other means (a bookmark, back): the box follows it.
  useEffect(() => {
    const q = fromUrl.search;
    if (ours.current.has(q)) {
      if (q === typed.current) ours.current.clear();
      return;
    }
    cancel();
    typed.current = q;
    setSearch(q);
  }, [fromUrl.search]);
  const filters = useMemo(() => ({ ...fromUrl, search }), [fromUrl, search]);
  const view: TaskView = params.get('view') === 'canvas' ? 'canvas' : 'list';
  const tabParam = params.get('tab');
  const tab: CanvasTab = CANVAS_TABS.find((t) => t === tabParam) ?? 'overview';

  const write = useCallback(
    (patch: Partial<TaskFilters>) => {
      const search = patch.search ?? typed.current;
      ours.current.add(search);
      setParams((prev) => filtersToQuery({ ...filtersFromQuery(prev), ...patch, search }, prev), {
        replace: true,
      });
    },
    [setParams],
  );
  const setFilters = useCallback(
    (patch: Partial<TaskFilters>) => {
      cancel();
      if (patch.search !== undefined) {
        const next = patch.search;
        setSearch(next);
        typed.current = next;
        if (Object.keys(patch).length === 1) {
          timer.current = setTimeout(() => {
            timer.current = null;
            write({});
          }, SEARCH_URL_DELAY_MS);
          return;
        }
      }
      write(patch);
    },
    [write],
  );
  const reset = useCallback(() => {
    cancel();
    setSearch('');
    typed.current = '';
    ours.current.add('');
    setParams((prev) => filtersToQuery(DEFAULT_TASK_FILTERS, prev), { replace: true });
  }, [setParams]);
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
