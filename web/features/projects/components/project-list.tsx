import type { ReactNode } from 'react';
import { History, Pencil, Plus, Trash2 } from 'lucide-react';
import type { ProjectRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { cn } from '#web/lib/cn.ts';
import { useProjectsData } from '../hooks/projects-context.tsx';
import { useTaskCount } from '../hooks/task-counts.ts';
import { formatDueDate } from '../utils/dates.ts';
import type { ProjectActions } from './project-actions.ts';
import { ProjectStatusBadge } from './project-status-badge.tsx';

/**
 * A cell that is a table cell from md up and a labelled line of a stacked row on a phone (DESIGN.md
 * section 8: tables become stacked rows; nothing scrolls sideways).
 */
function Cell({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <td className={cn('flex items-center justify-between gap-3 px-3 py-1 md:table-cell md:py-3', className)}>
      <span className="text-xs font-medium text-slate-500 uppercase md:hidden">{label}</span>
      {children}
    </td>
  );
}

function ProjectListRow({ project, actions }: { project: ProjectRow; actions: ProjectActions }) {
  const { can, taskCounts } = useProjectsData();
  const taskCount = useTaskCount(taskCounts, project.id);
  const name = project.name ?? 'Untitled project';
  const progress = project.progress ?? 0;
  return (
    <tr
      className="block border-t border-slate-100 py-2 align-top first:border-t-0 md:table-row md:py-0"
      data-testid="project-row"
    >
      <th scope="row" className="block px-3 py-2 text-left font-medium text-slate-900 md:table-cell md:py-3">
        <span className="flex flex-wrap items-center gap-2">
          {name}
          <UnsentMarker rowId={project.id} />
        </span>
        {project.description && (
          <p className="text-xs font-normal wrap-anywhere text-slate-600">{project.description}</p>
        )}
      </th>
      <Cell label="Status">
        <ProjectStatusBadge status={project.status} />
      </Cell>
      <Cell label="Location" className="text-slate-700">
        <span className="min-w-0 text-right wrap-anywhere md:text-left">{project.location}</span>
      </Cell>
      <Cell label="Progress">
        <div className="flex items-center gap-2 md:min-w-28">
          <Progress value={progress} aria-label={`Progress of ${name}`} className="w-20" />
          <span className="text-slate-700">{progress}%</span>
        </div>
      </Cell>
      <Cell label="Tasks" className="text-slate-700">
        {taskCount ?? '…'}
      </Cell>
      <Cell label="Due date" className="whitespace-nowrap text-slate-700">
        {formatDueDate(project.dueDate) ?? '—'}
      </Cell>
      <td className="block px-3 py-1 md:table-cell md:py-3">
        <div className="flex justify-end gap-1">
          {can('projects:update') && (
            <Button
              variant="ghost"
              size="icon"
              className="md:h-8 md:w-8"
              aria-label="Edit project"
              onClick={() => actions.edit(project)}
            >
              <Pencil className="h-4 w-4" aria-hidden="true" />
            </Button>
          )}
          {can('tasks:create') && (
            <Button
              variant="ghost"
              size="icon"
              className="md:h-8 md:w-8"
              aria-label="Add task"
              onClick={() => actions.addTask(project)}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
            </Button>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="md:h-8 md:w-8"
            aria-label="History"
            onClick={() => actions.history({ table: 'projects', row: project })}
          >
            <History className="h-4 w-4" aria-hidden="true" />
          </Button>
          {can('projects:delete') && (
            <Button
              variant="ghost"
              size="icon"
              className="text-red-600 hover:bg-red-50 md:h-8 md:w-8"
              aria-label="Delete project"
              onClick={() => actions.remove(project)}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
          )}
        </div>
      </td>
    </tr>
  );
}

/** The List view: the same projects as table rows (stacked rows on a phone). */
export function ProjectList({ projects, actions }: { projects: ProjectRow[]; actions: ProjectActions }) {
  if (projects.length === 0) return <p className="text-sm text-slate-600">No projects yet.</p>;
  return (
    <div className="rounded-lg border border-slate-200 bg-white md:overflow-x-auto">
      <table className="block w-full text-sm md:table">
        <caption className="sr-only">Projects</caption>
        <thead className="hidden bg-slate-50 text-left text-xs tracking-wide text-slate-600 uppercase md:table-header-group">
          <tr>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Location
            </th>
            <th scope="col" className="px-3 py-2">
              Progress
            </th>
            <th scope="col" className="px-3 py-2">
              Tasks
            </th>
            <th scope="col" className="px-3 py-2">
              Due date
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="block md:table-row-group">
          {projects.map((p) => (
            <ProjectListRow key={p.id} project={p} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
