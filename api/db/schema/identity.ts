import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, isoNow } from './columns.ts';

export const companies = sqliteTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  industry: text('industry').notNull().default('construction'),
  address: text('address'),
  phone: text('phone'),
  email: text('email'),
  website: text('website'),
  logo: text('logo'),
  domain: text('domain').unique(),
  settings: text('settings', { mode: 'json' })
    .$type<{ type?: string; subscription_tier?: string }>()
    .notNull()
    .default({}),
  planType: text('plan_type').notNull().default('basic'),
  status: text('status').notNull().default('active'),
  isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
  /** IANA zone in which the company's "today", overdue and day counts are read (shared/rules/dates.ts). */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Per-company sync version counter, bumped inside every write transaction (DESIGN.md section 4). */
  lastVersion: integer('last_version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: text('updated_at').notNull().$defaultFn(isoNow),
});

export const roles = sqliteTable('roles', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  description: text('description'),
  /** null: a template usable by every company. */
  companyId: text('company_id').references(() => companies.id, { onDelete: 'cascade' }),
  isTemplate: integer('is_template', { mode: 'boolean' }).notNull().default(false),
  /** The template kind this role derives from: root, admin, manager, crew or subcontractor. */
  kind: text('kind').notNull().default('crew'),
  createdAt: createdAt(),
});

export const permissions = sqliteTable('permissions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  description: text('description'),
  category: text('category').notNull(),
  resourceType: text('resource_type').notNull(),
  action: text('action').notNull(),
});

export const rolePermissions = sqliteTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    username: text('username').unique(),
    password: text('password'),
    name: text('name'),
    role: text('role').notNull().default('crew'),
    roleId: integer('role_id').references(() => roles.id, { onDelete: 'set null' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    mustChangePassword: integer('must_change_password', { mode: 'boolean' }).notNull().default(false),
    /**
     * Sync version of the read-only `users` mirror (sync/SPEC.md L12): stamped by SQLite triggers
     * (migration 0003) on every insert and every change of a mirrored column, whoever writes.
     */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: text('updated_at').notNull().$defaultFn(isoNow),
  },
  (t) => [index('users_company_idx').on(t.companyId), index('users_version_idx').on(t.companyId, t.version)],
);

/** Spec 02: sessions(sid, sess, expire). sid is the SHA-256 of the cookie token, never the token. */
export const sessions = sqliteTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: text('sess', { mode: 'json' })
      .$type<{ userId: string; companyId: string; createdAt: string; lastSeenAt: string; idleMs: number }>()
      .notNull(),
    expire: text('expire').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expire_idx').on(t.expire)],
);

/**
 * Sign-in tries counted as failures by the password-guess throttle (api/auth/rate-limit.ts) when it lives in
 * the database, so that every API process sees every try (ADR 028). A row is a reservation made before the
 * password is checked; a right password removes it and stops the account's other rows counting against the
 * account (and, from its address, against the pair); they still count against the address. Rows leave once past the 15-minute window.
 */
export const signInFailures = sqliteTable(
  'sign_in_failures',
  {
    id: text('id').primaryKey(),
    account: text('account').notNull(),
    address: text('address').notNull(),
    /** Epoch milliseconds. */
    at: integer('at').notNull(),
    /** 0 once a later right password cleared the account's failures (they still count for the address). */
    countsForAccount: integer('counts_for_account').notNull().default(1),
    /** 0 once a right password for the account came from this address (the pair's lockout starts again). */
    countsForPair: integer('counts_for_pair').notNull().default(1),
  },
  (t) => [
    index('sign_in_failures_account_idx').on(t.account, t.at),
    index('sign_in_failures_address_idx').on(t.address, t.at),
    index('sign_in_failures_at_idx').on(t.at),
  ],
);
