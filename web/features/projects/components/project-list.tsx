import { Pencil, Plus, Trash2 } from 'lucide-react';
import type { ProjectRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { useProjectsData } from '../hooks/projects-context.tsx';
import { useTaskCount } from '../hooks/use-project-queries.ts';
import { formatDueDate } from '../utils/dates.ts';
import type { ProjectActions } from './project-actions.ts';
import { ProjectStatusBadge } from './project-status-badge.tsx';

function ProjectListRow({ project, actions }: { project: ProjectRow; actions: ProjectActions }) {
  const { db, can } = useProjectsData();
  const taskCount = useTaskCount(db, project.id);
  const name = project.name ?? 'Untitled project';
  const progress = project.progress ?? 0;
  return (
    <tr className="border-t border-slate-100 align-top">
      <th scope="row" className="px-3 py-3 text-left font-medium text-slate-900">
        {name}
        {project.description && <p className="text-xs font-normal text-slate-600">{project.description}</p>}
      </th>
      <td className="px-3 py-3">
        <ProjectStatusBadge status={project.status} />
      </td>
      <td className="px-3 py-3 text-slate-700">{project.location}</td>
      <td className="px-3 py-3">
        <div className="flex min-w-28 items-center gap-2">
          <Progress value={progress} aria-label={`Progress of ${name}`} className="w-20" />
          <span className="text-slate-700">{progress}%</span>
        </div>
      </td>
      <td className="px-3 py-3 text-slate-700">{taskCount ?? '…'}</td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">{formatDueDate(project.dueDate) ?? '—'}</td>
      <td className="px-3 py-3">
        <div className="flex justify-end gap-1">
          {can('projects:update') && (
            <Button
              variant="ghost"
              size="icon"
              className="h-8 w-8"
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
              className="h-8 w-8"
              aria-label="Add task"
              onClick={() => actions.addTask(project)}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
            </Button>
          )}
          {can('projects:delete') && (
            <Button
              variant="ghost"
              size="icon"
              className="h-8 w-8 text-red-600 hover:bg-red-50"
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

/** The List view: the same projects as table rows. */
export function ProjectList({ projects, actions }: { projects: ProjectRow[]; actions: ProjectActions }) {
  if (projects.length === 0) return <p className="text-sm text-slate-600">No projects yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm">
        <caption className="sr-only">Projects</caption>
        <thead className="bg-slate-50 text-left text-xs tracking-wide text-slate-600 uppercase">
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
        <tbody>
          {projects.map((p) => (
            <ProjectListRow key={p.id} project={p} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
