import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { COMPANY_STATUSES, COMPANY_TYPES, SUBSCRIPTION_TIERS } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import type { AdminCompany } from '../hooks/use-admin-data.ts';
import { capitalize } from '../utils/admin-lists.ts';
import {
  companyFormSchema,
  emptyCompanyForm,
  type CompanyFormOutput,
  type CompanyFormValues,
} from '../utils/forms.ts';
import { fieldProps, FormAlert, FormField } from '#web/components/ui/form-field.tsx';

export interface CompanyFormDialogProps {
  mode: 'create' | 'edit';
  company?: AdminCompany;
  onOpenChange: (open: boolean) => void;
  onSubmit: (data: CompanyFormOutput, changed: Partial<CompanyFormOutput>) => Promise<void>;
}

function choice<T extends string>(values: readonly T[], label = capitalize) {
  return values.map((v) => (
    <SelectItem key={v} value={v}>
      {label(v)}
    </SelectItem>
  ));
}

/**
 * Add Company / Edit Company (spec 02 sections 2 and 5). A new company's time zone starts as this
 * browser's (issue 13) and can be changed; a blank domain is generated from the name by the server.
 */
export function CompanyFormDialog({ mode, company, onOpenChange, onSubmit }: CompanyFormDialogProps) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const [schema] = useState(() => companyFormSchema(mode));
  const form = usePatchForm<CompanyFormValues, CompanyFormOutput>(
    schema,
    company
      ? {
          name: company.name,
          domain: company.domain ?? '',
          status: company.status,
          settings: { ...company.settings },
          time_zone: company.time_zone,
        }
      : emptyCompanyForm(),
  );
  const { errors, isSubmitting } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);
  const submit = form.submitPatch(async (data, changed) => {
    setFailure(null);
    try {
      await onSubmit(data, changed);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  });

  const select = (
    name: 'status' | 'settings.type' | 'settings.subscription_tier',
    label: string,
    values: readonly string[],
  ) => (
    <FormField id={id(name)} label={label}>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger id={id(name)}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>{choice(values)}</SelectContent>
          </Select>
        )}
      />
    </FormField>
  );

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={mode === 'create' ? 'Add Company' : 'Edit Company'}
        description={
          mode === 'create' ? 'Add a customer or partner company.' : 'Change the company’s details.'
        }
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid grid-cols-1 gap-4">
          <FormAlert
            title={mode === 'create' ? 'Failed to create company' : 'Failed to update company'}
            message={failure}
          />
          <FormAlert message={errors.root?.message} />
          <FormField id={id('name')} label="Company name" required error={errors.name?.message}>
            <Input
              {...fieldProps(id('name'), errors.name?.message)}
              {...form.register('name')}
              autoComplete="off"
              aria-required="true"
            />
          </FormField>
          <FormField
            id={id('domain')}
            label="Domain"
            error={errors.domain?.message}
            hint={
              mode === 'create'
                ? 'Leave blank to generate one from the name.'
                : 'Leave blank to keep the current one.'
            }
          >
            <Input
              {...fieldProps(id('domain'), errors.domain?.message)}
              {...form.register('domain')}
              autoComplete="off"
              inputMode="url"
              placeholder="example.com"
            />
          </FormField>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            {select('settings.type', 'Type', COMPANY_TYPES)}
            {select('settings.subscription_tier', 'Tier', SUBSCRIPTION_TIERS)}
            {select('status', 'Status', COMPANY_STATUSES)}
          </div>
          <FormField
            id={id('tz')}
            label="Time zone"
            error={errors.time_zone?.message}
            hint="What “today” means for this company’s due dates, e.g. America/Chicago."
          >
            <Input
              {...fieldProps(id('tz'), errors.time_zone?.message)}
              {...form.register('time_zone')}
              autoComplete="off"
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Saving...' : mode === 'create' ? 'Create Company' : 'Update Company'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
