import { appNow } from '#web/lib/app-clock.ts';
import { useId, useState } from 'react';
import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import { todayIn } from '#shared/rules/dates.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import { ChoiceSelect } from '#web/components/ui/choice-select.tsx';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS } from '#web/features/projects/utils/task-form.ts';
import {
  subTaskFormSchema,
  UNASSIGNED,
  type SubTaskFields,
  type SubTaskFormValues,
} from '../utils/sub-task-form.ts';

export interface Choice {
  id: string;
  name: string;
}

export interface SubTaskDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'edit';
  initial: SubTaskFormValues;
  /** The stored due date (ISO) on edit: a new day keeps its time of day. */
  storedDueDate?: string | null;
  projects: readonly Choice[];
  /** The assignee choices: the company's active subcontractors. */
  subcontractors: readonly Choice[];
  /** Names of every user, for an assignee who is no longer a choice. */
  names: ReadonlyMap<string, string>;
  timeZone: string;
  /** `data` is the whole form (a create sends it), `changed` only what the user changed (an edit sends it). */
  onSubmit: (data: SubTaskFields, changed: Partial<SubTaskFields>) => Promise<void>;
}

export const CREATE_TITLE = 'Create New Subcontractor Task';
export const EDIT_TITLE = 'Edit Subcontractor Task';

/** The subcontractor task form (spec 02 sections 2 and 5). Mount it when it opens. */
export function SubTaskDialog({
  open,
  onOpenChange,
  mode,
  initial,
  storedDueDate,
  projects,
  subcontractors,
  names,
  timeZone,
  onSubmit,
}: SubTaskDialogProps) {
  const base = useId();
  const [schema] = useState(() =>
    subTaskFormSchema({ now: appNow(), timeZone, initialDueDate: initial.dueDate, storedDueDate }),
  );
  const form = usePatchForm(schema, initial);
  const { errors: e, isSubmitting: saving } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);
  const values = form.watch();
  const id = (name: string) => `${base}-${name}`;
  const set = (name: 'projectId' | 'status' | 'priority' | 'assigneeId', value: string) =>
    form.setValue(name, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const submit = form.submitPatch(async (data, changed) => {
    setFailure(null);
    try {
      await onSubmit(data, changed);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    }
  });

  const knownProject = values.projectId === '' || projects.some((p) => p.id === values.projectId);
  const knownAssignee =
    values.assigneeId === UNASSIGNED || subcontractors.some((s) => s.id === values.assigneeId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={mode === 'create' ? CREATE_TITLE : EDIT_TITLE}
        description="Task details"
        hideDescription
      >
        <form noValidate onSubmit={(ev) => void submit(ev)} className="grid gap-4">
          {failure && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">
                {mode === 'create' ? 'Error creating task' : 'Error updating task'}
              </p>
              <p>{failure}</p>
            </div>
          )}
          <FormField id={id('project')} label="Project" required error={e.projectId?.message}>
            <Select value={values.projectId} onValueChange={(v) => set('projectId', v)}>
              <SelectTrigger
                {...fieldProps(id('project'), e.projectId?.message)}
                aria-required="true"
                className="min-w-0 text-left [&>span]:truncate"
              >
                <SelectValue placeholder="Select a project" />
              </SelectTrigger>
              <SelectContent>
                {!knownProject && <SelectItem value={values.projectId}>Unknown Project</SelectItem>}
                {projects.map((p) => (
                  <SelectItem key={p.id} value={p.id}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          <FormField id={id('title')} label="Title" required error={e.title?.message}>
            <Input
              {...fieldProps(id('title'), e.title?.message)}
              {...form.register('title')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('description')} label="Description" error={e.description?.message}>
            <Textarea
              {...fieldProps(id('description'), e.description?.message)}
              {...form.register('description')}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('assignee')} label="Assign to Subcontractor" error={e.assigneeId?.message}>
              <Select value={values.assigneeId} onValueChange={(v) => set('assigneeId', v)}>
                <SelectTrigger {...fieldProps(id('assignee'), e.assigneeId?.message)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={UNASSIGNED}>Unassigned</SelectItem>
                  {!knownAssignee && (
                    <SelectItem value={values.assigneeId}>
                      {names.get(values.assigneeId) || 'Unknown User'}
                    </SelectItem>
                  )}
                  {subcontractors.map((s) => (
                    <SelectItem key={s.id} value={s.id}>
                      {s.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField id={id('due')} label="Due date" error={e.dueDate?.message}>
              <Input
                {...fieldProps(id('due'), e.dueDate?.message)}
                type="date"
                min={todayIn(appNow(), timeZone)}
                {...form.register('dueDate')}
              />
            </FormField>
            <FormField id={id('status')} label="Status" error={e.status?.message}>
              <ChoiceSelect
                id={id('status')}
                error={e.status?.message}
                value={values.status}
                onValueChange={(v) => set('status', v)}
                choices={TASK_STATUSES}
                labels={TASK_STATUS_LABELS}
              />
            </FormField>
            <FormField id={id('priority')} label="Priority" error={e.priority?.message}>
              <ChoiceSelect
                id={id('priority')}
                error={e.priority?.message}
                value={values.priority}
                onValueChange={(v) => set('priority', v)}
                choices={TASK_PRIORITIES}
                labels={TASK_PRIORITY_LABELS}
              />
            </FormField>
          </div>
          <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-900">
            <input type="checkbox" className="h-5 w-5 accent-teal-700" {...form.register('isMilestone')} />
            Mark as milestone
          </label>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {mode === 'create' ? 'Create Task' : 'Update Task'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
