import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import type { AdminCompany, AdminRole, AdminUser } from '../hooks/use-admin-data.ts';
import { grantableRoles, roleLabel } from '../utils/admin-lists.ts';
import { userFormSchema, type UserFormOutput, type UserFormValues } from '../utils/forms.ts';
import { fieldProps, FormAlert, FormField } from '#web/components/ui/form-field.tsx';

export interface UserFormDialogProps {
  mode: 'create' | 'edit';
  onOpenChange: (open: boolean) => void;
  /** The user being edited. */
  user?: AdminUser;
  /** Companies the caller may choose from; a company admin has only its own (and cannot change it). */
  companies: readonly AdminCompany[];
  roles: readonly AdminRole[];
  callerIsRoot: boolean;
  /** The company a new user starts in (the caller's own). */
  defaultCompanyId: string;
  /** Saves: `data` is the whole form (create), `changed` only what the user changed (edit). Throws to stay open. */
  onSubmit: (data: UserFormOutput, changed: Partial<UserFormOutput>) => Promise<void>;
}

/** Add User and Edit User (spec 02 sections 2 and 5). Mounted when it opens, so it starts afresh. */
export function UserFormDialog({
  mode,
  onOpenChange,
  user,
  companies,
  roles,
  callerIsRoot,
  defaultCompanyId,
  onSubmit,
}: UserFormDialogProps) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const [schema] = useState(() => userFormSchema(mode));
  const form = usePatchForm<UserFormValues, UserFormOutput>(schema, {
    email: user?.email ?? '',
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    company_id: user?.company_id ?? defaultCompanyId,
    role_id: user?.role_id ? String(user.role_id) : '',
    password: '',
  });
  const { errors, isSubmitting } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);
  const companyId = form.watch('company_id');
  const email = form.watch('email');
  const roleChoices = grantableRoles(roles, companyId, callerIsRoot);
  // Root chooses the company of a new user; nobody moves a user to another company.
  const companyLocked = mode === 'edit' || !callerIsRoot;

  const submit = form.submitPatch(async (data, changed) => {
    setFailure(null);
    try {
      await onSubmit(data, changed);
      onOpenChange(false);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  });

  const title = mode === 'create' ? 'Add User' : 'Edit User';
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        description={
          mode === 'create'
            ? 'The new user gets a one-time password and sets their own at first sign-in.'
            : 'Change the user’s details or role.'
        }
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid grid-cols-1 gap-4">
          <FormAlert
            title={mode === 'create' ? 'Failed to create user' : 'Failed to update user'}
            message={failure}
          />
          <FormAlert message={errors.root?.message} />
          <FormField id={id('email')} label="Email" required error={errors.email?.message}>
            <Input
              {...fieldProps(id('email'), errors.email?.message)}
              {...form.register('email')}
              type="email"
              autoComplete="off"
              aria-required="true"
            />
          </FormField>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField id={id('first')} label="First Name" required error={errors.first_name?.message}>
              <Input
                {...fieldProps(id('first'), errors.first_name?.message)}
                {...form.register('first_name')}
                autoComplete="off"
                aria-required="true"
              />
            </FormField>
            <FormField id={id('last')} label="Last Name" required error={errors.last_name?.message}>
              <Input
                {...fieldProps(id('last'), errors.last_name?.message)}
                {...form.register('last_name')}
                autoComplete="off"
                aria-required="true"
              />
            </FormField>
          </div>
          <FormField
            id={id('company')}
            label="Company"
            required
            error={errors.company_id?.message}
            hint={mode === 'edit' ? 'Users cannot change companies' : undefined}
          >
            <Controller
              control={form.control}
              name="company_id"
              render={({ field }) => (
                <Select
                  value={field.value}
                  disabled={companyLocked}
                  onValueChange={(v) => {
                    field.onChange(v);
                    // A role of the previous company is not grantable in the new one.
                    const role = roles.find((r) => String(r.id) === form.getValues('role_id'));
                    if (role && !grantableRoles([role], v, callerIsRoot).length) form.setValue('role_id', '');
                  }}
                >
                  <SelectTrigger {...fieldProps(id('company'), errors.company_id?.message)}>
                    <SelectValue placeholder="Select a company" />
                  </SelectTrigger>
                  <SelectContent>
                    {companies.map((c) => (
                      <SelectItem key={c.id} value={c.id}>
                        {c.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          <FormField id={id('role')} label="Role" required error={errors.role_id?.message}>
            <Controller
              control={form.control}
              name="role_id"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger {...fieldProps(id('role'), errors.role_id?.message)}>
                    <SelectValue placeholder="Select a role" />
                  </SelectTrigger>
                  <SelectContent>
                    {roleChoices.map((r) => (
                      <SelectItem key={r.id} value={String(r.id)}>
                        {roleLabel(r)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          {mode === 'edit' && (
            <FormField
              id={id('password')}
              label="New password"
              error={errors.password?.message}
              hint="Leave blank to keep the current password. A new one must be changed at the next sign-in."
            >
              <Input
                {...fieldProps(id('password'), errors.password?.message)}
                {...form.register('password')}
                type="password"
                autoComplete="new-password"
              />
            </FormField>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting || (mode === 'edit' && !email.trim())}>
              {isSubmitting ? 'Saving...' : mode === 'create' ? 'Create User' : 'Update User'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
