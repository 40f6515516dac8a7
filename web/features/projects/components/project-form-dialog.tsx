import { useId, useState, type FormEvent } from 'react';
import { PROJECT_STATUSES } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import type { FieldErrors } from '../utils/field-errors.ts';
import { PROJECT_STATUS_LABELS } from '../utils/labels.ts';
import {
  emptyProjectForm,
  minDueDate,
  validateProjectForm,
  type ProjectField,
  type ProjectFields,
  type ProjectFormValues,
  type ProjectStatus,
} from '../utils/project-form.ts';
import { fieldProps, FormField } from './form-field.tsx';

export interface ProjectFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'edit';
  /** The values the form opens with (the project's, on edit). */
  initial?: ProjectFormValues;
  /** Saves the project; a thrown error is shown in the dialog, which stays open with what was typed. */
  onSubmit: (data: ProjectFields) => Promise<void>;
}

/**
 * 'Create New Project' and 'Edit Project' (spec 01 sections 2 and 5). Mount it when it opens: the form
 * starts from `initial` each time.
 */
export function ProjectFormDialog({ open, onOpenChange, mode, initial, onSubmit }: ProjectFormDialogProps) {
  const base = useId();
  const [values, setValues] = useState<ProjectFormValues>(() => initial ?? emptyProjectForm());
  const [errors, setErrors] = useState<FieldErrors<ProjectField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = <K extends ProjectField>(key: K, value: ProjectFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const result = validateProjectForm(values, { mode, now: new Date(), initialDueDate: initial?.dueDate });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setSaving(true);
    try {
      await onSubmit(result.data);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  const id = (name: string) => `${base}-${name}`;
  const title = mode === 'create' ? 'Create New Project' : 'Edit Project';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        description={mode === 'create' ? 'Add a project to your company.' : 'Change the project details.'}
        hideDescription
      >
        <form noValidate onSubmit={submit} className="grid gap-4">
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
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('description')} label="Description" error={errors.description}>
            <Textarea
              {...fieldProps(id('description'), errors.description)}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
            />
          </FormField>
          <FormField id={id('location')} label="Location" required error={errors.location}>
            <Input
              {...fieldProps(id('location'), errors.location)}
              value={values.location}
              onChange={(e) => set('location', e.target.value)}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('status')} label="Status" error={errors.status}>
              <Select value={values.status} onValueChange={(v) => set('status', v as ProjectStatus)}>
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
            </FormField>
            <FormField id={id('progress')} label="Progress (%)" error={errors.progress}>
              <Input
                {...fieldProps(id('progress'), errors.progress)}
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={1}
                value={values.progress}
                onChange={(e) => set('progress', e.target.value)}
              />
            </FormField>
          </div>
          <FormField id={id('due')} label="Due date" error={errors.dueDate}>
            <Input
              {...fieldProps(id('due'), errors.dueDate)}
              type="date"
              min={minDueDate(mode, new Date())}
              value={values.dueDate}
              onChange={(e) => set('dueDate', e.target.value)}
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
