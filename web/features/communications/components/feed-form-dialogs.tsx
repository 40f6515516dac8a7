import { useId } from 'react';
import { COMMUNICATION_PRIORITIES, COMMUNICATION_TYPES } from '#shared/enums.ts';
import type { ProjectRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ChoiceSelect } from '#web/components/ui/choice-select.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { fieldProps, FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import {
  changeOrderFormSchema,
  communicationFormSchema,
  PRIORITY_LABELS,
  TYPE_LABELS,
  type ChangeOrderFields,
  type ChangeOrderFormValues,
  type CommunicationFields,
  type CommunicationFormValues,
} from '../utils/feed-forms.ts';

export const NEW_COMMUNICATION = 'New Communication';
export const NEW_CHANGE_ORDER = 'New Change Order';

function ProjectSelect({
  id,
  error,
  value,
  projects,
  onValueChange,
}: {
  id: string;
  error: string | undefined;
  value: string;
  projects: readonly ProjectRow[];
  onValueChange: (value: string) => void;
}) {
  return (
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger
        {...fieldProps(id, error)}
        aria-required="true"
        className="min-w-0 text-left [&>span]:truncate"
      >
        <SelectValue placeholder="Select a project" />
      </SelectTrigger>
      <SelectContent>
        {projects.map((p) => (
          <SelectItem key={p.id} value={p.id}>
            {p.name ?? 'Untitled project'}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

interface FormDialogProps<V, F> {
  initial: V;
  projects: readonly ProjectRow[];
  onOpenChange: (open: boolean) => void;
  /** Saves on the device; a thrown error keeps the dialog open with what was typed. */
  onSubmit: (fields: F) => Promise<void>;
}

/** New communication: subject, message, type, priority and project (spec 01 sections 2 and 5). */
export function CommunicationFormDialog({
  initial,
  projects,
  onOpenChange,
  onSubmit,
}: FormDialogProps<CommunicationFormValues, CommunicationFields>) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const form = usePatchForm(communicationFormSchema, initial);
  const { errors, isSubmitting: saving } = form.formState;
  const values = form.watch();
  const set = (name: 'projectId' | 'type' | 'priority', value: string) =>
    form.setValue(name, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  const submit = form.submitPatch(async (data) => {
    await onSubmit(data).then(
      () => onOpenChange(false),
      () => undefined,
    );
  });
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={NEW_COMMUNICATION}
        description="Send a message, dispute or invoice note"
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          <FormField id={id('subject')} label="Subject" required error={errors.subject?.message}>
            <Input
              {...fieldProps(id('subject'), errors.subject?.message)}
              {...form.register('subject')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('message')} label="Message" required error={errors.message?.message}>
            <Textarea
              {...fieldProps(id('message'), errors.message?.message)}
              {...form.register('message')}
              aria-required="true"
              rows={4}
            />
          </FormField>
          <div className="grid grid-cols-2 gap-4">
            <FormField id={id('type')} label="Type" error={errors.type?.message}>
              <ChoiceSelect
                id={id('type')}
                error={errors.type?.message}
                value={values.type}
                onValueChange={(v) => set('type', v)}
                choices={COMMUNICATION_TYPES}
                labels={TYPE_LABELS}
              />
            </FormField>
            <FormField id={id('priority')} label="Priority" error={errors.priority?.message}>
              <ChoiceSelect
                id={id('priority')}
                error={errors.priority?.message}
                value={values.priority}
                onValueChange={(v) => set('priority', v)}
                choices={COMMUNICATION_PRIORITIES}
                labels={PRIORITY_LABELS}
              />
            </FormField>
          </div>
          <FormField id={id('project')} label="Project" required error={errors.projectId?.message}>
            <ProjectSelect
              id={id('project')}
              error={errors.projectId?.message}
              value={values.projectId}
              projects={projects}
              onValueChange={(v) => set('projectId', v)}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Sending...' : 'Send'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * New change order: title, description, cost impact in dollars (parsed to cents, never multiplied), time
 * impact in days and project (spec 01 sections 2 and 5). It starts pending.
 */
export function ChangeOrderFormDialog({
  initial,
  projects,
  onOpenChange,
  onSubmit,
}: FormDialogProps<ChangeOrderFormValues, ChangeOrderFields>) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const form = usePatchForm(changeOrderFormSchema, initial);
  const { errors, isSubmitting: saving } = form.formState;
  const projectId = form.watch('projectId');
  const submit = form.submitPatch(async (data) => {
    await onSubmit(data).then(
      () => onOpenChange(false),
      () => undefined,
    );
  });
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={NEW_CHANGE_ORDER}
        description="Request a change to the scope, cost or time"
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          <FormField id={id('title')} label="Title" required error={errors.title?.message}>
            <Input
              {...fieldProps(id('title'), errors.title?.message)}
              {...form.register('title')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('description')} label="Description" required error={errors.description?.message}>
            <Textarea
              {...fieldProps(id('description'), errors.description?.message)}
              {...form.register('description')}
              aria-required="true"
              rows={4}
            />
          </FormField>
          <div className="grid grid-cols-2 gap-4">
            <FormField id={id('cost')} label="Cost Impact ($)" error={errors.costImpact?.message}>
              <Input
                {...fieldProps(id('cost'), errors.costImpact?.message)}
                {...form.register('costImpact')}
                inputMode="decimal"
                placeholder="0.00"
                autoComplete="off"
              />
            </FormField>
            <FormField id={id('days')} label="Time Impact (days)" error={errors.timeImpact?.message}>
              <Input
                {...fieldProps(id('days'), errors.timeImpact?.message)}
                {...form.register('timeImpact')}
                inputMode="numeric"
                placeholder="0"
                autoComplete="off"
              />
            </FormField>
          </div>
          <FormField id={id('project')} label="Project" required error={errors.projectId?.message}>
            <ProjectSelect
              id={id('project')}
              error={errors.projectId?.message}
              value={projectId}
              projects={projects}
              onValueChange={(v) =>
                form.setValue('projectId', v, {
                  shouldDirty: true,
                  shouldValidate: form.formState.isSubmitted,
                })
              }
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Submitting...' : 'Submit Change Order'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
