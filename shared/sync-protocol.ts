import { z } from 'zod';

/**
 * Push wire format (DESIGN.md section 7). Validated synchronously with `safeParse` on the push route: the
 * compiled (JIT) fast path of zod's object schemas only runs for synchronous parses (DESIGN.md section 12;
 * budget B3: <= 0.15 us per mutation). `data` is only checked to be an object here; each table's mutator
 * validates its own fields with the strict schema of that entity.
 */

/** Bumped when the wire format changes in a way old clients cannot speak; the route decides the answer. */
export const SCHEMA_VERSION = 1;

/** A push carries at most this many mutations; the client sends its outbox in batches of this size. */
export const MAX_PUSH_MUTATIONS = 100;

export const MUTATION_OPS = ['create', 'patch', 'delete'] as const;
export type MutationOp = (typeof MUTATION_OPS)[number];

/** The mirrored tables (snake_case, as in SQL). */
export const SYNC_TABLES = ['projects', 'tasks', 'project_logs', 'photos', 'schedule_changes'] as const;
export type SyncTable = (typeof SYNC_TABLES)[number];

export const MutationSchema = z.strictObject({
  /** Per-client, gap-free, starting at 1. */
  id: z.int().positive(),
  op: z.enum(MUTATION_OPS),
  table: z.enum(SYNC_TABLES),
  rowId: z.uuid(),
  /** camelCase fields: the whole row for a create, only the changed fields for a patch, `{}` for a delete. */
  data: z.record(z.string(), z.unknown()),
  /** The row version the client last saw; null for a create (or a row it never pulled). */
  baseVersion: z.int().nonnegative().nullable(),
  /** Client clock at the time of the write, epoch milliseconds. */
  clientTime: z.int().nonnegative(),
});
export type Mutation = z.infer<typeof MutationSchema>;

export const PushRequestSchema = z.strictObject({
  clientId: z.uuid(),
  schemaVersion: z.int().positive(),
  mutations: z.array(MutationSchema).max(MAX_PUSH_MUTATIONS),
});
export type PushRequest = z.infer<typeof PushRequestSchema>;
