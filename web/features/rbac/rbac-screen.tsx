import { ShieldCheck } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { AsOfNotice, LoadFailed } from '#web/components/as-of-notice.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { isNetworkError } from '#web/lib/api.ts';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import {
  adminErrorMessage,
  useAdminWrites,
  useCompanies,
  usePermissions,
  useRoles,
  useUsers,
} from './hooks/use-admin-data.ts';
import { CompaniesTab } from './components/companies-tab.tsx';
import { PermissionsTab } from './components/permissions-tab.tsx';
import { RolesTab } from './components/roles-tab.tsx';
import { UsersTab } from './components/users-tab.tsx';

/** Why the write buttons are off while the device is offline (issue 13: a clear reason). */
export const OFFLINE_WRITES_REASON =
  'Changes to users, roles and companies need the server: they are turned off until you are back online.';

/**
 * RBAC Administration (spec 02 section 2; issue 13). Everyone with access gets the Users tab; the platform
 * root (who holds `platform:admin`; DECISIONS.md: access comes from the role only) also gets Roles,
 * Companies and Permissions. The server scopes every list and refuses every write the caller may not make;
 * the screen only leaves out what the server would refuse anyway.
 */
export function RbacScreen({ user }: { user: CurrentUser }) {
  const root = user.grants.includes('platform:admin');
  const users = useUsers();
  const roles = useRoles();
  const companies = useCompanies();
  const permissions = usePermissions(root);
  const writes = useAdminWrites();
  const online = useBrowserOnline();

  const lists: UseQueryResult<unknown[]>[] = root
    ? [users, roles, companies, permissions]
    : [users, roles, companies];
  const offline = !online || user.offline === true || lists.some((q) => isNetworkError(q.error));
  const failed = lists.find((q) => q.isError && !isNetworkError(q.error) && q.data === undefined);
  const loaded = lists.every((q) => q.data !== undefined);
  const asOf = Math.min(...lists.map((q) => q.dataUpdatedAt).filter((t) => t > 0));
  const writesDisabled = offline ? OFFLINE_WRITES_REASON : null;

  let body;
  if (loaded) {
    body = (
      <Tabs defaultValue="users" className="grid grid-cols-1 gap-4">
        <TabsList aria-label="Administration" className="flex w-full flex-wrap justify-start md:w-auto">
          <TabsTrigger value="users">Users</TabsTrigger>
          {root && <TabsTrigger value="roles">Roles</TabsTrigger>}
          {root && <TabsTrigger value="companies">Companies</TabsTrigger>}
          {root && <TabsTrigger value="permissions">Permissions</TabsTrigger>}
        </TabsList>
        <TabsContent value="users">
          <UsersTab
            users={users.data ?? []}
            companies={companies.data ?? []}
            roles={roles.data ?? []}
            callerId={user.id}
            callerCompanyId={user.companyId}
            callerIsRoot={root}
            writesDisabled={writesDisabled}
            writes={writes}
          />
        </TabsContent>
        {root && (
          <>
            <TabsContent value="roles">
              <RolesTab
                roles={roles.data ?? []}
                permissions={permissions.data ?? []}
                companies={companies.data ?? []}
                writesDisabled={writesDisabled}
                writes={writes}
              />
            </TabsContent>
            <TabsContent value="companies">
              <CompaniesTab
                companies={companies.data ?? []}
                callerCompanyId={user.companyId}
                writesDisabled={writesDisabled}
                writes={writes}
              />
            </TabsContent>
            <TabsContent value="permissions">
              <PermissionsTab permissions={permissions.data ?? []} />
            </TabsContent>
          </>
        )}
      </Tabs>
    );
  } else if (failed) {
    body = (
      <LoadFailed
        what="The administration lists"
        message={adminErrorMessage(failed.error)}
        onRetry={() => lists.forEach((q) => void q.refetch())}
      />
    );
  } else if (offline) {
    body = (
      <p className="text-sm text-slate-700">
        You are offline, and the administration lists have not been loaded on this device yet. They will load
        when the connection returns.
      </p>
    );
  } else {
    body = <Spinner label="Loading..." className="p-10" />;
  }

  return (
    <section className="mx-auto grid max-w-6xl grid-cols-1 gap-4 p-4 md:p-6" aria-labelledby="rbac-heading">
      <header className="flex items-center gap-2">
        <ShieldCheck className="h-6 w-6 text-teal-700" aria-hidden="true" />
        <div>
          <h1 id="rbac-heading" className="text-2xl font-semibold text-slate-900">
            RBAC Administration
          </h1>
          <p className="text-sm text-slate-600">
            {root
              ? 'Users, roles, companies and permissions of the platform.'
              : `Users of ${user.companyName ?? 'your company'}.`}
          </p>
        </div>
      </header>
      {offline && (
        <AsOfNotice what="the lists" updatedAt={loaded ? asOf : undefined} reason={OFFLINE_WRITES_REASON} />
      )}
      {body}
    </section>
  );
}
