import type { z } from 'zod';

/** Messages by form field; a field without an entry is valid. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * The shared schemas word their messages for the API ('Name is required', or 'must be 0 to 100' after
 * the field name); a form shows them under the field, so a bare predicate gets the field's label in front.
 */
export function fieldErrors<K extends string>(error: z.ZodError, labels: Record<K, string>): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key !== 'string' || !(key in labels)) continue;
    const field = key as K;
    if (out[field]) continue;
    const message = issue.message;
    out[field] = /^[a-z]/.test(message) ? `${labels[field]} ${message}` : message;
  }
  return out;
}
