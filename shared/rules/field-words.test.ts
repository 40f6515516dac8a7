import { describe, expect, it } from 'vitest';
import { fieldInWords, fieldVerb, instantInWords, valueInWords } from './field-words.ts';

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

  it("reads a log's photos as photos, by their number, and a list of tags as quoted words", () => {
    expect(`Your ${fieldInWords('images')} ${fieldVerb('images')} replaced`).toBe(
      'Your photos were replaced',
    );
    expect(`Your ${fieldInWords('status')} ${fieldVerb('status')} replaced`).toBe('Your status was replaced');
    const photo = (n: number) => `/api/photos/0195a0a0-0000-7000-8000-00000000020${n}/file`;
    expect(valueInWords([photo(1), photo(2), photo(3)])).toBe('3 photos');
    expect(valueInWords([photo(1)])).toBe('1 photo');
    expect(valueInWords([])).toBe('none');
    expect(valueInWords(['rebar', 'level 3'])).toBe('"rebar", "level 3"');
  });
});
