import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../rules/dates.ts';
import { COMPANY_STATUSES, COMPANY_TYPES, ROLE_KINDS, SUBSCRIPTION_TIERS, type RoleKind } from '../enums.ts';
import { passwordProblem } from './auth.ts';
import { atMost, OptionalText, RequiredText, visible } from './common.ts';

/**
 * Bodies of the RBAC administration calls (spec 02 section 7, "Access control"). These endpoints use the
 * spec's snake_case field names (DESIGN.md section 5).
 */

/** Company ids are server-made text ids; the lookup decides whether one exists. */
const CompanyRef = z.string({ message: 'Company is required' }).trim().min(1, 'Company is required').max(64);
const RoleRef = z
  .number({ message: 'Role is required' })
  .int('must be a role id')
  .positive('must be a role id');
const PermissionIds = z
  .array(z.number().int('must be permission ids').positive('must be permission ids'))
  .max(500)
  .transform((ids) => [...new Set(ids)]);

// ---------------------------------------------------------------- roles

const roleFields = {
  name: RequiredText('Role name', 100),
  description: OptionalText(1000),
  /** null: a template usable by every company. */
  company_id: CompanyRef.nullable(),
  is_template: z.boolean(),
  permissions: PermissionIds,
  /** The template kind the role derives from (session length, assignment scoping); 'root' only for root. */
  kind: z.enum(ROLE_KINDS),
};

/**
 * A role with no company is offered to every company, which is what a template is; a template belongs to no
 * company. The Platform Administrator role (the platform company's template) is the one exception. Without
 * this a role could be neither, and every company's admin saw and granted it like a template.
 */
export function roleScopeError(role: {
  company_id: string | null;
  is_template: boolean;
  kind: RoleKind;
}): { field: 'company_id' | 'is_template'; message: string } | null {
  if (role.kind === 'root') return null;
  if (role.company_id === null && !role.is_template) {
    return {
      field: 'company_id',
      message: 'A role for all companies is a template role: tick Template role, or choose a company',
    };
  }
  if (role.company_id !== null && role.is_template) {
    return {
      field: 'is_template',
      message: 'A template role is for all companies: choose All companies, or untick Template role',
    };
  }
  return null;
}

/** POST /api/rbac/roles. */
export const RoleCreateSchema = z
  .strictObject({
    ...roleFields,
    company_id: roleFields.company_id.default(null),
    is_template: roleFields.is_template.default(false),
    permissions: roleFields.permissions.default([]),
    kind: roleFields.kind.default('crew'),
  })
  .superRefine((role, ctx) => {
    const error = roleScopeError(role);
    if (error) ctx.addIssue({ code: 'custom', path: [error.field], message: error.message });
  });

/** PATCH /api/rbac/roles/{id}: any subset of the fields. */
export const RolePatchSchema = z.strictObject(roleFields).partial();

export type RoleCreate = z.infer<typeof RoleCreateSchema>;
export type RolePatch = z.infer<typeof RolePatchSchema>;

// ---------------------------------------------------------------- users

const EMAIL = z.email();

/** A blank password means "generate a one-time password" (create) or "keep the current one" (edit). */
const PasswordField = z
  .string()
  .max(1024)
  .nullable()
  .optional()
  .transform((v) => (v ? v : undefined))
  .superRefine((v, ctx) => {
    const problem = v === undefined ? null : passwordProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Text the form may send blank; blank or null counts as missing for the 'Please fill in' check. */
const FormText = (max: number) =>
  visible(z.string().trim().max(max, atMost(max)))
    .nullable()
    .optional();

const userFields = {
  email: FormText(254).transform((v) => (typeof v === 'string' ? v.toLowerCase() : v)),
  /** Accepted for compatibility with the spec's body; the server always sets username to the email. */
  username: z.string().max(254).nullable().optional(),
  /** Accepted for compatibility with the spec's body; the server always sets name to first + last. */
  name: z.string().max(254).nullable().optional(),
  first_name: FormText(100),
  last_name: FormText(100),
  company_id: CompanyRef.nullable().optional(),
  role_id: RoleRef.nullable().optional(),
  password: PasswordField,
};

/** The spec's labels for the fields the user dialogs require (spec 02 section 5). */
const REQUIRED_LABELS = [
  ['email', 'Email'],
  ['first_name', 'First Name'],
  ['last_name', 'Last Name'],
  ['company_id', 'Company'],
  ['role_id', 'Role'],
] as const;

type UserFieldValues = {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  company_id?: string | null;
  role_id?: number | null;
};

/** One 'Please fill in: Email, Role' issue for every blank required field (spec 02 section 5). */
function requireFilled(keys: readonly (typeof REQUIRED_LABELS)[number][0][]) {
  return (value: UserFieldValues, ctx: z.RefinementCtx) => {
    const blank = REQUIRED_LABELS.filter(
      ([key]) => keys.includes(key) && (value[key] === undefined || value[key] === null || value[key] === ''),
    );
    if (blank.length) {
      ctx.addIssue({
        code: 'custom',
        message: `Please fill in: ${blank.map(([, label]) => label).join(', ')}`,
        path: [],
        // The form marks each of these fields too (aria-invalid, focus on the first).
        params: { fields: blank.map(([key]) => key) },
      });
      return;
    }
    if (value.email && !EMAIL.safeParse(value.email).success) {
      ctx.addIssue({ code: 'custom', message: 'Email must be a valid email address', path: ['email'] });
    }
  };
}

/** POST /api/rbac/users. username and name are derived; a blank password gets a one-time password. */
export const UserCreateSchema = z
  .strictObject(userFields)
  .superRefine(requireFilled(['email', 'first_name', 'last_name', 'company_id', 'role_id']))
  .transform((v) => ({
    email: v.email ?? '',
    first_name: v.first_name ?? '',
    last_name: v.last_name ?? '',
    company_id: v.company_id ?? '',
    role_id: v.role_id ?? 0,
    password: v.password,
  }));

/**
 * PATCH /api/rbac/users/{id}: the same fields plus is_active, or only is_active. A field left out is
 * unchanged; a blank password keeps the current one; email, first and last name may not be blanked.
 */
export const UserPatchSchema = z
  .strictObject({ ...userFields, is_active: z.boolean().optional() })
  .superRefine((value, ctx) => {
    // Only the fields sent are checked: a body with only is_active is a complete edit.
    const sent = REQUIRED_LABELS.map(([key]) => key).filter((key) => value[key] !== undefined);
    requireFilled(sent)(value, ctx);
  });

export type UserCreate = z.infer<typeof UserCreateSchema>;
export type UserPatch = z.infer<typeof UserPatchSchema>;

// ---------------------------------------------------------------- companies

const CompanySettingsSchema = z.strictObject({
  type: z.enum(COMPANY_TYPES).optional(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS).optional(),
});

/** A host name: lowercase labels of letters, digits and inner hyphens, at least two labels. */
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Blank means "generate one from the name" (spec 02 sections 5 and 9). */
const DomainField = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .nullable()
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || HOST.test(v), {
    message: 'Domain must be a domain name like example.com',
  });

/** The company's IANA time zone: what "today" means for its due dates (shared/rules/dates.ts). */
const TimeZoneField = z
  .string()
  .trim()
  .refine(isTimeZone, { message: 'Time zone must be an IANA time zone like America/Los_Angeles' });

const companyFields = {
  // Each way to get it wrong in its own words: a 300-character name was answered 'Company name is required'.
  name: RequiredText('Company name', 200),
  time_zone: TimeZoneField,
  domain: DomainField,
  status: z.enum(COMPANY_STATUSES),
  settings: CompanySettingsSchema,
};

/** POST /api/companies: name required ('Company name is required'); status active by default. */
export const CompanyCreateSchema = z.strictObject({
  ...companyFields,
  status: companyFields.status.default('active'),
  settings: companyFields.settings.default({}),
  /** The creating browser's zone when the client sends it; UTC otherwise. */
  time_zone: companyFields.time_zone.default(DEFAULT_TIME_ZONE),
});

/** PATCH /api/rbac/companies/{id}: any subset; settings are merged into the stored ones. */
export const CompanyPatchSchema = z.strictObject({
  ...companyFields,
  name: companyFields.name.optional(),
  status: companyFields.status.optional(),
  settings: companyFields.settings.optional(),
  time_zone: companyFields.time_zone.optional(),
});

export type CompanyCreate = z.infer<typeof CompanyCreateSchema>;
export type CompanyPatch = z.infer<typeof CompanyPatchSchema>;

// ---------------------------------------------------------------- answers

/**
 * The rows the RBAC administration calls answer (spec 02 section 3, "User (admin area)", Role, Permission,
 * Company), as the admin screen reads them. The server builds them in api/mutators/{users,roles,companies}.ts.
 */
export const AdminUserSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  company_id: z.string(),
  company_name: z.string(),
  role_id: z.number().nullable(),
  role_name: z.string().nullable(),
  role: z.enum(ROLE_KINDS),
  is_active: z.boolean(),
});

export const AdminRoleSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  company_id: z.string().nullable(),
  is_template: z.boolean(),
  permissions: z.array(z.number()),
  kind: z.enum(ROLE_KINDS),
});

export const AdminPermissionSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  resource_type: z.string(),
  action: z.string(),
});

export const AdminCompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  status: z.enum(COMPANY_STATUSES),
  settings: z.object({ type: z.enum(COMPANY_TYPES), subscription_tier: z.enum(SUBSCRIPTION_TIERS) }),
  time_zone: z.string(),
  created_at: z.string(),
  is_active: z.boolean(),
  user_count: z.number(),
});

export type AdminUser = z.infer<typeof AdminUserSchema>;
export type AdminRole = z.infer<typeof AdminRoleSchema>;
export type AdminPermission = z.infer<typeof AdminPermissionSchema>;
export type AdminCompany = z.infer<typeof AdminCompanySchema>;
