import { memo, useId, useState } from 'react';
import {
  Calendar,
  Camera,
  ChevronDown,
  History,
  Images,
  ListChecks,
  MapPin,
  Pencil,
  Plus,
  Trash2,
} from 'lucide-react';
import type { ProjectRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#web/components/ui/collapsible.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { WithTooltip } from '#web/components/ui/tooltip.tsx';
import { cn } from '#web/lib/cn.ts';
import { useProjectsData } from '../hooks/projects-context.tsx';
import { useProjectTasks } from '../hooks/use-project-queries.ts';
import { useTaskCount } from '../hooks/task-counts.ts';
import { formatDueDate } from '../utils/dates.ts';
import type { ProjectActions } from './project-actions.ts';
import { ProjectStatusBadge } from './project-status-badge.tsx';
import { TaskList } from './task-list.tsx';

function IconAction({
  label,
  onClick,
  children,
  className,
}: {
  label: string;
  onClick: () => void;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <WithTooltip label={label}>
      <Button
        variant="ghost"
        size="icon"
        className={cn('md:h-9 md:w-9', className)}
        aria-label={label}
        onClick={onClick}
      >
        {children}
      </Button>
    </WithTooltip>
  );
}

/**
 * The tasks of an open card. Its own component, mounted only while the card is open: a closed card holds
 * no live query of its tasks (each one is a subscription the screen pays to open and to close, 50 cards at
 * a time).
 */
function ProjectTasks({ project, actions }: ProjectCardProps) {
  const { db, managers, can } = useProjectsData();
  const tasks = useProjectTasks(db, project.id);
  return (
    <TaskList
      tasks={tasks}
      managers={managers}
      canEdit={can('tasks:update')}
      canDelete={can('tasks:delete')}
      onEdit={actions.editTask}
      onDelete={actions.deleteTask}
      onHistory={(task) => actions.history({ table: 'tasks', row: task })}
    />
  );
}

interface ProjectCardProps {
  project: ProjectRow;
  actions: ProjectActions;
}

/**
 * A live query answers with fresh row objects every time the table changes: a card is drawn again only
 * when its own row's fields changed, so a save repaints one card, not the screen (budget B7).
 */
function sameCard(a: ProjectCardProps, b: ProjectCardProps): boolean {
  if (a.actions !== b.actions) return false;
  if (a.project === b.project) return true;
  const ka = Object.keys(a.project) as (keyof ProjectRow)[];
  if (ka.length !== Object.keys(b.project).length) return false;
  return ka.every((k) => Object.is(a.project[k], b.project[k]));
}

/** One project card (spec 01 section 2): every field, the buttons, and the expandable task list. */
export const ProjectCard = memo(function ProjectCard({ project, actions }: ProjectCardProps) {
  const { can, taskCounts } = useProjectsData();
  const titleId = useId();
  const [expanded, setExpanded] = useState(false);
  const taskCount = useTaskCount(taskCounts, project.id);
  const name = project.name ?? 'Untitled project';
  const progress = project.progress ?? 0;
  const due = formatDueDate(project.dueDate);

  return (
    // A card out of view is neither laid out nor painted (content-visibility): with every card of a company
    // on the page, a hover, a dialog closing or a bar moving repainted all of them, about 40 ms at 4x CPU
    // with the 50 projects of a large company. Until first shown, a card takes a typical card's height; its
    // width stays the column's (a placeholder width of 22rem widened a 320 px screen: WCAG 1.4.10).
    <Card
      className="flex flex-col [contain-intrinsic-block-size:auto_22rem] [content-visibility:auto]"
      role="article"
      aria-labelledby={titleId}
    >
      <div className="flex flex-col gap-2 p-5 pb-3">
        <div className="flex items-start justify-between gap-2">
          {/* A long word (a code, a stamp) breaks rather than widen a 320 px screen (WCAG 1.4.10). */}
          <h3
            id={titleId}
            className="min-w-0 text-lg leading-tight font-semibold wrap-anywhere text-slate-900"
          >
            {name}
          </h3>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <ProjectStatusBadge status={project.status} />
            <UnsentMarker rowId={project.id} />
          </div>
        </div>
        <p className="flex items-center gap-1 text-sm wrap-anywhere text-slate-600">
          <MapPin className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0">{project.location || 'No location'}</span>
        </p>
        {project.description && <p className="text-sm wrap-anywhere text-slate-700">{project.description}</p>}
      </div>
      <div className="grid gap-3 px-5 pb-3">
        <div className="grid gap-1">
          <div className="flex justify-between text-sm">
            <span className="text-slate-600">Progress</span>
            <span className="font-medium text-slate-900">{progress}%</span>
          </div>
          <Progress value={progress} aria-label={`Progress of ${name}`} />
        </div>
        <div className="flex flex-wrap justify-between gap-2 text-sm text-slate-600">
          <span className="inline-flex items-center gap-1">
            <ListChecks className="h-4 w-4" aria-hidden="true" />
            {taskCount === undefined ? '…' : `${taskCount} ${taskCount === 1 ? 'task' : 'tasks'}`}
          </span>
          <span className="inline-flex items-center gap-1">
            <Calendar className="h-4 w-4" aria-hidden="true" />
            {due ? `Due ${due}` : 'No due date'}
          </span>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1 border-t border-slate-100 px-3 py-2">
        {can('projects:update') && (
          <IconAction label="Edit project" onClick={() => actions.edit(project)}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
          </IconAction>
        )}
        {can('tasks:create') && (
          <IconAction label="Add task" onClick={() => actions.addTask(project)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
          </IconAction>
        )}
        {can('photos:create') && (
          <IconAction label="Upload photo" onClick={() => actions.gallery(project, 'upload')}>
            <Camera className="h-4 w-4" aria-hidden="true" />
          </IconAction>
        )}
        {can('photos:read') && (
          <IconAction label="Gallery" onClick={() => actions.gallery(project, 'photos')}>
            <Images className="h-4 w-4" aria-hidden="true" />
          </IconAction>
        )}
        <IconAction label="History" onClick={() => actions.history({ table: 'projects', row: project })}>
          <History className="h-4 w-4" aria-hidden="true" />
        </IconAction>
        {can('projects:delete') && (
          <IconAction
            label="Delete project"
            className="ml-auto text-red-600 hover:bg-red-50"
            onClick={() => actions.remove(project)}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </IconAction>
        )}
      </div>
      <Collapsible open={expanded} onOpenChange={setExpanded} className="border-t border-slate-100">
        <CollapsibleTrigger asChild>
          <button
            type="button"
            className="flex min-h-11 w-full items-center justify-between px-5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600"
          >
            <span>Tasks{taskCount !== undefined ? ` (${taskCount})` : ''}</span>
            <ChevronDown
              className={cn('h-4 w-4 transition-transform', expanded && 'rotate-180')}
              aria-hidden="true"
            />
          </button>
        </CollapsibleTrigger>
        <CollapsibleContent className="px-5 pb-3">
          <ProjectTasks project={project} actions={actions} />
        </CollapsibleContent>
      </Collapsible>
    </Card>
  );
}, sameCard);
