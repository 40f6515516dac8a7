import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { RISK_LEVELS3, RISK_STATUSES, RISK_TYPES } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ChoiceSelect } from '#web/components/ui/choice-select.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { fieldProps, FormAlert, FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import type { HealthProjectRow, ManagerRow, RiskCreateBody } from '../hooks/use-health-data.ts';
import { GRADE_LABELS, RISK_STATUS_LABELS, RISK_TYPE_LABELS } from '../utils/labels.ts';
import { emptyRiskForm, riskFormSchema, type RiskField } from '../utils/risk-form.ts';

const UNASSIGNED = 'unassigned';

/**
 * 'Add Risk' (spec 02 sections 2 and 5). Mount it when it opens: the form starts afresh, on the project
 * picked in the screen's selector. A failed save keeps the dialog open with what was typed.
 */
export function AddRiskDialog({
  open,
  onOpenChange,
  projects,
  managers,
  initialProjectId,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  projects: readonly HealthProjectRow[];
  managers: readonly ManagerRow[];
  initialProjectId: string;
  onSubmit: (body: RiskCreateBody) => Promise<void>;
}) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const form = usePatchForm(riskFormSchema, emptyRiskForm(initialProjectId));
  const { errors: fieldErrors, isSubmitting } = form.formState;
  const error = (f: RiskField) => fieldErrors[f]?.message;
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.submitPatch(async (body) => {
    setFailure(null);
    try {
      await onSubmit(body);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error && err.message ? err.message : String(err));
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Add Risk" description="Record a risk to a project." hideDescription>
        <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4">
          <FormAlert title="Failed to create risk assessment" message={failure} />
          <FormField id={id('project')} label="Project" required error={error('projectId')}>
            <Controller
              control={form.control}
              name="projectId"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger {...fieldProps(id('project'), error('projectId'))} aria-required="true">
                    <SelectValue placeholder="Select a project" />
                  </SelectTrigger>
                  <SelectContent>
                    {projects.map((p) => (
                      <SelectItem key={p.id} value={p.id}>
                        {p.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          <FormField id={id('title')} label="Risk title" required error={error('riskTitle')}>
            <Input
              {...fieldProps(id('title'), error('riskTitle'))}
              {...form.register('riskTitle')}
              aria-required="true"
              autoComplete="off"
            />
          </FormField>
          <FormField id={id('description')} label="Description" error={error('riskDescription')}>
            <Textarea
              {...fieldProps(id('description'), error('riskDescription'))}
              {...form.register('riskDescription')}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('type')} label="Risk type" error={error('riskType')}>
              <Controller
                control={form.control}
                name="riskType"
                render={({ field }) => (
                  <ChoiceSelect
                    id={id('type')}
                    error={error('riskType')}
                    value={field.value}
                    onValueChange={field.onChange}
                    choices={RISK_TYPES}
                    labels={RISK_TYPE_LABELS}
                  />
                )}
              />
            </FormField>
            <FormField id={id('status')} label="Status" error={error('status')}>
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <ChoiceSelect
                    id={id('status')}
                    error={error('status')}
                    value={field.value}
                    onValueChange={field.onChange}
                    choices={RISK_STATUSES}
                    labels={RISK_STATUS_LABELS}
                  />
                )}
              />
            </FormField>
            <FormField id={id('probability')} label="Probability" error={error('probability')}>
              <Controller
                control={form.control}
                name="probability"
                render={({ field }) => (
                  <ChoiceSelect
                    id={id('probability')}
                    error={error('probability')}
                    value={field.value}
                    onValueChange={field.onChange}
                    choices={RISK_LEVELS3}
                    labels={GRADE_LABELS}
                  />
                )}
              />
            </FormField>
            <FormField id={id('impact')} label="Impact" error={error('impact')}>
              <Controller
                control={form.control}
                name="impact"
                render={({ field }) => (
                  <ChoiceSelect
                    id={id('impact')}
                    error={error('impact')}
                    value={field.value}
                    onValueChange={field.onChange}
                    choices={RISK_LEVELS3}
                    labels={GRADE_LABELS}
                  />
                )}
              />
            </FormField>
          </div>
          <FormField id={id('mitigation')} label="Mitigation plan" error={error('mitigationPlan')}>
            <Textarea
              {...fieldProps(id('mitigation'), error('mitigationPlan'))}
              {...form.register('mitigationPlan')}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id={id('assignee')} label="Assigned to" error={error('assignedTo')}>
              <Controller
                control={form.control}
                name="assignedTo"
                render={({ field }) => (
                  <Select
                    value={field.value || UNASSIGNED}
                    onValueChange={(v) => field.onChange(v === UNASSIGNED ? '' : v)}
                  >
                    <SelectTrigger {...fieldProps(id('assignee'), error('assignedTo'))}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value={UNASSIGNED}>Unassigned</SelectItem>
                      {managers.map((m) => (
                        <SelectItem key={m.id} value={m.id}>
                          {m.name ?? m.id}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            <FormField id={id('due')} label="Due date" error={error('dueDate')}>
              <Input {...fieldProps(id('due'), error('dueDate'))} type="date" {...form.register('dueDate')} />
            </FormField>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Saving...' : 'Add Risk'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
