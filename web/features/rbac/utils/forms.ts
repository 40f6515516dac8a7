import { z } from 'zod';
import { ROLE_KINDS } from '#shared/enums.ts';
import {
  type AdminCompany,
  CompanyCreateSchema,
  CompanyPatchSchema,
  RoleCreateSchema,
  RolePatchSchema,
  UserCreateSchema,
  UserPatchSchema,
} from '#shared/schemas/rbac.ts';

/**
 * The admin dialogs' form values and their zod schemas for react-hook-form. Each schema turns the form's
 * strings into the request body and checks it with the shared schema the server uses, so a message the
 * server would answer is shown under the field (or above the form, for 'Please fill in: ...') before the
 * call is made. A message with no field goes to `errors.root`.
 */

/** Issues of a shared schema, moved onto the form's fields (a field-less issue goes to `root`). */
function reportIssues(error: z.ZodError, ctx: z.RefinementCtx, fieldOf: (key: string) => string = (k) => k) {
  for (const issue of error.issues) {
    const key = issue.path[0];
    ctx.addIssue({
      code: 'custom',
      message: issue.message,
      path: [typeof key === 'string' ? fieldOf(key) : 'root'],
    });
    // 'Please fill in: Email, Role' also marks those fields, so a screen reader hears which are invalid.
    const fields = (issue as { params?: { fields?: unknown } }).params?.fields;
    if (key === undefined && Array.isArray(fields)) {
      for (const field of fields)
        if (typeof field === 'string')
          ctx.addIssue({ code: 'custom', message: 'Required', path: [fieldOf(field)] });
    }
  }
}

// ---------------------------------------------------------------- users

export interface UserFormValues {
  email: string;
  first_name: string;
  last_name: string;
  company_id: string;
  /** The role select's value: a role id as text, '' for none. */
  role_id: string;
  password: string;
}

export interface UserFormOutput {
  email: string;
  first_name: string;
  last_name: string;
  company_id: string;
  role_id: number;
  /** Omitted: a one-time password (create) or the current one (edit). */
  password?: string;
}

function userBody(v: UserFormValues) {
  return {
    email: v.email,
    first_name: v.first_name,
    last_name: v.last_name,
    company_id: v.company_id || null,
    role_id: v.role_id ? Number(v.role_id) : null,
    password: v.password || undefined,
  };
}

/** Add User / Edit User: the spec's 'Please fill in: Email, First Name, ...' and the shared field rules. */
export function userFormSchema(mode: 'create' | 'edit'): z.ZodType<UserFormOutput, UserFormValues> {
  return z.custom<UserFormValues>().transform((values, ctx) => {
    const body = userBody(values);
    const result = (mode === 'create' ? UserCreateSchema : UserPatchSchema).safeParse(body);
    if (!result.success) {
      reportIssues(result.error, ctx);
      return z.NEVER;
    }
    return {
      email: body.email.trim().toLowerCase(),
      first_name: body.first_name.trim(),
      last_name: body.last_name.trim(),
      company_id: body.company_id ?? '',
      role_id: body.role_id ?? 0,
      ...(body.password ? { password: body.password } : {}),
    };
  });
}

// ---------------------------------------------------------------- roles

export const EDITABLE_ROLE_KINDS = ROLE_KINDS.filter((k) => k !== 'root');

export interface RoleFormValues {
  name: string;
  /** '' for a template usable by every company. */
  company_id: string;
  description: string;
  is_template: boolean;
  permissions: number[];
  kind: (typeof ROLE_KINDS)[number];
}

export interface RoleFormOutput {
  name: string;
  company_id: string | null;
  description: string | null;
  is_template: boolean;
  permissions: number[];
  kind: (typeof ROLE_KINDS)[number];
}

export function roleFormSchema(mode: 'create' | 'edit'): z.ZodType<RoleFormOutput, RoleFormValues> {
  return z.custom<RoleFormValues>().transform((values, ctx) => {
    const body = {
      name: values.name,
      company_id: values.company_id || null,
      description: values.description.trim() ? values.description : null,
      is_template: values.is_template,
      permissions: values.permissions,
      kind: values.kind,
    };
    const result = (mode === 'create' ? RoleCreateSchema : RolePatchSchema).safeParse(body);
    if (!result.success) {
      reportIssues(result.error, ctx);
      return z.NEVER;
    }
    return { ...body, name: body.name.trim(), description: body.description?.trim() ?? null };
  });
}

// ---------------------------------------------------------------- companies

export interface CompanyFormValues {
  name: string;
  /** '' for "generate one from the name" (create) or "keep the current one" (edit). */
  domain: string;
  status: AdminCompany['status'];
  settings: AdminCompany['settings'];
  time_zone: string;
}

export type CompanyFormOutput = CompanyFormValues;

/** The zone of the browser creating a company: what its "today" most likely is (issue 13). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyCompanyForm(): CompanyFormValues {
  return {
    name: '',
    domain: '',
    status: 'active',
    settings: { type: 'customer', subscription_tier: 'basic' },
    time_zone: browserTimeZone(),
  };
}

export function companyFormSchema(mode: 'create' | 'edit'): z.ZodType<CompanyFormOutput, CompanyFormValues> {
  return z.custom<CompanyFormValues>().transform((values, ctx) => {
    const body = { ...values, domain: values.domain.trim() || undefined };
    const result = (mode === 'create' ? CompanyCreateSchema : CompanyPatchSchema).safeParse(body);
    if (!result.success) {
      reportIssues(result.error, ctx);
      return z.NEVER;
    }
    return {
      ...values,
      name: values.name.trim(),
      domain: values.domain.trim(),
      time_zone: values.time_zone.trim(),
    };
  });
}
