/** A field value as the retry form shows it: strings raw, everything else as JSON. */
export function formatFieldValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/**
 * Reads an edited field back, guided by the value the change first carried: a string stays a string; a
 * number must parse as one; booleans accept true/false; null, arrays and objects are read as JSON, and an
 * empty entry for a field that was null is null again. Throws an Error naming the problem.
 */
export function parseFieldValue(field: string, original: unknown, text: string): unknown {
  if (typeof original === 'string') return text;
  const trimmed = text.trim();
  if (typeof original === 'number') {
    if (trimmed === '') throw new Error(`${field} must be a number`);
    const n = Number(trimmed);
    if (!Number.isFinite(n)) throw new Error(`${field} must be a number`);
    return n;
  }
  if (typeof original === 'boolean') {
    if (trimmed === 'true') return true;
    if (trimmed === 'false') return false;
    throw new Error(`${field} must be true or false`);
  }
  if (trimmed === '' || trimmed === 'null') return null;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    // A field that was null may now hold plain text (e.g. a description).
    if (original === null || original === undefined) return text;
    throw new Error(`${field} is not valid`);
  }
}

/** Reads every edited field back; returns the data or the list of problems. */
export function parseEditedFields(
  original: Record<string, unknown>,
  edited: Record<string, string>,
): { data: Record<string, unknown>; errors: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [field, value] of Object.entries(original)) {
    try {
      data[field] = parseFieldValue(field, value, edited[field] ?? formatFieldValue(value));
    } catch (err) {
      errors[field] = err instanceof Error ? err.message : String(err);
    }
  }
  return { data, errors };
}
