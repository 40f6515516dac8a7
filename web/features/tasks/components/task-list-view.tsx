import { memo } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { ProjectGroup, TaskGroups } from '#shared/rules/task-groups.ts';
import type { TaskRow } from '#sync/db.ts';
import { cn } from '#web/lib/cn.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { lastAnswer } from '../hooks/use-task-data.ts';
import { ProgressBar, ProgressRing, TaskListRow, type TaskItemProps } from './task-parts.tsx';
import { VirtualRows } from './virtual-rows.tsx';

export type SectionKey = 'project' | 'administrative' | 'general';

export const SECTION_TITLES: Record<SectionKey, string> = {
  project: 'Project Tasks',
  administrative: 'Administrative Tasks',
  general: 'General Tasks',
};

/** Spec 02 section 2: an empty section shows a hint. */
export const SECTION_HINTS: Record<SectionKey, string> = {
  project: 'No project tasks match your filters.',
  administrative: 'No administrative tasks match your filters.',
  general: 'No general tasks match your filters.',
};

type Header =
  | { kind: 'section'; key: string; section: SectionKey; count: number; open: boolean }
  | { kind: 'project'; key: string; group: ProjectGroup<TaskRow>; open: boolean }
  | { kind: 'hint'; key: string; text: string };
/** A header, or a task row itself (no wrapper object per task: a keystroke may list 10,000 again). */
type Item = Header | TaskRow;
const isHeader = (i: Item): i is Header => 'kind' in i;

export const sectionId = (s: SectionKey) => `section:${s}`;
export const projectGroupId = (g: { projectId: string | null }) => `project:${g.projectId ?? 'none'}`;

/** The flat list the virtualizer renders, remembered across mounts (a return to /tasks rebuilds nothing). */
const itemsOf = lastAnswer(2, (groups: TaskGroups<TaskRow>, collapsed: ReadonlySet<string>): Item[] => {
  const out: Item[] = [];
  const section = (key: SectionKey, count: number) => {
    const open = !collapsed.has(sectionId(key));
    out.push({ kind: 'section', key: sectionId(key), section: key, count, open });
    if (open && count === 0) out.push({ kind: 'hint', key: `hint:${key}`, text: SECTION_HINTS[key] });
    return open;
  };
  const projectCount = groups.projects.reduce((n, g) => n + g.tasks.length, 0);
  if (section('project', projectCount)) {
    for (const g of groups.projects) {
      const open = !collapsed.has(projectGroupId(g));
      out.push({ kind: 'project', key: projectGroupId(g), group: g, open });
      if (open) out.push(...g.tasks);
    }
  }
  if (section('administrative', groups.administrative.length)) out.push(...groups.administrative);
  if (section('general', groups.general.length)) out.push(...groups.general);
  return out;
});

export interface TaskListViewProps {
  groups: TaskGroups<TaskRow>;
  /** Ids of collapsed sections and project groups. */
  collapsed: ReadonlySet<string>;
  onToggle: (id: string) => void;
  item: Omit<TaskItemProps, 'task' | 'selected'>;
  selected: ReadonlySet<string>;
}

/** The Tailwind breakpoint (md) from which a task row is one line of facts instead of two. */
export const WIDE_ROWS = '(min-width: 768px)';

/**
 * Height in px of each kind of list item at a 16 px root font (VirtualRows scales them with larger text);
 * the items' CSS sets the same heights (`h-full` inside the virtualizer's box), so nothing is measured.
 */
export const LIST_ITEM_HEIGHT = { section: 64, project: 72, hint: 48, task: 108, taskWide: 64 } as const;

const sizeOfNarrow = (i: Item) => (isHeader(i) ? LIST_ITEM_HEIGHT[i.kind] : LIST_ITEM_HEIGHT.task);
const sizeOfWide = (i: Item) => (isHeader(i) ? LIST_ITEM_HEIGHT[i.kind] : LIST_ITEM_HEIGHT.taskWide);
const keyOf = (i: Item) => (isHeader(i) ? i.key : i.id);

/**
 * The list view (spec 02 section 2): collapsible sections, project sub-groups with progress, hints.
 * Memoised: typing in the search re-renders the screen at once, and the list only when its groups change.
 */
export const TaskListView = memo(function TaskListView({
  groups,
  collapsed,
  onToggle,
  item,
  selected,
}: TaskListViewProps) {
  const items = itemsOf(groups, collapsed);
  const wide = useMediaQuery(WIDE_ROWS);

  return (
    <VirtualRows
      items={items}
      aria-label="Tasks"
      getKey={keyOf}
      sizeOf={wide ? sizeOfWide : sizeOfNarrow}
      render={(i) => {
        if (!isHeader(i)) return <TaskListRow {...item} task={i} selected={selected.has(i.id)} />;
        switch (i.kind) {
          case 'section':
            return (
              <h2 className="flex h-full items-end pb-1">
                <button
                  type="button"
                  aria-expanded={i.open}
                  onClick={() => onToggle(i.key)}
                  className="flex min-h-11 w-full items-center gap-2 rounded-md px-1 text-left text-lg font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600"
                >
                  {i.open ? (
                    <ChevronDown className="h-5 w-5" aria-hidden="true" />
                  ) : (
                    <ChevronRight className="h-5 w-5" aria-hidden="true" />
                  )}
                  {SECTION_TITLES[i.section]}
                  <span className="rounded-full bg-slate-200 px-2 text-sm font-medium text-slate-700">
                    {i.count}
                  </span>
                </button>
              </h2>
            );
          case 'hint':
            return <p className="flex h-full items-center px-3 text-sm text-slate-600">{i.text}</p>;
          case 'project':
            return <ProjectHeader group={i.group} open={i.open} onToggle={() => onToggle(i.key)} />;
        }
      }}
    />
  );
});

function ProjectHeader({
  group,
  open,
  onToggle,
}: {
  group: ProjectGroup<TaskRow>;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <h3
      className={cn(
        'mt-2 h-16 overflow-hidden rounded-t-lg border border-slate-200 bg-slate-50',
        !open && 'rounded-b-lg',
      )}
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={onToggle}
        // Drawn inside: the heading around it hides what overflows it.
        className="flex h-full w-full items-center gap-3 px-3 py-1 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-teal-600"
      >
        {open ? (
          <ChevronDown className="h-4 w-4 shrink-0" aria-hidden="true" />
        ) : (
          <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
        )}
        <ProgressRing percent={group.percent} colour={group.colour} />
        <span className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
          <span className="flex flex-wrap items-baseline justify-between gap-x-2">
            <span className="min-w-0 max-w-full truncate text-sm font-semibold text-slate-900">
              {group.name}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              {group.tasks.length} {group.tasks.length === 1 ? 'task' : 'tasks'} · {group.percent}% complete
            </span>
          </span>
          <ProgressBar percent={group.percent} colour={group.colour} label={`Progress of ${group.name}`} />
        </span>
      </button>
    </h3>
  );
}
