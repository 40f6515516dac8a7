import { appNow } from '#web/lib/app-clock.ts';
import { useId, useState } from 'react';
import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import { todayIn } from '#shared/rules/dates.ts';
import type { Manager } from '../utils/assignee-name.ts';
import {
  CATEGORY_LABELS,
  FORM_CATEGORIES,
  NO_PROJECT,
  showsNoProjectOption,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  taskFormSchema,
  UNASSIGNED,
  type TaskFields,
  type TaskFormValues,
} from '../utils/task-form.ts';
import { ChoiceSelect } from '#web/components/ui/choice-select.tsx';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';

export interface TaskFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'Add Task to {project}' or 'Edit Task'. */
  title: string;
  submitLabel: string;
  initial: TaskFormValues;
  /** The stored due date (ISO) on edit: a new day keeps its time of day. */
  storedDueDate?: string | null;
  projects: readonly { id: string; name: string }[];
  managers: readonly Manager[];
  /** The company's time zone: what "today" is for the due date picker. */
  timeZone: string;
  /**
   * Saves the task: `data` is the whole form (a create sends it), `changed` only the fields the user
   * changed (an edit sends that). A thrown error is shown in the dialog, which stays open with what was typed.
   */
  onSubmit: (data: TaskFields, changed: Partial<TaskFields>) => Promise<void>;
}

/** The task form of the Projects screen (spec 01 section 5, spec 02 section 5). Mount it when it opens. */
export function TaskFormDialog({
  open,
  onOpenChange,
  title,
  submitLabel,
  initial,
  storedDueDate,
  projects,
  managers,
  timeZone,
  onSubmit,
}: TaskFormDialogProps) {
  const base = useId();
  const [schema] = useState(() =>
    taskFormSchema({ now: appNow(), timeZone, initialDueDate: initial.dueDate, storedDueDate }),
  );
  const form = usePatchForm(schema, initial);
  const { errors: fieldErrors, isSubmitting: saving } = form.formState;
  const errors = {
    title: fieldErrors.title?.message,
    description: fieldErrors.description?.message,
    category: fieldErrors.category?.message,
    projectId: fieldErrors.projectId?.message,
    status: fieldErrors.status?.message,
    priority: fieldErrors.priority?.message,
    assigneeId: fieldErrors.assigneeId?.message,
    dueDate: fieldErrors.dueDate?.message,
  };
  const [failure, setFailure] = useState<string | null>(null);
  const values = form.watch();

  const submit = form.submitPatch(async (data, changed) => {
    setFailure(null);
    try {
      await onSubmit(data, changed);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    }
  });
  const set = (name: 'category' | 'projectId' | 'status' | 'priority' | 'assigneeId', value: string) =>
    form.setValue(name, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const id = (name: string) => `${base}-${name}`;
  const projectRequired = values.category === 'project';
  const noProjectHidden = !showsNoProjectOption(values.category);
  const knownAssignee = values.assigneeId === UNASSIGNED || managers.some((m) => m.id === values.assigneeId);
  const knownProject = values.projectId === NO_PROJECT || projects.some((p) => p.id === values.projectId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description="Task details" hideDescription>
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          {failure && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">Failed to save task</p>
              <p>{failure}</p>
            </div>
          )}
          <FormField id={id('title')} label="Title" required error={errors.title}>
            <Input
              {...fieldProps(id('title'), errors.title)}
              {...form.register('title')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('description')} label="Description" error={errors.description}>
            <Textarea
              {...fieldProps(id('description'), errors.description)}
              {...form.register('description')}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('category')} label="Category" error={errors.category}>
              <Select value={values.category} onValueChange={(v) => set('category', v)}>
                <SelectTrigger {...fieldProps(id('category'), errors.category)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {FORM_CATEGORIES.map((c) => (
                    <SelectItem key={c} value={c}>
                      {CATEGORY_LABELS[c]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField
              id={id('project')}
              label={projectRequired ? 'Project (Required)' : 'Project'}
              required={projectRequired}
              error={errors.projectId}
            >
              <Select
                value={noProjectHidden && values.projectId === NO_PROJECT ? '' : values.projectId}
                onValueChange={(v) => set('projectId', v)}
              >
                <SelectTrigger
                  {...fieldProps(id('project'), errors.projectId)}
                  className="min-w-0 text-left [&>span]:truncate"
                >
                  <SelectValue placeholder="Select a project" />
                </SelectTrigger>
                <SelectContent>
                  {/* Spec 02 section 5: 'No Project' is hidden while the category needs a project. */}
                  {!noProjectHidden && <SelectItem value={NO_PROJECT}>No Project</SelectItem>}
                  {!knownProject && <SelectItem value={values.projectId}>Unknown Project</SelectItem>}
                  {projects.map((p) => (
                    <SelectItem key={p.id} value={p.id}>
                      {p.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField id={id('status')} label="Status" error={errors.status}>
              <ChoiceSelect
                id={id('status')}
                error={errors.status}
                value={values.status}
                onValueChange={(v) => set('status', v)}
                choices={TASK_STATUSES}
                labels={TASK_STATUS_LABELS}
              />
            </FormField>
            <FormField id={id('priority')} label="Priority" error={errors.priority}>
              <ChoiceSelect
                id={id('priority')}
                error={errors.priority}
                value={values.priority}
                onValueChange={(v) => set('priority', v)}
                choices={TASK_PRIORITIES}
                labels={TASK_PRIORITY_LABELS}
              />
            </FormField>
            <FormField id={id('assignee')} label="Assignee" error={errors.assigneeId}>
              <Select value={values.assigneeId} onValueChange={(v) => set('assigneeId', v)}>
                <SelectTrigger {...fieldProps(id('assignee'), errors.assigneeId)}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={UNASSIGNED}>Unassigned</SelectItem>
                  {!knownAssignee && <SelectItem value={values.assigneeId}>Unknown User</SelectItem>}
                  {managers.map((m) => (
                    <SelectItem key={m.id} value={m.id}>
                      {m.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField id={id('due')} label="Due date" error={errors.dueDate}>
              <Input
                {...fieldProps(id('due'), errors.dueDate)}
                type="date"
                min={todayIn(appNow(), timeZone)}
                {...form.register('dueDate')}
              />
            </FormField>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
