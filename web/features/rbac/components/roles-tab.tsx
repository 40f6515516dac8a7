import { useMemo, useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { TEMPLATE_ROLE_IDS } from '#shared/permissions.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import {
  adminErrorMessage,
  type AdminCompany,
  type AdminPermission,
  type AdminRole,
  type AdminWrites,
} from '../hooks/use-admin-data.ts';
import { rolePermissionSummary, roleScopeLabel } from '../utils/admin-lists.ts';
import { RoleFormDialog } from './role-form-dialog.tsx';

export interface RolesTabProps {
  roles: readonly AdminRole[];
  permissions: readonly AdminPermission[];
  companies: readonly AdminCompany[];
  writesDisabled: string | null;
  writes: AdminWrites;
}

type Editing = { mode: 'create' } | { mode: 'edit'; role: AdminRole } | null;

/** The Roles tab (spec 02 section 2), platform root only. */
export function RolesTab({ roles, permissions, companies, writesDisabled, writes }: RolesTabProps) {
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminRole | null>(null);
  const byId = useMemo(() => new Map(permissions.map((p) => [p.id, p])), [permissions]);
  const companyName = useMemo(() => new Map(companies.map((c) => [c.id, c.name])), [companies]);
  const off = writesDisabled !== null;

  const remove = async (role: AdminRole) => {
    try {
      await writes.deleteRole.mutateAsync(role.id);
      toast({ title: 'Role deleted successfully' });
    } catch (err) {
      toast({ title: 'Failed to delete role', description: adminErrorMessage(err), variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby="rbac-roles-heading" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="rbac-roles-heading" className="text-lg font-semibold text-slate-900">
          Roles
        </h2>
        <Button onClick={() => setEditing({ mode: 'create' })} disabled={off}>
          <Plus className="h-4 w-4" aria-hidden />
          Create Role
        </Button>
      </div>
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Roles">
        {roles.map((role) => {
          const summary = rolePermissionSummary(role, byId);
          return (
            <li key={role.id}>
              <Card className="h-full" aria-label={role.name}>
                <CardHeader className="gap-1">
                  <div className="flex items-start justify-between gap-2">
                    <div className="min-w-0">
                      <h3 className="font-semibold text-slate-900">{role.name}</h3>
                      <p className="text-xs text-slate-600">
                        {roleScopeLabel(role)}
                        {role.company_id
                          ? ` · ${companyName.get(role.company_id) ?? ''}`
                          : ' · All companies'}
                      </p>
                    </div>
                    <div className="flex shrink-0">
                      <Button
                        size="icon"
                        variant="ghost"
                        disabled={off}
                        aria-label={`Edit role ${role.name}`}
                        onClick={() => setEditing({ mode: 'edit', role })}
                      >
                        <Pencil className="h-4 w-4" aria-hidden="true" />
                      </Button>
                      {/* The five built-in roles cannot be deleted (the server answers 409): no button. */}
                      {!TEMPLATE_ROLE_IDS.has(role.id) && (
                        <Button
                          size="icon"
                          variant="ghost"
                          className="text-red-700"
                          disabled={off}
                          aria-label={`Delete role ${role.name}`}
                          onClick={() => setDeleting(role)}
                        >
                          <Trash2 className="h-4 w-4" aria-hidden="true" />
                        </Button>
                      )}
                    </div>
                  </div>
                  {role.description && <p className="text-sm text-slate-700">{role.description}</p>}
                </CardHeader>
                <CardContent className="grid gap-2">
                  <div className="flex flex-wrap gap-2">
                    {role.is_template && <Badge variant="warning">Template</Badge>}
                    <Badge variant="secondary">
                      {summary.count} {summary.count === 1 ? 'permission' : 'permissions'}
                    </Badge>
                  </div>
                  <ul className="flex flex-wrap gap-1" aria-label={`Permissions of ${role.name}`}>
                    {summary.shown.map((name) => (
                      <li key={name}>
                        <Badge variant="outline" className="font-mono font-normal">
                          {name}
                        </Badge>
                      </li>
                    ))}
                    {summary.more > 0 && (
                      <li>
                        <Badge variant="outline">+{summary.more} more</Badge>
                      </li>
                    )}
                  </ul>
                </CardContent>
              </Card>
            </li>
          );
        })}
      </ul>
      {editing && (
        <RoleFormDialog
          mode={editing.mode}
          role={editing.mode === 'edit' ? editing.role : undefined}
          companies={companies}
          permissions={permissions}
          onOpenChange={(open) => !open && setEditing(null)}
          onSubmit={async (data, changed) => {
            try {
              if (editing.mode === 'create') {
                await writes.createRole.mutateAsync(data);
                toast({ title: 'Role created successfully' });
              } else {
                if (Object.keys(changed).length) {
                  await writes.updateRole.mutateAsync({ id: editing.role.id, patch: changed });
                }
                toast({ title: 'Role updated successfully' });
              }
            } catch (err) {
              throw new Error(adminErrorMessage(err));
            }
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete role?"
        description={deleting ? `The role ${deleting.name} will be deleted. This cannot be undone.` : ''}
        confirmLabel="Delete"
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </section>
  );
}
