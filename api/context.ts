import type { RoleKind } from '#shared/enums.ts';
import type { Database } from './db/database.ts';
import type { Env } from './env.ts';
import type { BlobStore } from './storage/index.ts';
import type { SignInThrottle } from './auth/rate-limit.ts';

/** What the app is built from; tests pass their own database, clock and store. */
export interface AppDeps {
  /** SQLite or PostgreSQL behind the seam of ADR 027. */
  database: Database;
  env: Env;
  store: BlobStore;
  now: () => Date;
  /** In memory on SQLite (one process); in the database on PostgreSQL, shared by every process (ADR 028). */
  loginLimiter: SignInThrottle;
}

/** The signed-in user, read fresh from the database on every request (role changes apply at once). */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  role: RoleKind;
  roleId: number | null;
  companyId: string;
  companyName: string;
  /** The company's IANA time zone: what "today" means for its rules (shared/rules/dates.ts). */
  companyTimeZone: string;
  mustChangePassword: boolean;
  permissions: ReadonlySet<string>;
  sessionId: string;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: SessionUser | null;
  };
}
