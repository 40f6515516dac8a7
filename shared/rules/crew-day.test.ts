import { describe, expect, it } from 'vitest';
import { crewDay, dueTimeText, isTodayIn, recentRequests } from './crew-day.ts';

const LA = 'America/Los_Angeles';
const AUCKLAND = 'Pacific/Auckland';
// 23:30 on Tuesday 10 March 2026 in Los Angeles (PDT, UTC-7): UTC is already on the 11th.
const LA_LATE = new Date('2026-03-11T06:30:00.000Z');
// 00:30 on Wednesday 11 March 2026 in Auckland (NZDT, UTC+13): UTC is still on the 10th.
const AUCKLAND_EARLY = new Date('2026-03-10T11:30:00.000Z');

const task = (id: string, dueDate: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  status: 'pending',
  dueDate,
  ...extra,
});

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);

describe("the crew member's day", () => {
  it("at 23:30 in Los Angeles a task due that day is still today's, and the next day's is upcoming", () => {
    const day = crewDay(
      [
        task('due-10th', '2026-03-10T15:00:00.000Z'),
        task('due-11th', '2026-03-11T00:00:00.000Z'),
        task('due-9th', '2026-03-09T15:00:00.000Z'),
      ],
      LA_LATE,
      LA,
    );
    expect(ids(day.today)).toEqual(['due-10th']);
    expect(ids(day.upcoming)).toEqual(['due-11th']);
  });

  it("at 00:30 in Auckland the task due that day is today's although UTC is still on the day before", () => {
    const day = crewDay(
      [task('due-10th', '2026-03-10T18:00:00.000Z'), task('due-11th', '2026-03-11T00:00:00.000Z')],
      AUCKLAND_EARLY,
      AUCKLAND,
    );
    expect(ids(day.today)).toEqual(['due-11th']);
    expect(ids(day.upcoming)).toEqual([]);
  });

  it("today's list keeps completed tasks (to untick them) and sorts by due time, then title", () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    const day = crewDay(
      [
        task('b-late', '2026-03-10T17:00:00.000Z'),
        task('done', '2026-03-10T09:00:00.000Z', { status: 'completed' }),
        task('a-late', '2026-03-10T17:00:00.000Z'),
      ],
      now,
      'UTC',
    );
    expect(ids(day.today)).toEqual(['done', 'a-late', 'b-late']);
  });

  it('upcoming covers the 7 days after today, open tasks only, soonest first', () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    const day = crewDay(
      [
        task('day-7', '2026-03-17T09:00:00.000Z'),
        task('day-8', '2026-03-18T09:00:00.000Z'),
        task('day-1', '2026-03-11T09:00:00.000Z'),
        task('day-2-done', '2026-03-12T09:00:00.000Z', { status: 'completed' }),
        task('no-date', null),
      ],
      now,
      'UTC',
    );
    expect(ids(day.upcoming)).toEqual(['day-1', 'day-7']);
  });

  it("'Completed Today' counts completions since midnight in the company's zone", () => {
    // 10 March in Los Angeles begins at 08:00Z (PDT started on 8 March).
    const now = new Date('2026-03-10T20:00:00.000Z');
    const day = crewDay(
      [
        task('just-after-midnight', '2026-03-09T15:00:00.000Z', {
          status: 'completed',
          completedAt: '2026-03-10T07:30:00.000Z',
        }),
        task('late-yesterday', '2026-03-09T15:00:00.000Z', {
          status: 'completed',
          completedAt: '2026-03-10T06:30:00.000Z',
        }),
        task('reopened', null, { status: 'pending', completedAt: '2026-03-10T09:00:00.000Z' }),
        task('unknown-time', null, { status: 'completed' }),
      ],
      now,
      LA,
    );
    expect(day.completedToday).toBe(1);
  });

  it('a DST change day is one day: at 23:30 on 8 March in Los Angeles, a task due that day is today', () => {
    // 8 March 2026 is 23 hours long in Los Angeles; 23:30 PDT is 06:30Z on the 9th.
    const now = new Date('2026-03-09T06:30:00.000Z');
    expect(isTodayIn('2026-03-08T08:30:00.000Z', now, LA)).toBe(true);
    const day = crewDay([task('due-8th', '2026-03-08T00:00:00.000Z')], now, LA);
    expect(ids(day.today)).toEqual(['due-8th']);
  });

  it('the day Auckland leaves summer time (25 hours) is one day from 00:30 to 23:30', () => {
    // 5 April 2026: 00:30 NZDT is 11:30Z on the 4th; 23:30 NZST is 11:30Z on the 5th.
    const due = [task('due-5th', '2026-04-05T00:00:00.000Z'), task('due-6th', '2026-04-06T00:00:00.000Z')];
    expect(ids(crewDay(due, new Date('2026-04-04T11:30:00.000Z'), AUCKLAND).today)).toEqual(['due-5th']);
    expect(ids(crewDay(due, new Date('2026-04-05T11:30:00.000Z'), AUCKLAND).today)).toEqual(['due-5th']);
    expect(ids(crewDay(due, new Date('2026-04-05T12:30:00.000Z'), AUCKLAND).today)).toEqual(['due-6th']);
  });
});

describe('due time text', () => {
  it('shows the time of day the due date carries', () => {
    expect(dueTimeText('2026-03-10T15:30:00.000Z')).toBe('3:30 PM');
    expect(dueTimeText('2026-03-10T09:05:00.000Z')).toBe('9:05 AM');
  });

  it("says 'No time set' without a due date or for a date-only value (midnight UTC)", () => {
    expect(dueTimeText(null)).toBe('No time set');
    expect(dueTimeText('2026-03-10T00:00:00.000Z')).toBe('No time set');
    expect(dueTimeText('2026-03-10')).toBe('No time set');
  });
});

describe('recent requests', () => {
  it('keeps the latest 5, newest first', () => {
    const changes = [1, 7, 3, 5, 2, 6, 4].map((d) => ({
      id: `c${d}`,
      createdAt: `2026-03-0${d}T10:00:00.000Z`,
    }));
    expect(ids(recentRequests(changes))).toEqual(['c7', 'c6', 'c5', 'c4', 'c3']);
  });
});
