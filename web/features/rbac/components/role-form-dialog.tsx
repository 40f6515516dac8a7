import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { kindMayHold, ROLE_TEMPLATES } from '#shared/permissions.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { usePatchForm } from '#web/lib/form-patch.ts';
import type { AdminCompany, AdminPermission, AdminRole } from '../hooks/use-admin-data.ts';
import { permissionsByCategory } from '../utils/admin-lists.ts';
import {
  EDITABLE_ROLE_KINDS,
  roleFormSchema,
  type RoleFormOutput,
  type RoleFormValues,
} from '../utils/forms.ts';
import { fieldProps, FormAlert, FormField } from '#web/components/ui/form-field.tsx';

/** Radix Select has no empty value: this stands for "no company" (a role every company can use). */
const NO_COMPANY = 'none';

export interface RoleFormDialogProps {
  mode: 'create' | 'edit';
  role?: AdminRole;
  companies: readonly AdminCompany[];
  permissions: readonly AdminPermission[];
  onOpenChange: (open: boolean) => void;
  onSubmit: (data: RoleFormOutput, changed: Partial<RoleFormOutput>) => Promise<void>;
}

/** Create Role / Edit Role (spec 02 section 2; DECISIONS.md: the card's edit button edits the role). */
export function RoleFormDialog({
  mode,
  role,
  companies,
  permissions,
  onOpenChange,
  onSubmit,
}: RoleFormDialogProps) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const [schema] = useState(() => roleFormSchema(mode));
  const form = usePatchForm<RoleFormValues, RoleFormOutput>(schema, {
    name: role?.name ?? '',
    company_id: role?.company_id ?? '',
    description: role?.description ?? '',
    is_template: role?.is_template ?? false,
    permissions: role?.permissions ?? [],
    kind: role?.kind ?? 'crew',
  });
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
  const categories = permissionsByCategory(permissions);
  // The root role's kind is fixed; the other template kinds are the choices of a custom role.
  const kindLocked = role?.kind === 'root';
  const kind = form.watch('kind');

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-2xl"
        title={mode === 'create' ? 'Create Role' : 'Edit Role'}
        description="A role is a named list of permissions; every user has one."
        hideDescription
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="grid grid-cols-1 gap-4">
          <FormAlert
            title={mode === 'create' ? 'Failed to create role' : 'Failed to update role'}
            message={failure}
          />
          <FormAlert message={errors.root?.message} />
          <FormField id={id('name')} label="Role name" required error={errors.name?.message}>
            <Input
              {...fieldProps(id('name'), errors.name?.message)}
              {...form.register('name')}
              autoComplete="off"
              aria-required="true"
            />
          </FormField>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField id={id('company')} label="Company" error={errors.company_id?.message}>
              <Controller
                control={form.control}
                name="company_id"
                render={({ field }) => (
                  <Select
                    value={field.value || NO_COMPANY}
                    onValueChange={(v) => field.onChange(v === NO_COMPANY ? '' : v)}
                  >
                    {/* The ref lets the form focus (and so scroll to) this field when its value is refused. */}
                    <SelectTrigger ref={field.ref} {...fieldProps(id('company'), errors.company_id?.message)}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value={NO_COMPANY}>All companies</SelectItem>
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
            <FormField id={id('kind')} label="Based on" error={errors.kind?.message}>
              <Controller
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange} disabled={kindLocked}>
                    <SelectTrigger ref={field.ref} {...fieldProps(id('kind'), errors.kind?.message)}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {(kindLocked ? (['root'] as const) : EDITABLE_ROLE_KINDS).map((k) => (
                        <SelectItem key={k} value={k}>
                          {ROLE_TEMPLATES[k].name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
          </div>
          <FormField id={id('description')} label="Description" error={errors.description?.message}>
            <Textarea
              {...fieldProps(id('description'), errors.description?.message)}
              {...form.register('description')}
            />
          </FormField>
          <label
            htmlFor={id('template')}
            className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800"
          >
            <input
              id={id('template')}
              type="checkbox"
              className="h-5 w-5 accent-teal-700"
              {...form.register('is_template')}
            />
            Template role (usable by every company)
          </label>
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => {
              const chosen = new Set(field.value);
              const toggle = (pid: number, on: boolean) =>
                field.onChange(
                  on ? [...field.value, pid].sort((a, b) => a - b) : field.value.filter((x) => x !== pid),
                );
              return (
                <div className="grid gap-3">
                  <p className="text-sm font-medium text-slate-800">
                    Permissions <span className="font-normal text-slate-600">({chosen.size} selected)</span>
                  </p>
                  {errors.permissions?.message && (
                    <p role="alert" className="text-sm text-red-600">
                      {errors.permissions.message}
                    </p>
                  )}
                  {categories.map(({ category, permissions: list }) => (
                    <fieldset key={category} className="rounded-md border border-slate-200 p-3">
                      <legend className="px-1 text-sm font-semibold text-slate-900">{category}</legend>
                      <div className="grid gap-1 sm:grid-cols-2">
                        {list.map((p) => {
                          // The server refuses it too; one ticked before the kind changed can still be unticked.
                          const refused = !kindMayHold(kind, p.name);
                          return (
                            <label
                              key={p.id}
                              className="flex min-h-11 items-start gap-2 py-1 text-sm md:min-h-0"
                            >
                              <input
                                type="checkbox"
                                className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700"
                                checked={chosen.has(p.id)}
                                disabled={refused && !chosen.has(p.id)}
                                onChange={(e) => toggle(p.id, e.target.checked)}
                                aria-describedby={`${id('perm')}-${p.id}`}
                              />
                              <span>
                                <span className="font-mono text-slate-900">{p.name}</span>
                                <span id={`${id('perm')}-${p.id}`} className="block text-xs text-slate-600">
                                  {p.description}
                                  {refused && ' (only the Platform Administrator role)'}
                                </span>
                              </span>
                            </label>
                          );
                        })}
                      </div>
                    </fieldset>
                  ))}
                </div>
              );
            }}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Saving...' : mode === 'create' ? 'Create Role' : 'Update Role'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
