import { describe, expect, it } from 'vitest';
import { daysUntil, toTime, utcDay } from './dates.ts';

const now = new Date('2025-03-10T15:30:00.000Z');

describe('toTime', () => {
  it('reads ISO strings and Dates and gives null for missing or invalid values', () => {
    expect(toTime('2025-03-10T00:00:00.000Z')).toBe(Date.UTC(2025, 2, 10));
    expect(toTime(now)).toBe(now.getTime());
    expect(toTime(null)).toBeNull();
    expect(toTime(undefined)).toBeNull();
    expect(toTime('')).toBeNull();
    expect(toTime('not a date')).toBeNull();
  });
});

describe('utcDay', () => {
  it('puts the first and last millisecond of a UTC day on the same day number', () => {
    expect(utcDay('2025-03-10T00:00:00.000Z')).toBe(utcDay('2025-03-10T23:59:59.999Z'));
    expect(utcDay('2025-03-11T00:00:00.000Z')).toBe((utcDay('2025-03-10T23:59:59.999Z') as number) + 1);
  });
});

describe('daysUntil', () => {
  it('counts calendar days, not 24-hour spans', () => {
    expect(daysUntil('2025-03-10T00:00:00.000Z', now)).toBe(0);
    expect(daysUntil('2025-03-11T00:00:00.000Z', now)).toBe(1);
    expect(daysUntil('2025-03-09T23:59:00.000Z', now)).toBe(-1);
    expect(daysUntil(null, now)).toBeNull();
  });
});
