import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  daysUntil,
  dueDay,
  isDueInCurrentWeek,
  isDueThisWeek,
  isTimeZone,
  startOfTodayIn,
  todayIn,
  toTime,
  weekDaysIn,
  zoneOrDefault,
} from './dates.ts';
import { daysRemainingText, dueDateText, isTaskOverdue } from './due-date-text.ts';
import { expiredTasks, todaysTasks } from './dashboard-selections.ts';

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

describe('dueDay', () => {
  it('names the UTC date of a stored due date, as the forms show it', () => {
    expect(dueDay('2025-03-10T00:00:00.000Z')).toBe('2025-03-10');
    expect(dueDay('2025-03-10T23:59:59.999Z')).toBe('2025-03-10');
    expect(dueDay('2025-03-10')).toBe('2025-03-10');
    expect(dueDay(null)).toBeNull();
    expect(addCalendarDays('2026-02-28', 1)).toBe('2026-03-01');
  });
});

describe('daysUntil', () => {
  it('counts calendar days, not 24-hour spans', () => {
    expect(daysUntil('2025-03-10T00:00:00.000Z', now, 'UTC')).toBe(0);
    expect(daysUntil('2025-03-11T00:00:00.000Z', now, 'UTC')).toBe(1);
    expect(daysUntil('2025-03-09T23:59:00.000Z', now, 'UTC')).toBe(-1);
    expect(daysUntil(null, now, 'UTC')).toBeNull();
  });
});

const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
const task = (dueDate: string, status = 'pending') => ({ id: dueDate, status, priority: 'high', dueDate });

describe("what 'today' is in the company's time zone", () => {
  it('at 23:30 in Los Angeles a task due that day is still due today, not overdue as in UTC', () => {
    const now = new Date('2026-03-11T06:30:00.000Z'); // Tue 10 Mar 2026, 23:30 PDT
    expect(todayIn(now, LA)).toBe('2026-03-10');
    expect(dueDateText('2026-03-10', now, LA)).toBe('Due today');
    expect(dueDateText('2026-03-11', now, LA)).toBe('Due tomorrow');
    expect(dueDateText('2026-03-09', now, LA)).toBe('1 day overdue');
    expect(isTaskOverdue(task('2026-03-10'), now, LA)).toBe(false);
    expect(todaysTasks([task('2026-03-10'), task('2026-03-11')], now, LA).map((t) => t.id)).toEqual([
      '2026-03-10',
    ]);
    // The same instant in a UTC company is already the 11th.
    expect(dueDateText('2026-03-10', now, 'UTC')).toBe('1 day overdue');
  });

  it('at 00:30 in Auckland yesterday’s task is overdue although UTC is still on that day', () => {
    const now = new Date('2026-03-10T11:30:00.000Z'); // Wed 11 Mar 2026, 00:30 NZDT
    expect(todayIn(now, AKL)).toBe('2026-03-11');
    expect(dueDateText('2026-03-10', now, AKL)).toBe('1 day overdue');
    expect(dueDateText('2026-03-11', now, AKL)).toBe('Due today');
    expect(daysRemainingText('2026-03-14', now, AKL)).toBe('3 days remaining');
    expect(expiredTasks([task('2026-03-10'), task('2026-03-10', 'completed')], now, AKL)).toHaveLength(1);
    expect(dueDateText('2026-03-10', now, 'UTC')).toBe('Due today');
  });

  it('counts the 23-hour spring-forward day in Los Angeles (2026-03-08) as one day', () => {
    const early = new Date('2026-03-08T08:30:00.000Z'); // 00:30 PST
    const late = new Date('2026-03-09T06:30:00.000Z'); // 23:30 PDT
    for (const now of [early, late]) {
      expect(todayIn(now, LA)).toBe('2026-03-08');
      expect(dueDateText('2026-03-08', now, LA)).toBe('Due today');
      expect(dueDateText('2026-03-15', now, LA)).toBe('Due in 7 days');
      expect(daysRemainingText('2026-03-06', now, LA)).toBe('2 days overdue');
    }
    expect(startOfTodayIn(late, LA).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(dueDateText('2026-03-09', new Date('2026-03-09T07:00:00.000Z'), LA)).toBe('Due today');
  });

  it('counts the 25-hour fall-back day in Los Angeles (2026-11-01) as one day', () => {
    const early = new Date('2026-11-01T07:30:00.000Z'); // 00:30 PDT
    const late = new Date('2026-11-02T07:30:00.000Z'); // 23:30 PST
    for (const now of [early, late]) {
      expect(todayIn(now, LA)).toBe('2026-11-01');
      expect(dueDateText('2026-11-01', now, LA)).toBe('Due today');
      expect(dueDateText('2026-11-02', now, LA)).toBe('Due tomorrow');
      expect(dueDateText('2026-10-31', now, LA)).toBe('1 day overdue');
    }
    expect(startOfTodayIn(late, LA).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(todayIn(new Date('2026-11-02T08:00:00.000Z'), LA)).toBe('2026-11-02');
  });

  it('counts the 25-hour day DST ends in Auckland (2026-04-05) as one day', () => {
    const early = new Date('2026-04-04T11:30:00.000Z'); // 00:30 NZDT
    const late = new Date('2026-04-05T11:30:00.000Z'); // 23:30 NZST
    for (const now of [early, late]) {
      expect(todayIn(now, AKL)).toBe('2026-04-05');
      expect(dueDateText('2026-04-05', now, AKL)).toBe('Due today');
      expect(dueDateText('2026-04-04', now, AKL)).toBe('1 day overdue');
      expect(daysRemainingText('2026-04-08', now, AKL)).toBe('3 days remaining');
    }
    expect(startOfTodayIn(late, AKL).toISOString()).toBe('2026-04-04T11:00:00.000Z');
  });

  it('counts the 23-hour day DST starts in Auckland (2026-09-27) as one day', () => {
    const early = new Date('2026-09-26T12:30:00.000Z'); // 00:30 NZST
    const late = new Date('2026-09-27T10:30:00.000Z'); // 23:30 NZDT
    for (const now of [early, late]) {
      expect(todayIn(now, AKL)).toBe('2026-09-27');
      expect(dueDateText('2026-09-27', now, AKL)).toBe('Due today');
      expect(dueDateText('2026-09-28', now, AKL)).toBe('Due tomorrow');
    }
    expect(startOfTodayIn(late, AKL).toISOString()).toBe('2026-09-26T12:00:00.000Z');
  });

  it('never calls a completed task overdue', () => {
    const now = new Date('2026-03-11T06:30:00.000Z');
    expect(isTaskOverdue(task('2026-01-01', 'completed'), now, LA)).toBe(false);
    expect(isTaskOverdue(task('2026-01-01'), now, LA)).toBe(true);
  });
});

describe('the spec’s windows in the company’s zone', () => {
  it('Due This Week runs from today up to 7 days ahead', () => {
    const now = new Date('2026-03-11T06:30:00.000Z'); // Tue 10 Mar, 23:30 in Los Angeles
    expect(isDueThisWeek('2026-03-10', now, LA)).toBe(true);
    expect(isDueThisWeek('2026-03-17', now, LA)).toBe(true);
    expect(isDueThisWeek('2026-03-18', now, LA)).toBe(false);
    expect(isDueThisWeek('2026-03-09', now, LA)).toBe(false);
    expect(isDueThisWeek(null, now, LA)).toBe(false);
  });

  it('the Weekly View is Sunday to Saturday of the company’s current week', () => {
    const saturdayNight = new Date('2026-03-15T06:30:00.000Z'); // Sat 14 Mar, 23:30 in LA; Sunday in UTC
    expect(weekDaysIn(saturdayNight, LA)).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
    expect(weekDaysIn(saturdayNight, 'UTC')[0]).toBe('2026-03-15');
    expect(isDueInCurrentWeek('2026-03-08', saturdayNight, LA)).toBe(true);
    expect(isDueInCurrentWeek('2026-03-15', saturdayNight, LA)).toBe(false);
  });
});

describe('time zone names', () => {
  it('accepts IANA zones and UTC, refuses anything else, and reads a bad stored zone as UTC', () => {
    expect(isTimeZone('America/Los_Angeles')).toBe(true);
    expect(isTimeZone('Pacific/Auckland')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(42)).toBe(false);
    expect(zoneOrDefault('Mars/Olympus_Mons')).toBe('UTC');
  });
});
