import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, parseWith } from './http.ts';

function messageOf(schema: z.ZodType, value: unknown) {
  try {
    parseWith(schema, value);
  } catch (error) {
    if (error instanceof HttpError) return { message: error.message, fields: error.fields };
  }
  throw new Error('expected a validation failure');
}

describe('validation messages name the real problem', () => {
  const Query = z.object({ limit: z.coerce.number().int(), name: z.string(), tags: z.array(z.string()) });

  it('a missing field is required', () => {
    expect(messageOf(Query, { limit: 5, tags: [] }).message).toBe('Name is required');
  });

  it('a present field of the wrong type says which type it must be, not that it is missing', () => {
    expect(messageOf(Query, { limit: 'abc', name: 'x', tags: [] }).message).toBe('Limit must be a number');
    expect(messageOf(Query, { limit: 1, name: 7, tags: [] }).message).toBe('Name must be a string');
    expect(messageOf(Query, { limit: 1, name: 'x', tags: 'a' }).message).toBe('Tags must be an array');
  });
});
