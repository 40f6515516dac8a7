import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dirtyPatch, formSchema } from './form-patch.ts';

describe('dirtyPatch', () => {
  const output = { name: 'Harbor Tower', description: 'Fourteen floors', progress: 40, dueDate: null };

  it('keeps only the fields marked dirty, with their submitted (parsed) values', () => {
    expect(dirtyPatch({ description: true }, output)).toEqual({ description: 'Fourteen floors' });
    expect(dirtyPatch({ progress: true, dueDate: true }, output)).toEqual({ progress: 40, dueDate: null });
  });

  it('gives an empty patch when nothing was touched, and ignores fields marked clean', () => {
    expect(dirtyPatch({}, output)).toEqual({});
    expect(dirtyPatch({ name: false }, output)).toEqual({});
  });

  it('counts a nested field as dirty when any part of it is', () => {
    const nested = { tags: ['a', 'b'], address: { city: 'Portland', zip: '97201' }, name: 'x' };
    expect(dirtyPatch({ tags: [false, true], address: { zip: false } }, nested)).toEqual({
      tags: ['a', 'b'],
    });
    expect(dirtyPatch({ address: { city: true } }, nested)).toEqual({ address: nested.address });
  });

  it('never sends a dirty mark that names no output field', () => {
    expect(dirtyPatch({ somethingElse: true }, output)).toEqual({});
  });
});

describe('formSchema', () => {
  const schema = formSchema<{ n: string }, { n: number }>((values) => {
    const n = Number(values.n);
    return Number.isInteger(n) ? { ok: true, data: { n } } : { ok: false, errors: { n: 'N must be whole' } };
  });

  it('parses form values into the output', () => {
    expect(schema.parse({ n: '7' })).toEqual({ n: 7 });
  });

  it('reports each message on its field', () => {
    const result = schema.safeParse({ n: '1.5' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[['n'], 'N must be whole']]);
    expect(z.treeifyError(result.error!).properties?.n?.errors).toEqual(['N must be whole']);
  });
});
