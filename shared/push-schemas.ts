import { z } from 'zod';
import { MAX_PUSH_MUTATIONS, MUTATION_OPS, SYNC_TABLES } from './sync-protocol.ts';

/**
 * Push wire format (DESIGN.md section 7). Validated synchronously with `safeParse` on the push route: the
 * compiled (JIT) fast path of zod's object schemas only runs for synchronous parses (DESIGN.md section 12;
 * budget B3: <= 0.15 us per mutation). `data` is only checked to be a plain JSON object (a record of unknown
 * values) here; each table's mutator validates its own fields with the strict schema of that entity.
 */

/**
 * A plain object (what JSON.parse makes of `{...}`). Checked by hand rather than with
 * `z.record(z.string(), z.unknown())`, which walks and copies every key only to accept any value (about 1.6x
 * the cost of the whole mutation check here) and whose copy could be given a `__proto__` key.
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

export const MutationSchema = z.strictObject({
  /** Per-client, gap-free, starting at 1. */
  id: z.int().positive(),
  op: z.enum(MUTATION_OPS),
  table: z.enum(SYNC_TABLES),
  rowId: z.uuid(),
  /** camelCase fields: the whole row for a create, only the changed fields for a patch, `{}` for a delete. */
  data: z.custom<Record<string, unknown>>(isPlainObject, { message: 'must be an object' }),
  /** The row version the client last saw; null for a create (or a row it never pulled). */
  baseVersion: z.int().nonnegative().nullable(),
  /** Client clock at the time of the write, epoch milliseconds. */
  clientTime: z.int().nonnegative(),
  /**
   * A patch of a set field (`shared/set-fields.ts`: a log's `images`) carries the list the user's edit
   * started from, field by field, so the server merges the edit instead of replacing the list (sync/SPEC.md
   * W20). Absent on everything else, and on patches queued before W20, which keep last writer wins. Its
   * fields are checked by the push (api/sync/apply.ts), like `data`'s by the mutators.
   */
  baseValues: z.custom<Record<string, unknown>>(isPlainObject, { message: 'must be an object' }).optional(),
});
export type Mutation = z.infer<typeof MutationSchema>;

export const PushRequestSchema = z.strictObject({
  clientId: z.uuid(),
  schemaVersion: z.int().positive(),
  mutations: z.array(MutationSchema).max(MAX_PUSH_MUTATIONS),
  /**
   * The highest mutation id whose answer the device has stored (sync/SPEC.md R1): the server keeps the
   * results above it for replay, even below the batch's first id. Absent: everything below the first id.
   */
  acknowledged: z.int().nonnegative().optional(),
});
export type PushRequest = z.infer<typeof PushRequestSchema>;
