import { useId, useState } from 'react';
import { Building2, Pencil, Plus, Trash2, Users } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Card, CardContent, CardFooter, CardHeader } from '#web/components/ui/card.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import {
  adminErrorMessage,
  useCompanyUsers,
  type AdminCompany,
  type AdminWrites,
} from '../hooks/use-admin-data.ts';
import { capitalize, userDisplayName, visibleCompanies } from '../utils/admin-lists.ts';
import { CompanyFormDialog } from './company-form-dialog.tsx';
import { userCountText } from './users-tab.tsx';

/** Spec 02 section 2: the warning of the company delete confirmation. */
export const COMPANY_DELETE_WARNING =
  'All projects, tasks, users, and associated data will be permanently removed.';

export interface CompaniesTabProps {
  companies: readonly AdminCompany[];
  callerCompanyId: string;
  writesDisabled: string | null;
  writes: AdminWrites;
}

type Editing = { mode: 'create' } | { mode: 'edit'; company: AdminCompany } | null;

const createdText = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
};

/** The Companies tab (spec 02 section 2), platform root only. */
export function CompaniesTab({ companies, callerCompanyId, writesDisabled, writes }: CompaniesTabProps) {
  const switchId = useId();
  const [onlyWithUsers, setOnlyWithUsers] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminCompany | null>(null);
  const [viewing, setViewing] = useState<AdminCompany | null>(null);
  const shown = visibleCompanies(companies, onlyWithUsers);
  const off = writesDisabled !== null;

  const remove = async (company: AdminCompany) => {
    try {
      await writes.deleteCompany.mutateAsync(company.id);
      toast({ title: 'Company deleted successfully' });
    } catch (err) {
      toast({
        title: 'Failed to delete company',
        description: adminErrorMessage(err),
        variant: 'destructive',
      });
    }
  };

  return (
    <section aria-labelledby="rbac-companies-heading" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="rbac-companies-heading" className="text-lg font-semibold text-slate-900">
          Companies
        </h2>
        <div className="flex flex-wrap items-center gap-4">
          <div className="flex min-h-11 items-center gap-2">
            <Switch id={switchId} checked={onlyWithUsers} onCheckedChange={setOnlyWithUsers} />
            <Label htmlFor={switchId}>Only show companies with users</Label>
          </div>
          <Button onClick={() => setEditing({ mode: 'create' })} disabled={off}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Company
          </Button>
        </div>
      </div>
      {shown.length === 0 && <p className="text-sm text-slate-600">No companies to show.</p>}
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Companies">
        {shown.map((company) => {
          const own = company.id === callerCompanyId;
          return (
            <li key={company.id}>
              <Card className="flex h-full flex-col" aria-label={company.name}>
                <CardHeader className="gap-1">
                  <div className="flex items-center gap-2">
                    <Building2 className="h-5 w-5 shrink-0 text-teal-700" aria-hidden="true" />
                    <h3 className="min-w-0 truncate font-semibold text-slate-900">{company.name}</h3>
                  </div>
                  {company.domain && <p className="truncate text-xs text-slate-600">{company.domain}</p>}
                </CardHeader>
                <CardContent className="grid flex-1 gap-2 text-sm text-slate-700">
                  <div className="flex flex-wrap gap-2">
                    <Badge variant="info">{capitalize(company.settings.type)}</Badge>
                    <Badge variant="secondary">{capitalize(company.settings.subscription_tier)}</Badge>
                    <Badge
                      variant={
                        company.status === 'active'
                          ? 'success'
                          : company.status === 'suspended'
                            ? 'destructive'
                            : 'warning'
                      }
                    >
                      {capitalize(company.status)}
                    </Badge>
                  </div>
                  <p>Created {createdText(company.created_at)}</p>
                  <p>{userCountText(company.user_count)}</p>
                </CardContent>
                <CardFooter className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={off}
                    aria-label={`Edit ${company.name}`}
                    onClick={() => setEditing({ mode: 'edit', company })}
                  >
                    <Pencil className="h-4 w-4" aria-hidden="true" />
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`View users of ${company.name}`}
                    onClick={() => setViewing(company)}
                  >
                    <Users className="h-4 w-4" aria-hidden="true" />
                    View Users
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    className="text-red-700"
                    disabled={off || own}
                    title={own ? 'You cannot delete your own company' : (writesDisabled ?? undefined)}
                    aria-label={`Delete ${company.name}`}
                    onClick={() => setDeleting(company)}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                    Delete
                  </Button>
                </CardFooter>
              </Card>
            </li>
          );
        })}
      </ul>
      {editing && (
        <CompanyFormDialog
          mode={editing.mode}
          company={editing.mode === 'edit' ? editing.company : undefined}
          onOpenChange={(open) => !open && setEditing(null)}
          onSubmit={async (data, changed) => {
            try {
              if (editing.mode === 'create') {
                await writes.createCompany.mutateAsync({ ...data, domain: data.domain || undefined });
                toast({ title: 'Company created successfully' });
              } else {
                if (Object.keys(changed).length) {
                  await writes.updateCompany.mutateAsync({
                    id: editing.company.id,
                    patch: changed,
                  });
                }
                toast({ title: 'Company updated successfully' });
              }
            } catch (err) {
              throw new Error(adminErrorMessage(err));
            }
          }}
        />
      )}
      {viewing && <CompanyUsersDialog company={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete company?'}
        description={COMPANY_DELETE_WARNING}
        confirmLabel="Delete"
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </section>
  );
}

/** The users-of-company dialog (GET /api/rbac/companies/{id}/users). */
function CompanyUsersDialog({ company, onClose }: { company: AdminCompany; onClose: () => void }) {
  const users = useCompanyUsers(company.id);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Users of ${company.name}`} description={userCountText(company.user_count)}>
        {users.isPending && <p className="text-sm text-slate-600">Loading users...</p>}
        {users.isError && (
          <p role="alert" className="text-sm text-red-700">
            {adminErrorMessage(users.error)}
          </p>
        )}
        {users.data && users.data.length === 0 && (
          <p className="text-sm text-slate-600">No users in this company.</p>
        )}
        {users.data && users.data.length > 0 && (
          <ul className="divide-y divide-slate-100">
            {users.data.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{userDisplayName(u)}</span>
                  <span className="block text-sm text-slate-600">{u.email}</span>
                </span>
                <span className="flex gap-2">
                  <Badge variant="info">{u.role_name ?? u.role}</Badge>
                  <Badge variant={u.is_active ? 'success' : 'secondary'}>
                    {u.is_active ? 'Active' : 'Inactive'}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
