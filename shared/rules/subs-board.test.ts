import { describe, expect, it } from 'vitest';
import {
  boardOverview,
  dailyTasks,
  groupTasks,
  milestoneTasks,
  recentActivity,
  weeklyView,
  type BoardTask,
} from './subs-board.ts';

const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
const task = (id: string, dueDate: string | null, extra: Partial<BoardTask> = {}): BoardTask => ({
  id,
  title: id,
  status: 'pending',
  dueDate,
  ...extra,
});
const ids = (tasks: readonly BoardTask[]) => tasks.map((t) => t.id);

describe('Weekly View (Sunday to Saturday of the current week in the company zone)', () => {
  // Saturday 21 Nov 2026, 23:30 in Los Angeles: UTC is already Sunday 22 Nov, 07:30.
  const saturdayNightLA = new Date('2026-11-22T07:30:00.000Z');
  // Sunday 22 Nov 2026, 00:30 in Auckland: UTC is still Saturday 21 Nov, 11:30.
  const sundayMorningAKL = new Date('2026-11-21T11:30:00.000Z');
  const tasks = [
    task('sat-before', '2026-11-14T00:00:00.000Z'),
    task('sun-15', '2026-11-15T00:00:00.000Z'),
    task('sat-21-late', '2026-11-21T17:00:00.000Z'),
    task('sat-21', '2026-11-21T00:00:00.000Z'),
    task('sun-22', '2026-11-22T00:00:00.000Z'),
    task('sat-28', '2026-11-28T00:00:00.000Z'),
    task('sun-29', '2026-11-29T00:00:00.000Z'),
    task('none', null),
  ];

  it('at Saturday 23:30 in Los Angeles still shows the week of Sunday 15 to Saturday 21', () => {
    const week = weeklyView(tasks, saturdayNightLA, LA);
    expect(week.map((d) => d.day)).toEqual([
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
    ]);
    expect(ids(week.flatMap((d) => d.tasks))).toEqual(['sun-15', 'sat-21', 'sat-21-late']);
    expect(ids(week[6]!.tasks)).toEqual(['sat-21', 'sat-21-late']);
  });

  it('at Sunday 00:30 in Auckland already shows the new week, Sunday 22 to Saturday 28', () => {
    const week = weeklyView(tasks, sundayMorningAKL, AKL);
    expect(week[0]!.day).toBe('2026-11-22');
    expect(week[6]!.day).toBe('2026-11-28');
    expect(ids(week.flatMap((d) => d.tasks))).toEqual(['sun-22', 'sat-28']);
  });

  it('the same instant in UTC is still the old week (Saturday 21 Nov, 11:30)', () => {
    const week = weeklyView(tasks, sundayMorningAKL, 'UTC');
    expect(week[0]!.day).toBe('2026-11-15');
  });
});

describe('Daily Tasks', () => {
  it('lists the tasks due today in the company zone, completed ones too, earliest first', () => {
    // 16:30 on Monday 23 Nov in Los Angeles is 00:30 on Tuesday 24 Nov in UTC.
    const now = new Date('2026-11-24T00:30:00.000Z');
    const tasks = [
      task('tue', '2026-11-24T00:00:00.000Z'),
      task('mon-done', '2026-11-23T00:00:00.000Z', { status: 'completed' }),
      task('mon-late', '2026-11-23T15:00:00.000Z'),
      task('sun', '2026-11-22T00:00:00.000Z'),
    ];
    expect(ids(dailyTasks(tasks, now, LA))).toEqual(['mon-done', 'mon-late']);
    expect(ids(dailyTasks(tasks, now, 'UTC'))).toEqual(['tue']);
  });
});

describe('Overview', () => {
  const now = new Date('2026-11-23T12:00:00.000Z');
  it('counts active subcontractors, pending tasks and tasks due today', () => {
    const tasks = [
      task('a', '2026-11-23T00:00:00.000Z'),
      task('b', '2026-11-23T00:00:00.000Z', { status: 'completed' }),
      task('c', '2026-11-25T00:00:00.000Z', { status: 'in-progress' }),
      task('d', null),
    ];
    const users = [
      { id: 's1', role: 'subcontractor', isActive: true },
      { id: 's2', role: 'subcontractor', isActive: false },
      { id: 's3', role: 'subcontractor' },
      { id: 'm1', role: 'manager', isActive: true },
    ];
    expect(boardOverview(tasks, users, now, 'UTC')).toEqual({
      activeSubcontractors: 2,
      pendingTasks: 2,
      dueToday: 2,
    });
  });

  it('shows the 5 most recently changed tasks, newest first', () => {
    const tasks = Array.from({ length: 7 }, (_, i) =>
      task(`t${i}`, null, { updatedAt: `2026-11-2${i}T10:00:00.000Z` }),
    );
    tasks.push(task('created-only', null, { createdAt: '2026-11-26T12:00:00.000Z' }));
    expect(ids(recentActivity(tasks))).toEqual(['created-only', 't6', 't5', 't4', 't3']);
  });
});

describe('Milestones and groups', () => {
  it('lists only flagged tasks, by due date with undated last', () => {
    const tasks = [
      task('undated', null, { isMilestone: true }),
      task('late', '2026-12-01T00:00:00.000Z', { isMilestone: true }),
      task('plain', '2026-11-01T00:00:00.000Z', { isMilestone: false }),
      task('early', '2026-11-01T00:00:00.000Z', { isMilestone: true }),
    ];
    expect(ids(milestoneTasks(tasks))).toEqual(['early', 'late', 'undated']);
  });

  it('groups by a key with a null group for tasks without one', () => {
    const tasks = [
      { ...task('x', '2026-11-02T00:00:00.000Z'), assigneeId: 'sub-1' },
      { ...task('y', '2026-11-01T00:00:00.000Z'), assigneeId: null },
      { ...task('z', '2026-11-01T00:00:00.000Z'), assigneeId: 'sub-1' },
    ];
    const groups = groupTasks(tasks, (t) => t.assigneeId);
    expect([...groups.keys()]).toEqual([null, 'sub-1']);
    expect(ids(groups.get('sub-1')!)).toEqual(['z', 'x']);
  });
});
