import { describe, expect, it } from 'vitest';
import { formatFieldValue, parseEditedFields, parseFieldValue } from './issue-fields.ts';

describe('editing the fields of a rejected change', () => {
  it('shows strings raw and other values as JSON', () => {
    expect(formatFieldValue('abc')).toBe('abc');
    expect(formatFieldValue(42)).toBe('42');
    expect(formatFieldValue(null)).toBe('null');
    expect(formatFieldValue(['a', 'b'])).toBe('["a","b"]');
  });

  it('reads values back by the type the change first had', () => {
    expect(parseFieldValue('title', 'old', ' new ')).toBe(' new ');
    expect(parseFieldValue('progress', 10, ' 55 ')).toBe(55);
    expect(() => parseFieldValue('progress', 10, 'lots')).toThrow('progress must be a number');
    expect(() => parseFieldValue('progress', 10, '')).toThrow('progress must be a number');
    expect(parseFieldValue('flag', true, 'false')).toBe(false);
    expect(() => parseFieldValue('flag', true, 'maybe')).toThrow('flag must be true or false');
    expect(parseFieldValue('tags', ['a'], '["a","b"]')).toEqual(['a', 'b']);
    expect(() => parseFieldValue('tags', ['a'], '[oops')).toThrow('tags is not valid');
    expect(parseFieldValue('dueDate', null, '')).toBeNull();
    expect(parseFieldValue('description', null, 'plain words')).toBe('plain words');
    expect(parseFieldValue('dueDate', null, '"2025-01-01"')).toBe('2025-01-01');
  });

  it('collects every field error at once', () => {
    const result = parseEditedFields(
      { title: 'a', progress: 1, done: false },
      { title: 'b', progress: 'x', done: 'no' },
    );
    expect(result.data).toEqual({ title: 'b' });
    expect(Object.keys(result.errors)).toEqual(['progress', 'done']);
  });
});
