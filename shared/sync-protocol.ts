/**
 * Bumped when the wire format changes in a way old clients cannot speak; the route decides the answer.
 * 2: communications and change orders are mirrored (sync/SPEC.md W15).
 */
export const SCHEMA_VERSION = 2;

/**
 * A push carries at most this many mutations; the client sends its outbox in batches of this size (SPEC P1).
 * It was 100: a phone back from days offline with 1,000 changes then waited for ten round trips, 1.5 s on a
 * 150 ms link before the first pull, and ten commits on the server. A batch of 500 is about 100 KiB of JSON
 * and about 75 ms of the server's time in one transaction (ADR 035).
 */
export const MAX_PUSH_MUTATIONS = 500;

export const MUTATION_OPS = ['create', 'patch', 'delete'] as const;
export type MutationOp = (typeof MUTATION_OPS)[number];

/** The mirrored tables (snake_case, as in SQL). */
export const SYNC_TABLES = [
  'projects',
  'tasks',
  'project_logs',
  'photos',
  'schedule_changes',
  'communications',
  'change_orders',
] as const;
export type SyncTable = (typeof SYNC_TABLES)[number];

/** Read-only mirrors (SPEC L12): pulled like the others, never pushed. */
export const DIRECTORY_TABLES = ['users', 'subcontractor_assignments'] as const;
export type DirectoryTable = (typeof DIRECTORY_TABLES)[number];

/** Every table a pull may carry. */
export const PULLED_TABLES = [...SYNC_TABLES, ...DIRECTORY_TABLES] as const;
export type PulledTable = (typeof PULLED_TABLES)[number];

// The push's zod schemas live in push-schemas.ts: this module is on the first screen's path of every
// signed-in page, and zod (84 KB) is not needed for that paint (ADR 025). Their types are re-exported here
// (type-only: nothing of zod is loaded for them).
export type { Mutation, PushRequest } from './push-schemas.ts';

/**
 * The oldest schema version the server still serves; older clients get 426 SCHEMA_TOO_OLD (sync/SPEC.md P2,
 * P15). A version-1 app knows nothing of communications and change orders: it could neither raise them nor
 * show a decision, so it is asked to update rather than sync half a company.
 */
export const MIN_SCHEMA_VERSION = 2;

/** Per-field conflict of a patch: the value the server kept and the one the client sent (SPEC W4). */
export interface FieldConflict {
  field: string;
  kept: unknown;
  yours: unknown;
}

export const MUTATION_STATUSES = ['applied', 'partially_applied', 'rejected'] as const;
export type MutationStatus = (typeof MUTATION_STATUSES)[number];

/** The outcome of one pushed mutation (SPEC P10). */
export interface MutationResult {
  id: number;
  status: MutationStatus;
  /** The row's version after the mutation (applied and partially applied). */
  version?: number;
  /** Why it was rejected: the mutator's error code (VALIDATION_FAILED, NOT_FOUND...) or ROW_DELETED... */
  code?: string;
  message?: string;
  conflicts?: FieldConflict[];
}

export interface PushResponse {
  lastMutationId: number;
  results: MutationResult[];
}

/** A changed row (SPEC L3): live rows carry camelCase `data`, tombstones carry none. */
export type PulledChange =
  | { table: PulledTable; id: string; version: number; deleted: false; data: Record<string, unknown> }
  | { table: PulledTable; id: string; version: number; deleted: true };

export interface PullPage {
  changes: PulledChange[];
  cursor: number;
  hasMore: boolean;
  lastMutationId: number;
  /** Server clock, epoch ms, for the client's clock offset (SPEC C7). */
  serverTime: number;
}

export const PULL_RESET_REASONS = ['ahead', 'horizon', 'scope'] as const;
export type PullResetReason = (typeof PULL_RESET_REASONS)[number];

export interface PullReset {
  reset: true;
  reason: PullResetReason;
}

export type PullResponse = PullPage | PullReset;

export const PULL_DEFAULT_LIMIT = 1000;
export const PULL_MAX_LIMIT = 5000;

/** Future client times are clamped to server time + this (SPEC W2). */
export const MAX_CLOCK_AHEAD_MS = 60_000;

/** The body of each `version` event of GET /api/sync/events (SPEC L10). */
export interface VersionEvent {
  version: number;
}

/**
 * The body of a `changes` event of GET /api/sync/events (SPEC L16): what a pull from `from` answers, sent
 * in place of a `version` event when it is complete in at most CARRIED_CHANGES_MAX changes.
 */
export interface ChangesEvent {
  from: number;
  cursor: number;
  changes: PulledChange[];
}

/** The most changes a `changes` event carries (SPEC L16); a device further behind is poked and pulls. */
export const CARRIED_CHANGES_MAX = 100;

// ---------------------------------------------------------------- GET /api/sync/history (SPEC W12)

/** Who wrote a value or an activity. */
export interface HistoryUser {
  id: string;
  name: string;
}

export interface ReplacedValueEntry {
  kind: 'replaced';
  id: string;
  field: string;
  /** The value that no longer stands: what Restore writes back. */
  replacedValue: unknown;
  replacedBy: HistoryUser | null;
  /** The value that won. */
  keptValue: unknown;
  keptBy: HistoryUser | null;
  at: string;
}

export interface ActivityEntry {
  kind: 'activity';
  id: string;
  actionType: string;
  description: string;
  by: HistoryUser | null;
  at: string;
}

export type HistoryEntry = ReplacedValueEntry | ActivityEntry;

export interface RowHistory {
  table: SyncTable;
  rowId: string;
  entries: HistoryEntry[];
}
