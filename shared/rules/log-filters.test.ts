import { describe, expect, it } from 'vitest';
import {
  hasActiveLogFilters,
  logDayRange,
  logFilterPredicate,
  nextLogStatus,
  NO_LOG_FILTERS,
  type LogFilters,
} from './log-filters.ts';

const LA = 'America/Los_Angeles';
const AUCKLAND = 'Pacific/Auckland';
const filters = (f: Partial<LogFilters>): LogFilters => ({ ...NO_LOG_FILTERS, ...f });
const keeps = (f: Partial<LogFilters>, now: Date, zone: string, createdAt: string, extra = {}) =>
  logFilterPredicate(filters(f), now, zone)({ title: 'Pour', content: '', createdAt, ...extra });

describe('log date presets in the company time zone', () => {
  // 23:30 on 10 June in Los Angeles (PDT, UTC-7) is already 06:30 on 11 June in UTC.
  const laLate = new Date('2026-06-11T06:30:00Z');

  it('Today at 23:30 in Los Angeles is still that day there, not the UTC day', () => {
    expect(logDayRange('today', laLate, LA)).toEqual({ from: '2026-06-10', to: '2026-06-10' });
    // 00:10 on 10 June in LA, a different UTC day from now's.
    expect(keeps({ date: 'today' }, laLate, LA, '2026-06-10T07:10:00Z')).toBe(true);
    // 23:50 on 9 June in LA.
    expect(keeps({ date: 'today' }, laLate, LA, '2026-06-10T06:50:00Z')).toBe(false);
    // The same instants in UTC: the first is on 10 June, now is on 11 June.
    expect(keeps({ date: 'today' }, laLate, 'UTC', '2026-06-10T07:10:00Z')).toBe(false);
  });

  // 00:30 on 11 June in Auckland (NZST, UTC+12) is 12:30 on 10 June in UTC.
  const nzEarly = new Date('2026-06-10T12:30:00Z');

  it('Today at 00:30 in Auckland starts at Auckland midnight, not UTC midnight', () => {
    expect(logDayRange('today', nzEarly, AUCKLAND)).toEqual({ from: '2026-06-11', to: '2026-06-11' });
    // 00:05 on 11 June in Auckland.
    expect(keeps({ date: 'today' }, nzEarly, AUCKLAND, '2026-06-10T12:05:00Z')).toBe(true);
    // 23:55 on 10 June in Auckland: the same UTC day as now, but yesterday there.
    expect(keeps({ date: 'today' }, nzEarly, AUCKLAND, '2026-06-10T11:55:00Z')).toBe(false);
  });

  it('This Week is the 7 days ending today (today and the 6 before)', () => {
    expect(logDayRange('week', laLate, LA)).toEqual({ from: '2026-06-04', to: '2026-06-10' });
    // 00:00 on 4 June in LA is 07:00Z.
    expect(keeps({ date: 'week' }, laLate, LA, '2026-06-04T07:00:00Z')).toBe(true);
    expect(keeps({ date: 'week' }, laLate, LA, '2026-06-04T06:59:00Z')).toBe(false);
    expect(logDayRange('week', nzEarly, AUCKLAND)).toEqual({ from: '2026-06-05', to: '2026-06-11' });
  });

  it('This Month runs from the day after the same day last month through today', () => {
    expect(logDayRange('month', laLate, LA)).toEqual({ from: '2026-05-11', to: '2026-06-10' });
    expect(keeps({ date: 'month' }, laLate, LA, '2026-05-11T07:00:00Z')).toBe(true);
    expect(keeps({ date: 'month' }, laLate, LA, '2026-05-11T06:59:00Z')).toBe(false);
    // 31 March minus a month is the end of February; across a year boundary too.
    expect(logDayRange('month', new Date('2026-03-31T12:00:00Z'), 'UTC')).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
    });
    expect(logDayRange('month', new Date('2026-01-15T12:00:00Z'), 'UTC')).toEqual({
      from: '2025-12-16',
      to: '2026-01-15',
    });
  });

  it('a log from the future (a skewed clock) is not in Today', () => {
    expect(keeps({ date: 'today' }, laLate, LA, '2026-06-11T07:30:00Z')).toBe(false);
  });

  it('Custom Range includes the whole end day, in the company zone, and applies only with both dates', () => {
    const now = new Date('2026-06-20T12:00:00Z');
    const custom = { date: 'custom' as const, start: '2026-06-01', end: '2026-06-05' };
    // 23:59 on 5 June in LA is 06:59Z on 6 June.
    expect(keeps(custom, now, LA, '2026-06-06T06:59:00Z')).toBe(true);
    expect(keeps(custom, now, LA, '2026-06-06T07:01:00Z')).toBe(false);
    expect(keeps(custom, now, LA, '2026-06-01T07:00:00Z')).toBe(true);
    expect(keeps(custom, now, LA, '2026-06-01T06:59:00Z')).toBe(false);
    expect(keeps({ ...custom, end: '' }, now, LA, '2025-01-01T00:00:00Z')).toBe(true);
    expect(keeps({ ...custom, start: '' }, now, LA, '2025-01-01T00:00:00Z')).toBe(true);
  });

  it('All Dates keeps every log, even one without a date', () => {
    expect(logDayRange('all', laLate, LA)).toBeNull();
    expect(logFilterPredicate(NO_LOG_FILTERS, laLate, LA)({ title: 'x' })).toBe(true);
    expect(logFilterPredicate(filters({ date: 'today' }), laLate, LA)({ title: 'x' })).toBe(false);
  });
});

describe('log search and field filters', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  const log = {
    projectId: 'p1',
    title: 'Concrete pour',
    content: 'Rebar inspection PASSED',
    type: 'issue',
    status: 'open',
    createdAt: '2026-06-10T10:00:00Z',
  };
  const keep = (f: Partial<LogFilters>) => logFilterPredicate(filters(f), now, 'UTC')(log);

  it('search matches title or content, case-insensitive, ignoring surrounding spaces', () => {
    expect(keep({ search: 'CONCRETE' })).toBe(true);
    expect(keep({ search: ' passed ' })).toBe(true);
    expect(keep({ search: 'roofing' })).toBe(false);
  });

  it('project, type and status match exactly', () => {
    expect(keep({ projectId: 'p1' })).toBe(true);
    expect(keep({ projectId: 'p2' })).toBe(false);
    expect(keep({ type: 'issue' })).toBe(true);
    expect(keep({ type: 'safety' })).toBe(false);
    expect(keep({ status: 'open' })).toBe(true);
    expect(keep({ status: 'closed' })).toBe(false);
  });

  it('a filter is active when any field differs from all', () => {
    expect(hasActiveLogFilters(NO_LOG_FILTERS)).toBe(false);
    expect(hasActiveLogFilters(filters({ search: '   ' }))).toBe(false);
    for (const f of [
      { search: 'a' },
      { projectId: 'p1' },
      { type: 'issue' },
      { status: 'open' },
      { date: 'today' as const },
      { start: '2026-06-01' },
    ]) {
      expect(hasActiveLogFilters(filters(f))).toBe(true);
    }
  });
});

describe('the next-step status button', () => {
  it('follows open, in-progress, resolved, closed with the spec labels, and stops at closed', () => {
    expect(nextLogStatus('open')).toEqual({ status: 'in-progress', label: 'Start Progress' });
    expect(nextLogStatus('in-progress')).toEqual({ status: 'resolved', label: 'Mark Resolved' });
    expect(nextLogStatus('resolved')).toEqual({ status: 'closed', label: 'Close' });
    expect(nextLogStatus('closed')).toBeNull();
    expect(nextLogStatus(undefined)).toBeNull();
  });
});
