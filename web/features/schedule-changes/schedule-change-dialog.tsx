import { appNow } from '#web/lib/app-clock.ts';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { newId } from '#shared/ids.ts';
import { zoneOrDefault } from '#shared/rules/dates.ts';
import type { ScheduleChangeRow, SyncDb, TaskRow } from '#sync/db.ts';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { useSession } from '#web/app/session.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { fieldClasses, Input } from '#web/components/ui/input.tsx';
import { FieldError, Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { cn } from '#web/lib/cn.ts';
import { usePatchForm } from '#web/lib/form-patch.ts';
import {
  emptyScheduleChangeForm,
  scheduleChangeFormSchema,
  toDayInput,
  type ScheduleChangeFormValues,
} from './schedule-change-form.ts';

/**
 * The one schedule-change form of the app (spec 02 section 2), in three uses:
 * - `request`: the Crew screen's 'Request Schedule Change' (the task fixed, its due date as a read-only
 *   original date, a new requested date picker, a reason);
 * - `update`: the Schedule screen's 'Update Task Schedule' (a Task select whose options read
 *   "<task title> - <project name>", optionally preselected with `taskId` and `originalDate`);
 * - `edit`: the same fields prefilled from an existing request `change` (only its changed fields are sent).
 * It reads the tasks it needs from the device mirror and writes through `sync/`, so it works offline; it
 * closes itself (through `onOpenChange(false)`) once the request is saved on the device.
 *
 * Its accessible name (the dialog's title) is part of the contract: 'Request Schedule Change',
 * 'Update Task Schedule' and 'Edit Schedule Change' by mode (`DIALOG_TITLES`).
 */
export interface ScheduleChangeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'request' | 'update' | 'edit';
  /** The task to preselect (`request` requires it). */
  taskId?: string | null;
  /** The original date to prefill (an ISO string); defaults to the task's due date. */
  originalDate?: string | null;
  /** The request to edit (`edit` only). */
  change?: ScheduleChangeRow | null;
}

export const DIALOG_TITLES: Record<ScheduleChangeDialogProps['mode'], string> = {
  request: 'Request Schedule Change',
  update: 'Update Task Schedule',
  edit: 'Edit Schedule Change',
};

/** Spec 02 section 8: the toasts of a request. */
export const SUBMITTED = 'Schedule change request submitted';
export const UPDATED = 'Schedule change request updated';
export const SUBMIT_FAILED = 'Failed to submit schedule change request';

export function ScheduleChangeDialog(props: ScheduleChangeDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      {props.open && (
        <DialogContent
          title={DIALOG_TITLES[props.mode]}
          description="Ask to move a task's due date"
          hideDescription
        >
          <ScheduleChangeLoader {...props} />
        </DialogContent>
      )}
    </Dialog>
  );
}

interface TaskChoice {
  id: string;
  label: string;
  dueDate: string | null;
}

const OPEN_STATUSES = ['pending', 'in-progress', 'blocked'];

/** "<task title> - <project name>" (spec 02 section 2), the title alone for a task without a project. */
function taskLabel(task: TaskRow, projectNames: ReadonlyMap<string, string>): string {
  const title = task.title ?? 'Untitled task';
  const project = task.projectId ? projectNames.get(task.projectId) : undefined;
  return project ? `${title} - ${project}` : title;
}

/**
 * The tasks the form offers: in `update` every open task (plus the preselected one, whatever its status),
 * read by the status index; otherwise the one task of the request.
 */
async function loadChoices(
  db: SyncDb,
  mode: ScheduleChangeDialogProps['mode'],
  taskId: string | null,
): Promise<TaskChoice[]> {
  const tasks: TaskRow[] = [];
  if (mode === 'update') tasks.push(...(await db.tasks.where('status').anyOf(OPEN_STATUSES).toArray()));
  if (taskId && !tasks.some((t) => t.id === taskId)) {
    const one = await db.tasks.get(taskId);
    if (one) tasks.push(one);
  }
  const projectIds = [...new Set(tasks.map((t) => t.projectId).filter((p): p is string => !!p))];
  const projects = await db.projects.bulkGet(projectIds);
  const names = new Map(projects.flatMap((p) => (p?.name ? [[p.id, p.name] as const] : [])));
  return tasks
    .map((t) => ({ id: t.id, label: taskLabel(t, names), dueDate: t.dueDate ?? null }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Reads what the form needs from the device, then mounts the form with its defaults. */
function ScheduleChangeLoader(props: ScheduleChangeDialogProps) {
  const db = useSyncDb();
  const taskId = props.mode === 'edit' ? (props.change?.taskId ?? null) : (props.taskId ?? null);
  const choices = useLiveQuery(() => loadChoices(db, props.mode, taskId), [db, props.mode, taskId]);
  // The form loads its defaults once: later changes to the task list must not reset what the user typed.
  const [loaded, setLoaded] = useState<TaskChoice[] | null>(null);
  if (choices && !loaded) setLoaded(choices);
  if (!loaded) return <Spinner label="Loading..." className="py-6" />;
  return <ScheduleChangeForm {...props} taskId={taskId} choices={choices ?? loaded} />;
}

/**
 * The company's time zone from the session. A screen's component test may mount this dialog without a
 * session provider; days are then counted in UTC rather than failing the whole screen.
 */
function useCompanyTimeZone(): string {
  let zone: string | undefined;
  try {
    zone = useSession().user?.companyTimeZone;
  } catch {
    zone = undefined;
  }
  return zoneOrDefault(zone);
}

function FormField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

const fieldProps = (id: string, error: string | undefined) =>
  ({
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  }) as const;

function ScheduleChangeForm({
  mode,
  onOpenChange,
  taskId,
  originalDate,
  change,
  choices,
}: ScheduleChangeDialogProps & { choices: TaskChoice[] }) {
  const db = useSyncDb();
  const write = useLocalWrite();
  const savedToast = useSavedToast(db);
  const timeZone = useCompanyTimeZone();
  const base = useId();
  const id = (name: string) => `${base}-${name}`;

  const [setup] = useState(() => {
    const now = appNow();
    const dueOf = (task: string) => choices.find((c) => c.id === task)?.dueDate ?? null;
    const presetOriginal = originalDate ?? (taskId ? dueOf(taskId) : null);
    let initial: ScheduleChangeFormValues = emptyScheduleChangeForm(now, timeZone);
    if (mode === 'edit' && change) {
      initial = {
        taskId: change.taskId ?? '',
        reason: change.reason ?? '',
        originalDate: toDayInput(change.originalDate),
        newDate: toDayInput(change.newDate),
      };
    } else if (taskId) {
      // Spec 02 section 5: the original date defaults to the task's due date.
      initial = { ...initial, taskId, originalDate: toDayInput(presetOriginal) };
    }
    const schema = scheduleChangeFormSchema({
      mode,
      now,
      timeZone,
      initial,
      storedOriginal: (task) =>
        mode === 'edit'
          ? (change?.originalDate ?? null)
          : task === taskId && presetOriginal
            ? presetOriginal
            : dueOf(task),
      storedNew: change?.newDate ?? null,
    });
    return { initial, schema, today: emptyScheduleChangeForm(now, timeZone).newDate };
  });

  const form = usePatchForm(setup.schema, setup.initial);
  const { errors: fieldErrors, isSubmitting: saving } = form.formState;
  const errors = {
    taskId: fieldErrors.taskId?.message,
    reason: fieldErrors.reason?.message,
    originalDate: fieldErrors.originalDate?.message,
    newDate: fieldErrors.newDate?.message,
  };
  const [failure, setFailure] = useState<string | null>(null);
  const selectedTask = form.watch('taskId');
  const fixedTask = mode !== 'update';
  const fixedLabel = useMemo(
    () => choices.find((c) => c.id === setup.initial.taskId)?.label ?? 'Unknown task',
    [choices, setup.initial.taskId],
  );
  const knownSelected = selectedTask === '' || choices.some((c) => c.id === selectedTask);

  const submit = form.submitPatch(async (data, changed) => {
    setFailure(null);
    try {
      if (mode === 'edit') {
        if (!change) throw new Error('No request to edit');
        const { taskId: _fixed, ...patch } = changed;
        if (Object.keys(patch).length > 0) {
          await write('schedule_changes', 'patch', change.id, patch);
          void savedToast(change.id, { title: UPDATED });
        }
      } else {
        const rowId = newId();
        // userId is accepted and ignored by the server (the requester is the session user); the device sets
        // it so the request shows as this user's until the server's row arrives.
        await write('schedule_changes', 'create', rowId, {
          taskId: data.taskId,
          reason: data.reason,
          originalDate: data.originalDate,
          newDate: data.newDate,
          userId: db.scope.userId,
        });
        void savedToast(rowId, { title: SUBMITTED });
      }
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    }
  });

  const onTaskChange = (next: string) => {
    form.setValue('taskId', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    const due = choices.find((c) => c.id === next)?.dueDate;
    // The original date follows the chosen task (its due date), as when the dialog opens with a task.
    form.setValue('originalDate', due ? toDayInput(due) : setup.today, {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
      {failure && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">{SUBMIT_FAILED}</p>
          <p>{failure}</p>
        </div>
      )}
      <FormField id={id('task')} label="Task" error={errors.taskId}>
        {fixedTask ? (
          // A textarea, so a long "<task> - <project>" wraps on a phone instead of being cut off.
          <Textarea
            id={id('task')}
            value={fixedLabel}
            readOnly
            aria-readonly="true"
            rows={fixedLabel.length > 40 ? 2 : 1}
            className="min-h-0 resize-none bg-slate-50"
          />
        ) : (
          <select
            {...fieldProps(id('task'), errors.taskId)}
            value={selectedTask}
            onChange={(e) => onTaskChange(e.target.value)}
            // The form mounts after the dialog opened (it waits for the device read): focus its first field.
            autoFocus
            className={cn(fieldClasses, 'h-11 md:h-10')}
          >
            <option value="">Select a task</option>
            {!knownSelected && <option value={selectedTask}>Unknown task</option>}
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id={id('reason')} label="Reason for Schedule Change" error={errors.reason}>
        <Textarea
          {...fieldProps(id('reason'), errors.reason)}
          {...form.register('reason')}
          autoFocus={fixedTask}
          aria-required="true"
          placeholder="Why does the date need to move?"
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('original')} label="Original Date" error={errors.originalDate}>
          <Input
            {...fieldProps(id('original'), errors.originalDate)}
            type="date"
            readOnly={mode === 'request'}
            aria-readonly={mode === 'request' ? 'true' : undefined}
            className={mode === 'request' ? 'bg-slate-50' : undefined}
            {...form.register('originalDate')}
          />
        </FormField>
        <FormField id={id('new')} label="New Requested Date" error={errors.newDate}>
          <Input
            {...fieldProps(id('new'), errors.newDate)}
            type="date"
            min={setup.today}
            aria-required="true"
            {...form.register('newDate')}
          />
        </FormField>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {mode === 'edit' ? 'Save Changes' : 'Submit Request'}
        </Button>
      </DialogFooter>
    </form>
  );
}
