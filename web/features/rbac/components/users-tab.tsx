import { useState } from 'react';
import { ChevronDown, Pencil, Trash2, UserPlus } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#web/components/ui/collapsible.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import {
  adminErrorMessage,
  type AdminCompany,
  type AdminRole,
  type AdminUser,
  type AdminWrites,
  type UserPatchBody,
} from '../hooks/use-admin-data.ts';
import { groupUsersByCompany, userDisplayName, type CompanyGroup } from '../utils/admin-lists.ts';
import { OneTimePasswordDialog } from './one-time-password-dialog.tsx';
import { UserFormDialog } from './user-form-dialog.tsx';

export interface UsersTabProps {
  users: readonly AdminUser[];
  companies: readonly AdminCompany[];
  roles: readonly AdminRole[];
  callerId: string;
  callerCompanyId: string;
  callerIsRoot: boolean;
  /** Why writes are off right now (offline), or null. */
  writesDisabled: string | null;
  writes: AdminWrites;
}

type Editing = { mode: 'create' } | { mode: 'edit'; user: AdminUser } | null;

export const userCountText = (n: number) => `${n} ${n === 1 ? 'user' : 'users'}`;

/** The Users tab (spec 02 section 2): users grouped by company, each section collapsible with its count. */
export function UsersTab(props: UsersTabProps) {
  const { users, companies, roles, callerId, callerCompanyId, callerIsRoot, writesDisabled, writes } = props;
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  // Deactivating signs the user out at once, so it asks first; activating does not.
  const [deactivating, setDeactivating] = useState<AdminUser | null>(null);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const groups = groupUsersByCompany(users);

  const setActive = async (user: AdminUser) => {
    try {
      await writes.updateUser.mutateAsync({ id: user.id, patch: { is_active: !user.is_active } });
      toast({ title: 'User status updated successfully' });
    } catch (err) {
      toast({
        title: 'Failed to update user status',
        description: adminErrorMessage(err),
        variant: 'destructive',
      });
    }
  };

  const remove = async (user: AdminUser) => {
    try {
      await writes.deleteUser.mutateAsync(user.id);
      toast({ title: 'User deleted successfully' });
    } catch (err) {
      toast({ title: 'Failed to delete user', description: adminErrorMessage(err), variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby="rbac-users-heading" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="rbac-users-heading" className="text-lg font-semibold text-slate-900">
          Users
        </h2>
        <Button onClick={() => setEditing({ mode: 'create' })} disabled={writesDisabled !== null}>
          <UserPlus className="h-4 w-4" aria-hidden />
          Add User
        </Button>
      </div>
      {groups.length === 0 && <p className="text-sm text-slate-600">No users yet.</p>}
      {groups.map((group) => (
        <CompanySection
          key={group.companyId}
          group={group}
          callerId={callerId}
          writesDisabled={writesDisabled}
          onEdit={(user) => setEditing({ mode: 'edit', user })}
          onToggle={(user) => (user.is_active ? setDeactivating(user) : void setActive(user))}
          onDelete={setDeleting}
        />
      ))}
      {editing && (
        <UserFormDialog
          mode={editing.mode}
          user={editing.mode === 'edit' ? editing.user : undefined}
          companies={companies}
          roles={roles}
          callerIsRoot={callerIsRoot}
          defaultCompanyId={callerCompanyId}
          onOpenChange={(open) => !open && setEditing(null)}
          onSubmit={async (data, changed) => {
            try {
              if (editing.mode === 'create') {
                const user = await writes.createUser.mutateAsync(data);
                toast({ title: 'User created successfully' });
                if (user.one_time_password)
                  setCreated({ email: user.email, password: user.one_time_password });
              } else {
                const patch: UserPatchBody = { ...changed };
                // The company never changes (spec 02 section 5); the form locks it, the body leaves it out.
                delete patch.company_id;
                if (Object.keys(patch).length) {
                  await writes.updateUser.mutateAsync({ id: editing.user.id, patch });
                }
                toast({ title: 'User updated successfully' });
              }
            } catch (err) {
              throw new Error(adminErrorMessage(err));
            }
          }}
        />
      )}
      {created && (
        <OneTimePasswordDialog
          email={created.email}
          password={created.password}
          onClose={() => setCreated(null)}
        />
      )}
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => !open && setDeactivating(null)}
        title="Deactivate user?"
        description={
          deactivating
            ? `${userDisplayName(deactivating)} (${deactivating.email}) will be signed out at once and cannot sign in until activated again. Their work stays.`
            : ''
        }
        confirmLabel="Deactivate"
        onConfirm={() => {
          if (deactivating) void setActive(deactivating);
          setDeactivating(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete user?"
        description={
          deleting
            ? `${userDisplayName(deleting)} (${deleting.email}) will be removed and signed out. Tasks assigned to them become unassigned. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </section>
  );
}

function CompanySection({
  group,
  callerId,
  writesDisabled,
  onEdit,
  onToggle,
  onDelete,
}: {
  group: CompanyGroup;
  callerId: string;
  writesDisabled: string | null;
  onEdit: (user: AdminUser) => void;
  onToggle: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
}) {
  const [open, setOpen] = useState(true);
  const off = writesDisabled !== null;
  return (
    <Collapsible open={open} onOpenChange={setOpen} className="rounded-lg border border-slate-200 bg-white">
      <h3>
        <CollapsibleTrigger className="flex min-h-11 w-full items-center justify-between gap-2 px-4 py-2 text-left font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600">
          <span className="min-w-0 truncate">{group.companyName}</span>
          <span className="flex shrink-0 items-center gap-2 text-sm font-normal text-slate-600">
            {userCountText(group.users.length)}
            <ChevronDown
              className={`h-4 w-4 transition-transform ${open ? 'rotate-180' : ''}`}
              aria-hidden="true"
            />
          </span>
        </CollapsibleTrigger>
      </h3>
      <CollapsibleContent>
        <ul
          className="divide-y divide-slate-100 border-t border-slate-100"
          aria-label={`Users of ${group.companyName}`}
        >
          {group.users.map((user) => {
            const self = user.id === callerId;
            const name = userDisplayName(user);
            return (
              <li key={user.id} className="flex flex-col gap-2 px-4 py-3 md:flex-row md:items-center">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-slate-900">{name}</p>
                  <p className="truncate text-sm text-slate-600">{user.email}</p>
                  {self && (
                    // Said on the row: the buttons' hover titles never show on a phone.
                    <p id={`${user.id}-self`} className="text-xs text-slate-600">
                      This is you: you cannot deactivate or delete your own account.
                    </p>
                  )}
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="flex flex-wrap items-center gap-2">
                    <Badge variant="info">{user.role_name ?? user.role}</Badge>
                    <Badge variant={user.is_active ? 'success' : 'secondary'}>
                      {user.is_active ? 'Active' : 'Inactive'}
                    </Badge>
                  </span>
                  <span className="flex items-center gap-1">
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={off || self}
                      title={self ? 'You cannot deactivate your own account' : (writesDisabled ?? undefined)}
                      aria-label={`${user.is_active ? 'Deactivate' : 'Activate'} ${name}`}
                      aria-describedby={self ? `${user.id}-self` : undefined}
                      onClick={() => onToggle(user)}
                    >
                      {user.is_active ? 'Deactivate' : 'Activate'}
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      disabled={off}
                      title={writesDisabled ?? undefined}
                      aria-label={`Edit ${name}`}
                      onClick={() => onEdit(user)}
                    >
                      <Pencil className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      className="text-red-700"
                      disabled={off || self}
                      title={self ? 'You cannot delete your own account' : (writesDisabled ?? undefined)}
                      aria-label={`Delete ${name}`}
                      aria-describedby={self ? `${user.id}-self` : undefined}
                      onClick={() => onDelete(user)}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      </CollapsibleContent>
    </Collapsible>
  );
}
