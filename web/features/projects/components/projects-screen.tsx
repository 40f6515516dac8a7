import { useCallback, useMemo, useState } from 'react';
import { DEFAULT_TIME_ZONE } from '#shared/rules/dates.ts';
import { LayoutGrid, List, Plus } from 'lucide-react';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { RecordHistoryDialog } from '#web/components/record-history/record-history-dialog.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ViewToggle } from '#web/components/ui/toggle-group.tsx';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { ProjectsDataProvider, type ProjectsData } from '../hooks/projects-context.tsx';
import { usePeople } from '../hooks/use-people.ts';
import { useProjectCommands } from '../hooks/use-project-commands.ts';
import { useProjects } from '../hooks/use-project-queries.ts';
import { taskCountsOf, useTaskCount, type TaskCounts } from '../hooks/task-counts.ts';
import { byName, groupProjects } from '../utils/group-projects.ts';
import { useOptimisticRows } from '#web/lib/optimistic-rows.ts';
import {
  PROJECT_FIELD_LABELS,
  projectToForm,
  type ProjectFields,
  type ProjectFormValues,
} from '../utils/project-form.ts';
import { newTaskForm, TASK_FIELD_LABELS, taskToForm } from '../utils/task-form.ts';
import { DeleteProjectDialog } from './delete-project-dialog.tsx';
import { GalleryDialog } from './gallery-dialog.tsx';
import type { ProjectActions } from './project-actions.ts';
import { ProjectFormDialog } from './project-form-dialog.tsx';
import { ProjectsFrame } from './projects-frame.tsx';
import { ProjectList } from './project-list.tsx';
import { ProjectSection } from './project-section.tsx';
import { TaskFormDialog } from './task-form-dialog.tsx';

const VIEW_CHOICES = [
  { value: 'cards', label: 'Cards', icon: LayoutGrid },
  { value: 'list', label: 'List', icon: List },
] as const;

export interface ProjectsScreenProps {
  db: SyncDb;
  write: LocalWrite;
  /** Whether the user holds a permission; everything is allowed when omitted. */
  can?: (permission: string) => boolean;
  companyName?: string | null;
  /** The company's IANA time zone (the session's `companyTimeZone`): what "today" is. UTC when omitted. */
  timeZone?: string;
}

type DialogState =
  | { kind: 'create' }
  | { kind: 'edit'; project: ProjectRow; draft?: ProjectFormValues; failure?: string }
  | { kind: 'add-task'; project: ProjectRow }
  | { kind: 'edit-task'; task: TaskRow }
  | { kind: 'delete'; project: ProjectRow }
  | { kind: 'delete-task'; task: TaskRow }
  | { kind: 'gallery'; project: ProjectRow; tab: 'photos' | 'upload' }
  | { kind: 'history'; table: 'projects'; row: ProjectRow }
  | { kind: 'history'; table: 'tasks'; row: TaskRow };

const allowAll = () => true;
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

function DeleteProject({
  taskCounts,
  project,
  onClose,
  onConfirm,
}: {
  taskCounts: TaskCounts;
  project: ProjectRow;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const taskCount = useTaskCount(taskCounts, project.id);
  return (
    <DeleteProjectDialog
      open
      onOpenChange={(open) => !open && onClose()}
      projectName={project.name ?? 'this project'}
      taskCount={taskCount}
      onConfirm={onConfirm}
    />
  );
}

/**
 * The Projects screen (spec 01 section 2), local-first: it reads the device's mirror with live queries and
 * writes through the outbox, so everything on it works offline.
 */
export function ProjectsScreen({
  db,
  write,
  can = allowAll,
  companyName,
  timeZone = DEFAULT_TIME_ZONE,
}: ProjectsScreenProps) {
  const optimistic = useOptimisticRows(useProjects(db));
  const projects = optimistic.rows;
  const { names: managers, assignable: assignees } = usePeople(db);
  const commands = useProjectCommands(db, write, can);
  const savedToast = useSavedToast(db);
  const [view, setView] = useState<'cards' | 'list'>('cards');
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const close = useCallback(() => setDialog(null), []);

  const taskCounts = useMemo(() => taskCountsOf(db), [db]);
  const data = useMemo<ProjectsData>(
    () => ({ db, write, can, managers, taskCounts }),
    [db, write, can, managers, taskCounts],
  );
  const groups = useMemo(() => groupProjects(projects ?? []), [projects]);
  const sorted = useMemo(() => [...(projects ?? [])].sort(byName), [projects]);
  const projectChoices = useMemo(
    () => sorted.map((p) => ({ id: p.id, name: p.name ?? 'Untitled project' })),
    [sorted],
  );

  const actions = useMemo<ProjectActions>(
    () => ({
      edit: (project) => setDialog({ kind: 'edit', project }),
      addTask: (project) => setDialog({ kind: 'add-task', project }),
      remove: (project) => setDialog({ kind: 'delete', project }),
      gallery: (project, tab) => setDialog({ kind: 'gallery', project, tab }),
      editTask: (task) => setDialog({ kind: 'edit-task', task }),
      deleteTask: (task) => setDialog({ kind: 'delete-task', task }),
      history: (target) => setDialog({ kind: 'history', ...target }),
    }),
    [],
  );

  // The dialog closes and the card shows the change in the tap itself; the write commits meanwhile. Should
  // it fail, the change comes off the card and the dialog opens again with what was typed and why.
  const saveProject = (
    project: ProjectRow,
    values: ProjectFields,
    changed: Partial<ProjectFields>,
    typed: ProjectFormValues,
  ) => {
    optimistic.patch(project.id, changed, commands.updateProject(project, changed)).then(
      () => void savedToast(project.id, { title: 'Project updated', description: values.name }),
      (err: unknown) => {
        toast({ title: 'Failed to update project', description: messageOf(err), variant: 'destructive' });
        setDialog({ kind: 'edit', project, draft: typed, failure: messageOf(err) });
      },
    );
  };

  const deleteTask = async (task: TaskRow) => {
    try {
      await commands.deleteTask(task);
      void savedToast(task.id, { title: 'Task deleted', description: task.title ?? undefined });
    } catch (err) {
      toast({ title: 'Failed to delete task', description: messageOf(err), variant: 'destructive' });
    }
  };

  return (
    <ProjectsDataProvider value={data}>
      <TooltipProvider>
        <ProjectsFrame
          companyName={companyName}
          actions={
            <div className="flex flex-wrap items-center gap-2">
              <ViewToggle choices={VIEW_CHOICES} value={view} onChange={setView} />
              {can('projects:create') && (
                <Button onClick={() => setDialog({ kind: 'create' })}>
                  <Plus className="h-4 w-4" aria-hidden="true" />
                  New Project
                </Button>
              )}
            </div>
          }
        >
          {projects === undefined ? (
            <p role="status" className="text-slate-600">
              Loading projects...
            </p>
          ) : view === 'cards' ? (
            <div className="grid gap-8">
              <ProjectSection
                title="Active Projects"
                projects={groups.active}
                actions={actions}
                emptyText="No active projects."
              />
              <ProjectSection
                title="Completed Projects"
                projects={groups.completed}
                actions={actions}
                emptyText="No completed projects."
              />
            </div>
          ) : (
            <ProjectList projects={sorted} actions={actions} />
          )}
        </ProjectsFrame>

        {dialog?.kind === 'create' && (
          <ProjectFormDialog
            open
            onOpenChange={(open) => !open && close()}
            mode="create"
            timeZone={timeZone}
            onSubmit={async (values) => {
              const id = await commands.createProject(values);
              void savedToast(id, { title: 'Project created', description: values.name });
            }}
          />
        )}
        {dialog?.kind === 'edit' && (
          <ProjectFormDialog
            open
            onOpenChange={(open) => !open && close()}
            mode="edit"
            timeZone={timeZone}
            initial={projectToForm(dialog.project)}
            storedDueDate={dialog.project.dueDate}
            draft={dialog.draft}
            failure={dialog.failure}
            onSave={(values, changed, typed) => saveProject(dialog.project, values, changed, typed)}
          />
        )}
        {dialog?.kind === 'add-task' && (
          <TaskFormDialog
            open
            onOpenChange={(open) => !open && close()}
            title={`Add Task to ${dialog.project.name ?? 'project'}`}
            submitLabel="Add Task"
            initial={newTaskForm(dialog.project.id)}
            projects={projectChoices}
            managers={assignees}
            timeZone={timeZone}
            onSubmit={async (values) => {
              const id = await commands.createTask(values);
              void savedToast(id, { title: 'Task created successfully', description: values.title });
            }}
          />
        )}
        {dialog?.kind === 'edit-task' && (
          <TaskFormDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Edit Task"
            submitLabel="Save Changes"
            initial={taskToForm(dialog.task)}
            storedDueDate={dialog.task.dueDate}
            projects={projectChoices}
            managers={assignees}
            timeZone={timeZone}
            onSubmit={async (values, changed) => {
              await commands.updateTask(dialog.task, changed);
              void savedToast(dialog.task.id, {
                title: 'Task updated successfully',
                description: values.title,
              });
            }}
          />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteProject
            taskCounts={taskCounts}
            project={dialog.project}
            onClose={close}
            onConfirm={async () => {
              await commands.deleteProject(dialog.project);
              void savedToast(dialog.project.id, {
                title: 'Project deleted',
                description: dialog.project.name ?? undefined,
              });
            }}
          />
        )}
        {dialog?.kind === 'delete-task' && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Delete Task"
            description={`Are you sure you want to delete "${dialog.task.title ?? 'this task'}"? This action cannot be undone.`}
            confirmLabel="Delete Task"
            onConfirm={() => void deleteTask(dialog.task)}
          />
        )}
        {dialog?.kind === 'history' && (
          <RecordHistoryDialog
            open
            onOpenChange={(open) => !open && close()}
            table={dialog.table}
            rowId={dialog.row.id}
            recordName={
              (dialog.table === 'projects' ? dialog.row.name : dialog.row.title) ??
              (dialog.table === 'projects' ? 'Project' : 'Task')
            }
            fieldLabels={dialog.table === 'projects' ? PROJECT_FIELD_LABELS : TASK_FIELD_LABELS}
            formatValue={(field, value) =>
              typeof value !== 'string'
                ? undefined
                : field === 'assigneeId'
                  ? managers.get(value)
                  : field === 'projectId'
                    ? projectChoices.find((p) => p.id === value)?.name
                    : undefined
            }
            onRestore={
              can(`${dialog.table}:update`)
                ? (field, value) => write(dialog.table, 'patch', dialog.row.id, { [field]: value })
                : undefined
            }
          />
        )}
        {dialog?.kind === 'gallery' && (
          <GalleryDialog
            open
            onOpenChange={(open) => !open && close()}
            db={db}
            projectId={dialog.project.id}
            projectName={dialog.project.name ?? 'Project'}
            initialTab={dialog.tab}
            timeZone={timeZone}
            can={can}
          />
        )}
      </TooltipProvider>
    </ProjectsDataProvider>
  );
}
