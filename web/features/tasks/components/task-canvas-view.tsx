import { memo, useEffect, useId, useMemo, useState } from 'react';
import type { TaskGroups } from '#shared/rules/task-groups.ts';
import type { TaskRow } from '#sync/db.ts';
import { Tabs, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import type { CanvasTab } from '../hooks/use-task-filters.ts';
import { SECTION_HINTS } from './task-list-view.tsx';
import { ProgressBar, ProgressRing, TaskCard, type TaskItemProps } from './task-parts.tsx';
import { VirtualRows } from './virtual-rows.tsx';

/** Spec 02 section 9: the Overview tab shows the first six filtered tasks. */
export const OVERVIEW_TASKS = 6;

export const CANVAS_TAB_LABELS: Record<CanvasTab, string> = {
  overview: 'Overview',
  projects: 'By Projects',
  administrative: 'Administrative',
  general: 'General',
};

/** Cards per row at the Tailwind breakpoints the grid used before it was virtualised: 1, 2 (sm), 3 (lg). */
function useColumns(): number {
  const query = () =>
    typeof window.matchMedia !== 'function'
      ? 1
      : window.matchMedia('(min-width: 1024px)').matches
        ? 3
        : window.matchMedia('(min-width: 640px)').matches
          ? 2
          : 1;
  const [columns, setColumns] = useState(query);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const lists = ['(min-width: 1024px)', '(min-width: 640px)'].map((q) => window.matchMedia(q));
    const update = () => setColumns(query());
    for (const l of lists) l.addEventListener('change', update);
    return () => {
      for (const l of lists) l.removeEventListener('change', update);
    };
  }, []);
  return columns;
}

type Item =
  | { kind: 'header'; key: string; name: string; percent: number; colour: string; count: number }
  | { kind: 'cards'; key: string; tasks: TaskRow[] }
  | { kind: 'hint'; key: string; text: string };

/**
 * Height in px of each kind of canvas item at a 16 px root font (VirtualRows scales them with larger
 * text), set by their CSS as well (a card is CARD_HEIGHT tall with its title, description and facts
 * clamped), so nothing is measured.
 */
export const CANVAS_ITEM_HEIGHT = { header: 64, cards: 236, hint: 48 } as const;
const sizeOf = (i: Item) => CANVAS_ITEM_HEIGHT[i.kind];
const keyOf = (i: Item) => i.key;

function chunk(out: Item[], tasks: readonly TaskRow[], columns: number, prefix: string) {
  for (let i = 0; i < tasks.length; i += columns)
    out.push({ kind: 'cards', key: `${prefix}:${tasks[i]!.id}`, tasks: tasks.slice(i, i + columns) });
}

export interface TaskCanvasViewProps {
  tab: CanvasTab;
  onTab: (tab: CanvasTab) => void;
  groups: TaskGroups<TaskRow>;
  /** The first `limit` filtered tasks in list order (Overview shows the first six). */
  overview: (limit: number) => readonly TaskRow[];
  projectNames: ReadonlyMap<string, string>;
  item: Omit<TaskItemProps, 'task' | 'selected'>;
  selected: ReadonlySet<string>;
}

/** The canvas view (spec 02 section 2): tabs Overview, By Projects, Administrative and General, as cards. */
export const TaskCanvasView = memo(function TaskCanvasView({
  tab,
  onTab,
  groups,
  overview,
  projectNames,
  item,
  selected,
}: TaskCanvasViewProps) {
  const panelId = useId();
  const columns = useColumns();
  const projectCount = groups.projects.reduce((n, g) => n + g.tasks.length, 0);
  const items = useMemo(() => {
    const out: Item[] = [];
    if (tab === 'projects') {
      if (groups.projects.length === 0) out.push({ kind: 'hint', key: 'hint', text: SECTION_HINTS.project });
      for (const g of groups.projects) {
        const key = `project:${g.projectId ?? 'none'}`;
        out.push({
          kind: 'header',
          key,
          name: g.name,
          percent: g.percent,
          colour: g.colour,
          count: g.tasks.length,
        });
        chunk(out, g.tasks, columns, key);
      }
    } else if (tab === 'administrative' || tab === 'general') {
      const list = tab === 'administrative' ? groups.administrative : groups.general;
      if (list.length === 0) out.push({ kind: 'hint', key: 'hint', text: SECTION_HINTS[tab] });
      chunk(out, list, columns, tab);
    }
    return out;
  }, [tab, groups, columns]);

  const card = (t: TaskRow) => (
    <TaskCard
      key={t.id}
      {...item}
      task={t}
      selected={selected.has(t.id)}
      projectName={t.projectId ? projectNames.get(t.projectId) : undefined}
    />
  );
  const grid = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3';

  return (
    <div className="grid gap-4">
      <Tabs value={tab} onValueChange={(v) => onTab(v as CanvasTab)}>
        <TabsList className="flex w-full flex-wrap justify-start sm:w-auto" aria-label="Canvas tabs">
          {(Object.keys(CANVAS_TAB_LABELS) as CanvasTab[]).map((t) => (
            // The one panel below shows whichever tab is chosen.
            <TabsTrigger key={t} value={t} aria-controls={panelId}>
              {CANVAS_TAB_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {tab === 'overview' ? (
        <div id={panelId} className="grid gap-4" role="tabpanel" aria-label="Overview">
          <dl className="grid grid-cols-3 gap-3">
            {(
              [
                ['Project Tasks', projectCount],
                ['Administrative Tasks', groups.administrative.length],
                ['General Tasks', groups.general.length],
              ] as const
            ).map(([label, n]) => (
              <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
                <dt className="text-xs text-slate-600 sm:text-sm">{label}</dt>
                <dd className="text-2xl font-bold text-slate-900">{n}</dd>
              </div>
            ))}
          </dl>
          <h2 className="text-lg font-semibold text-slate-900">Recent Tasks</h2>
          <div className={grid}>{overview(OVERVIEW_TASKS).map(card)}</div>
        </div>
      ) : (
        <div id={panelId} role="tabpanel" aria-label={CANVAS_TAB_LABELS[tab]}>
          <VirtualRows
            aria-label={CANVAS_TAB_LABELS[tab]}
            items={items}
            getKey={keyOf}
            sizeOf={sizeOf}
            render={(i) =>
              i.kind === 'hint' ? (
                <p className="flex h-full items-center text-sm text-slate-600">{i.text}</p>
              ) : i.kind === 'header' ? (
                <h2 className="flex h-full items-center gap-3 overflow-hidden pt-2">
                  <ProgressRing percent={i.percent} colour={i.colour} />
                  <span className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
                    <span className="flex flex-wrap items-baseline justify-between gap-x-2">
                      <span className="min-w-0 truncate text-base font-semibold text-slate-900">
                        {i.name}
                      </span>
                      <span className="shrink-0 text-xs font-normal text-slate-600">
                        {i.count} {i.count === 1 ? 'task' : 'tasks'} · {i.percent}% complete
                      </span>
                    </span>
                    <ProgressBar percent={i.percent} colour={i.colour} label={`Progress of ${i.name}`} />
                  </span>
                </h2>
              ) : (
                <div className={`${grid} h-full pb-3`}>{i.tasks.map(card)}</div>
              )
            }
          />
        </div>
      )}
    </div>
  );
});
