import { appNow } from '#web/lib/app-clock.ts';
import { useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { PROJECT_STATUSES } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import { PROJECT_STATUS_LABELS } from '../utils/labels.ts';
import {
  emptyProjectForm,
  minDueDate,
  projectFormSchema,
  type ProjectFields,
  type ProjectFormValues,
} from '../utils/project-form.ts';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';

export interface ProjectFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'edit';
  /** The values the form opens with (the project's, on edit). */
  initial?: ProjectFormValues;
  /** The stored due date (ISO) on edit: a new day keeps its time of day. */
  storedDueDate?: string | null;
  /** The company's time zone: what "today" is for the due date picker. */
  timeZone: string;
  /**
   * Saves the project: `data` is the whole form (a create sends it), `changed` only the fields the user
   * changed (an edit sends that). A thrown error is shown in the dialog, which stays open with what was typed.
   */
  onSubmit?: (data: ProjectFields, changed: Partial<ProjectFields>) => Promise<void>;
  /**
   * Instead of `onSubmit`, for an edit shown on the screen before it commits: a valid form closes the dialog
   * in the same tap and hands over what to write and what was typed (`values`); the caller reports a
   * failed write and can open the dialog again with `draft` and `failure`.
   */
  onSave?: (data: ProjectFields, changed: Partial<ProjectFields>, values: ProjectFormValues) => void;
  /** What the user typed in a save that failed: shown over `initial`, as changes still to save. */
  draft?: ProjectFormValues;
  /** Why that save failed, shown at the top of the form. */
  failure?: string;
}

/**
 * 'Create New Project' and 'Edit Project' (spec 01 sections 2 and 5). Mount it when it opens: the form
 * starts from `initial` each time.
 */
export function ProjectFormDialog({
  open,
  onOpenChange,
  mode,
  initial,
  storedDueDate,
  timeZone,
  onSubmit,
  onSave,
  draft,
  failure: failed,
}: ProjectFormDialogProps) {
  const base = useId();
  const [schema] = useState(() =>
    projectFormSchema({ mode, now: appNow(), timeZone, initialDueDate: initial?.dueDate, storedDueDate }),
  );
  const form = usePatchForm(schema, initial ?? emptyProjectForm());
  // Typed over the loaded values once the form is mounted (react-hook-form marks a field dirty only for
  // the form state it has subscribed by then), so they count as changes and a save sends them.
  const [draftOnOpen] = useState(draft);
  const { getValues, setValue } = form;
  useEffect(() => {
    if (!draftOnOpen) return;
    for (const key of Object.keys(draftOnOpen) as (keyof ProjectFormValues)[]) {
      if (draftOnOpen[key] !== getValues(key)) setValue(key, draftOnOpen[key], { shouldDirty: true });
    }
  }, [draftOnOpen, getValues, setValue]);
  const { errors: fieldErrors, isSubmitting: saving } = form.formState;
  const errors = {
    name: fieldErrors.name?.message,
    description: fieldErrors.description?.message,
    location: fieldErrors.location?.message,
    status: fieldErrors.status?.message,
    progress: fieldErrors.progress?.message,
    dueDate: fieldErrors.dueDate?.message,
  };
  const [failure, setFailure] = useState<string | null>(failed ?? null);

  const submit = onSave
    ? form.submitPatchNow((data, changed) => {
        onSave(data, changed, form.getValues());
        onOpenChange(false);
      })
    : form.submitPatch(async (data, changed) => {
        setFailure(null);
        try {
          await onSubmit?.(data, changed);
          onOpenChange(false);
        } catch (err) {
          setFailure(err instanceof Error && err.message ? err.message : String(err));
        }
      });

  const id = (name: string) => `${base}-${name}`;
  const title = mode === 'create' ? 'Create New Project' : 'Edit Project';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        description={mode === 'create' ? 'Add a project to your company.' : 'Change the project details.'}
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          {failure && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">
                {mode === 'create' ? 'Failed to create project' : 'Failed to update project'}
              </p>
              <p>{failure}</p>
            </div>
          )}
          <FormField id={id('name')} label="Name" required error={errors.name}>
            <Input
              {...fieldProps(id('name'), errors.name)}
              {...form.register('name')}
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
          <FormField id={id('location')} label="Location" required error={errors.location}>
            <Input
              {...fieldProps(id('location'), errors.location)}
              {...form.register('location')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('status')} label="Status" error={errors.status}>
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger {...fieldProps(id('status'), errors.status)}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {PROJECT_STATUSES.map((s) => (
                        <SelectItem key={s} value={s}>
                          {PROJECT_STATUS_LABELS[s]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            <FormField id={id('progress')} label="Progress (%)" error={errors.progress}>
              <Input
                {...fieldProps(id('progress'), errors.progress)}
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={1}
                {...form.register('progress')}
              />
            </FormField>
          </div>
          <FormField id={id('due')} label="Due date" error={errors.dueDate}>
            <Input
              {...fieldProps(id('due'), errors.dueDate)}
              type="date"
              min={minDueDate(mode, appNow(), timeZone)}
              {...form.register('dueDate')}
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {mode === 'create' ? 'Create Project' : 'Save Changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
