import { describe, expect, it } from 'vitest';
import { fieldInWords, instantInWords, valueInWords } from './field-words.ts';

describe('field words', () => {
  it('names a field in words', () => {
    expect(fieldInWords('dueDate')).toBe('due date');
    expect(fieldInWords('assigneeId')).toBe('assignee');
    expect(fieldInWords('description')).toBe('description');
    expect(fieldInWords('estimatedHours')).toBe('estimated hours');
  });

  it('shows a date at midnight UTC as its day, another time with its time in UTC', () => {
    expect(valueInWords('2027-03-31T00:00:00.000Z')).toBe('Mar 31, 2027');
    expect(valueInWords('2027-03-31T23:00:00.000Z')).toBe('Mar 31, 2027, 23:00 UTC');
    expect(instantInWords(Date.UTC(2026, 10, 23, 14, 5))).toBe('Nov 23, 2026, 14:05 UTC');
  });

  it('quotes text, says empty for nothing, and shows numbers as they are', () => {
    expect(valueInWords('Pour on Friday')).toBe('"Pour on Friday"');
    expect(valueInWords(null)).toBe('empty');
    expect(valueInWords('')).toBe('empty');
    expect(valueInWords(65)).toBe('65');
    expect(valueInWords('x'.repeat(100))).toBe(`"${'x'.repeat(79)}…"`);
  });
});
