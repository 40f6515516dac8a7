import { describe, expect, it } from 'vitest';
import { daysRemainingText } from './due-date-text.ts';
import { ganttBar, ganttDays } from './gantt.ts';
import { addMonths, dayCellTasks, monthBounds, monthGrid, monthLabel, monthOf } from './calendar-month.ts';
import { timelineDueText, timelineTasks, upcomingLowerBound, upcomingTasks } from './timeline.ts';

const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
const at = (iso: string) => new Date(iso);
const task = (title: string, dueDate: string | null, extra: Record<string, string> = {}) => ({
  title,
  dueDate,
  status: 'pending',
  priority: 'medium',
  ...extra,
});
const day = (n: number) => `2026-05-${String(n).padStart(2, '0')}T09:00:00.000Z`;

describe('Upcoming Tasks (Schedule Overview)', () => {
  it('keeps future-dated tasks only, earliest due first, the first 10', () => {
    const now = at('2026-05-12T15:00:00.000Z');
    // Days 25 down to 10: shuffled order in, 2 already past.
    const tasks = [
      task('No date', null),
      ...Array.from({ length: 16 }, (_, i) => task(`Day ${25 - i}`, day(25 - i))),
    ];
    const titles = upcomingTasks(tasks, now, 'UTC').map((t) => t.title);
    expect(titles).toEqual([
      'Day 12',
      'Day 13',
      'Day 14',
      'Day 15',
      'Day 16',
      'Day 17',
      'Day 18',
      'Day 19',
      'Day 20',
      'Day 21',
    ]);
  });

  it('at 23:30 in Los Angeles a task due that day is still upcoming (UTC has moved on)', () => {
    const now = at('2026-03-11T06:30:00.000Z'); // Tue 10 Mar, 23:30 PDT
    const tasks = [
      task('Due 10 Mar', '2026-03-10T00:00:00.000Z'),
      task('Due 9 Mar', '2026-03-09T00:00:00.000Z'),
    ];
    expect(upcomingTasks(tasks, now, LA).map((t) => t.title)).toEqual(['Due 10 Mar']);
    expect(upcomingTasks(tasks, now, 'UTC')).toEqual([]);
    expect(upcomingLowerBound(now, LA)).toBe('2026-03-10T00:00:00.000Z');
  });

  it('at 00:30 in Auckland yesterday (still today in UTC) is no longer upcoming', () => {
    const now = at('2026-07-14T12:30:00.000Z'); // Wed 15 Jul, 00:30 NZST
    const tasks = [
      task('Due 14 Jul', '2026-07-14T00:00:00.000Z'),
      task('Due 15 Jul', '2026-07-15T00:00:00.000Z'),
    ];
    expect(upcomingTasks(tasks, now, AKL).map((t) => t.title)).toEqual(['Due 15 Jul']);
    expect(upcomingTasks(tasks, now, 'UTC').map((t) => t.title)).toEqual(['Due 14 Jul', 'Due 15 Jul']);
  });
});

describe('Timeline', () => {
  it('chains every task with a due date by due date, undated ones left out', () => {
    const tasks = [task('C', day(20)), task('None', null), task('A', day(1)), task('B', day(1))];
    expect(timelineTasks(tasks).map((t) => t.title)).toEqual(['A', 'B', 'C']);
  });

  it("says 'N days overdue', 'Due today' and 'N days remaining' in the company's days", () => {
    const now = at('2026-03-11T06:30:00.000Z'); // 23:30 PDT on 10 Mar
    expect(daysRemainingText('2026-03-10T00:00:00.000Z', now, LA)).toBe('Due today');
    expect(daysRemainingText('2026-03-08T00:00:00.000Z', now, LA)).toBe('2 days overdue');
    expect(daysRemainingText('2026-03-09T00:00:00.000Z', now, LA)).toBe('1 day overdue');
    expect(daysRemainingText('2026-03-13T00:00:00.000Z', now, LA)).toBe('3 days remaining');
    expect(daysRemainingText('2026-03-11T00:00:00.000Z', now, LA)).toBe('1 day remaining');
    // The same instant is already 11 March in UTC.
    expect(daysRemainingText('2026-03-10T00:00:00.000Z', now, 'UTC')).toBe('1 day overdue');
  });

  it('never calls a completed task overdue', () => {
    const now = at('2026-05-12T15:00:00.000Z');
    expect(timelineDueText(task('Done', day(10), { status: 'completed' }), now, 'UTC')).toBe('Completed');
    expect(timelineDueText(task('Open', day(10)), now, 'UTC')).toBe('2 days overdue');
    expect(timelineDueText(task('Done early', day(14), { status: 'completed' }), now, 'UTC')).toBe(
      '2 days remaining',
    );
  });

  it('counts a DST change day as one day (Los Angeles spring forward, Auckland autumn back)', () => {
    const springForward = at('2026-03-09T06:30:00.000Z'); // Sun 8 Mar 23:30 PDT, a 23-hour day
    expect(daysRemainingText('2026-03-08T00:00:00.000Z', springForward, LA)).toBe('Due today');
    expect(daysRemainingText('2026-03-15T00:00:00.000Z', springForward, LA)).toBe('7 days remaining');
    const backInAuckland = at('2026-04-04T11:30:00.000Z'); // Sun 5 Apr 00:30 NZDT, a 25-hour day
    expect(daysRemainingText('2026-04-05T00:00:00.000Z', backInAuckland, AKL)).toBe('Due today');
    expect(daysRemainingText('2026-04-04T00:00:00.000Z', backInAuckland, AKL)).toBe('1 day overdue');
  });
});

describe('Gantt chart', () => {
  const now = at('2026-05-12T15:00:00.000Z');

  it('covers 7 days starting today', () => {
    expect(ganttDays(now, 'UTC')).toEqual([
      '2026-05-12',
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
      '2026-05-18',
    ]);
  });

  it('places a bar by days until due, clamped 0..6, always 2 of 7 columns wide', () => {
    const cases: [string, number][] = [
      [day(12), 0],
      [day(15), 3],
      [day(18), 6],
      [day(30), 6],
      [day(1), 0],
    ];
    for (const [due, column] of cases) {
      const bar = ganttBar(task('T', due, { status: 'completed' }), now, 'UTC')!;
      expect(bar.column).toBe(column);
      expect(bar.span).toBe(2);
      expect(bar.leftPercent).toBeCloseTo((column * 100) / 7, 5);
      expect(bar.widthPercent).toBeCloseTo(200 / 7, 5);
    }
    expect(ganttBar(task('T', null), now, 'UTC')).toBeNull();
  });

  it('is green when completed (even past due), red when overdue, else by priority', () => {
    const colour = (due: string, status: string, priority: string) =>
      ganttBar(task('T', due, { status, priority }), now, 'UTC')!.colour;
    expect(colour(day(1), 'completed', 'high')).toBe('low-completed');
    expect(colour(day(11), 'in-progress', 'low')).toBe('overdue');
    expect(colour(day(13), 'pending', 'high')).toBe('high');
    expect(colour(day(13), 'pending', 'critical')).toBe('high');
    expect(colour(day(13), 'blocked', 'medium')).toBe('medium');
    expect(colour(day(13), 'pending', 'low')).toBe('low-completed');
  });

  it("starts at the company's today: 23:30 in Los Angeles, 00:30 in Auckland, both DST change days", () => {
    const la = at('2026-03-11T06:30:00.000Z'); // 10 Mar 23:30 PDT
    expect(ganttDays(la, LA)[0]).toBe('2026-03-10');
    expect(ganttBar(task('T', '2026-03-10T00:00:00.000Z'), la, LA)!.colour).toBe('medium');
    expect(ganttBar(task('T', '2026-03-12T00:00:00.000Z'), la, LA)!.column).toBe(2);
    const akl = at('2026-07-14T12:30:00.000Z'); // 15 Jul 00:30 NZST
    expect(ganttDays(akl, AKL)[0]).toBe('2026-07-15');
    expect(ganttBar(task('T', '2026-07-14T00:00:00.000Z'), akl, AKL)!.colour).toBe('overdue');
    // Spring forward in Los Angeles (8 Mar) and fall back (1 Nov): 7 whole days each.
    expect(ganttDays(at('2026-03-09T06:30:00.000Z'), LA)).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
    const fallBack = at('2026-11-02T07:30:00.000Z'); // Sun 1 Nov 23:30 PST, a 25-hour day
    expect(ganttDays(fallBack, LA)[0]).toBe('2026-11-01');
    expect(ganttBar(task('T', '2026-11-07T00:00:00.000Z'), fallBack, LA)!.column).toBe(6);
    // Auckland's DST starts on 27 Sep 2026: 00:30 there is still 26 Sep in UTC.
    const aucklandSpring = at('2026-09-26T12:30:00.000Z'); // Sun 27 Sep 00:30 NZST
    expect(ganttDays(aucklandSpring, AKL)[0]).toBe('2026-09-27');
  });
});

describe('Calendar month grid', () => {
  it('starts each week on Sunday and pads the month to whole weeks', () => {
    const now = at('2026-03-10T12:00:00.000Z');
    const weeks = monthGrid('2026-03', now, 'UTC'); // 1 Mar 2026 is a Sunday
    expect(weeks).toHaveLength(5);
    expect(weeks[0]![0]).toMatchObject({ day: '2026-03-01', inMonth: true });
    expect(weeks[4]![6]).toMatchObject({ day: '2026-04-04', inMonth: false });
    const may = monthGrid('2026-05', now, 'UTC'); // 1 May 2026 is a Friday
    expect(may[0]!.map((c) => c.date)).toEqual([26, 27, 28, 29, 30, 1, 2]);
    expect(may[0]![0]!.inMonth).toBe(false);
    expect(may).toHaveLength(6);
    for (const week of may) expect(week).toHaveLength(7);
    expect(monthGrid('2026-02', now, 'UTC')).toHaveLength(4); // Feb 2026: Sun 1 to Sat 28
  });

  it("highlights today in the company's zone: 23:30 in Los Angeles, 00:30 in Auckland", () => {
    const todayOf = (month: string, now: Date, zone: string) =>
      monthGrid(month, now, zone)
        .flat()
        .filter((c) => c.isToday)
        .map((c) => c.day);
    expect(todayOf('2026-03', at('2026-03-11T06:30:00.000Z'), LA)).toEqual(['2026-03-10']);
    expect(todayOf('2026-07', at('2026-07-14T12:30:00.000Z'), AKL)).toEqual(['2026-07-15']);
    // The last evening of a month in Los Angeles is already the next month in UTC.
    const lastEvening = at('2026-04-01T06:30:00.000Z'); // 31 Mar 23:30 PDT
    expect(monthOf(lastEvening, LA)).toBe('2026-03');
    expect(monthOf(lastEvening, 'UTC')).toBe('2026-04');
    expect(todayOf('2026-04', lastEvening, LA)).toEqual(['2026-03-31']);
  });

  it('moves by month across years and names the month', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(monthBounds('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthLabel('2026-03')).toBe('March 2026');
  });

  it("shows 3 tasks a day, then '+N more'", () => {
    expect(dayCellTasks(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
    expect(dayCellTasks(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], more: 0 });
  });
});
