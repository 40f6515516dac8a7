import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminCompany,
  AdminPermission,
  AdminRole,
  AdminUser,
  CompanyCreateSchema,
  CompanyPatchSchema,
  RoleCreateSchema,
  RolePatchSchema,
} from '#shared/schemas/rbac.ts';
import { apiJson, serverMessage } from '#web/lib/api.ts';
import { PERSISTED } from '#web/lib/query-persist.ts';

export type { AdminCompany, AdminPermission, AdminRole, AdminUser };
export type CreatedUser = AdminUser & { one_time_password?: string };

type RoleCreate = z.input<typeof RoleCreateSchema>;
type RolePatch = z.input<typeof RolePatchSchema>;
type CompanyCreate = z.input<typeof CompanyCreateSchema>;
type CompanyPatch = z.input<typeof CompanyPatchSchema>;

export const USERS_KEY = ['/api/rbac/users'] as const;
export const ROLES_KEY = ['/api/rbac/roles'] as const;
export const PERMISSIONS_KEY = ['/api/rbac/permissions'] as const;
export const COMPANIES_KEY = ['/api/companies'] as const;
export const companyUsersKey = (id: string) =>
  [`/api/rbac/companies/${encodeURIComponent(id)}/users`] as const;

/**
 * The lists of the admin screen. Kept on the device (`PERSISTED`) so the screen opened offline shows the
 * last ones with their time; never refetched in the background: an admin reads them on purpose.
 */
function useAdminList<T>(key: readonly [string], enabled = true) {
  return useQuery<T[]>({ queryKey: key, enabled, meta: PERSISTED });
}

export const useUsers = () => useAdminList<AdminUser>(USERS_KEY);
export const useRoles = () => useAdminList<AdminRole>(ROLES_KEY);
export const usePermissions = (enabled = true) => useAdminList<AdminPermission>(PERMISSIONS_KEY, enabled);
export const useCompanies = () => useAdminList<AdminCompany>(COMPANIES_KEY);
export const useCompanyUsers = (id: string | null) =>
  useQuery<AdminUser[]>({ queryKey: companyUsersKey(id ?? ''), enabled: id !== null });

/**
 * What to show for a failed admin call: the server's `{message}` (spec 02 section 8: "other admin
 * failures show the server message"), or a sentence saying the server could not be reached.
 */
export function adminErrorMessage(err: unknown): string {
  return serverMessage(err);
}

/** Every list an admin write may change: users, counts on company cards, role cards. */
function useRefreshAll() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [USERS_KEY, ROLES_KEY, COMPANIES_KEY].map((queryKey) => qc.invalidateQueries({ queryKey })),
    ).then(() => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('/users') }));
}

const path = (base: string, id: string | number) => `${base}/${encodeURIComponent(String(id))}`;

export interface UserCreateBody {
  email: string;
  first_name: string;
  last_name: string;
  company_id: string;
  role_id: number;
  password?: string;
}
export type UserPatchBody = Partial<UserCreateBody> & { is_active?: boolean };

/**
 * The writes of the admin screen; each refreshes the lists it may change, also when it fails: the lists
 * are not refetched in the background, so a write refused because another admin got there first (a user
 * deleted, an email taken) is often the first sign that they are out of date.
 */
export function useAdminWrites() {
  const onSettled = useRefreshAll();
  return {
    createUser: useMutation({
      mutationFn: (body: UserCreateBody) => apiJson<CreatedUser>('POST', '/api/rbac/users', body),
      onSettled,
    }),
    updateUser: useMutation({
      mutationFn: ({ id, patch }: { id: string; patch: UserPatchBody }) =>
        apiJson<AdminUser>('PATCH', path('/api/rbac/users', id), patch),
      onSettled,
    }),
    deleteUser: useMutation({
      mutationFn: (id: string) => apiJson('DELETE', path('/api/rbac/users', id)),
      onSettled,
    }),
    createRole: useMutation({
      mutationFn: (body: RoleCreate) => apiJson<AdminRole>('POST', '/api/rbac/roles', body),
      onSettled,
    }),
    updateRole: useMutation({
      mutationFn: ({ id, patch }: { id: number; patch: RolePatch }) =>
        apiJson<AdminRole>('PATCH', path('/api/rbac/roles', id), patch),
      onSettled,
    }),
    deleteRole: useMutation({
      mutationFn: (id: number) => apiJson('DELETE', path('/api/rbac/roles', id)),
      onSettled,
    }),
    createCompany: useMutation({
      mutationFn: (body: CompanyCreate) => apiJson<AdminCompany>('POST', '/api/companies', body),
      onSettled,
    }),
    updateCompany: useMutation({
      mutationFn: ({ id, patch }: { id: string; patch: CompanyPatch }) =>
        apiJson<AdminCompany>('PATCH', path('/api/rbac/companies', id), patch),
      onSettled,
    }),
    deleteCompany: useMutation({
      mutationFn: (id: string) => apiJson('DELETE', path('/api/companies', id)),
      onSettled,
    }),
  };
}

export type AdminWrites = ReturnType<typeof useAdminWrites>;
