import { describe, expect, it } from 'vitest';
import {
  expiredTasks,
  nextPriorityTasks,
  priorityColour,
  priorityRank,
  todaysTasks,
  type DashboardTask,
} from './dashboard-selections.ts';

const now = new Date('2025-03-10T12:00:00.000Z');
type T = DashboardTask & { id: string };
const task = (id: string, dueDate: string | null, status = 'pending', priority = 'medium'): T => ({
  id,
  dueDate,
  status,
  priority,
});
const ids = (list: T[]) => list.map((t) => t.id);

describe('priorityRank', () => {
  it('ranks critical 4, high 3, medium 2, low 1 and anything else 0', () => {
    expect(['critical', 'high', 'medium', 'low', 'other'].map(priorityRank)).toEqual([4, 3, 2, 1, 0]);
  });
});

describe('priorityColour', () => {
  it('shows high and critical red, the others blue', () => {
    expect(['critical', 'high', 'medium', 'low'].map(priorityColour)).toEqual(['red', 'red', 'blue', 'blue']);
  });
});

describe('todaysTasks', () => {
  it('keeps tasks due on the current day, completed ones too, up to 4', () => {
    const list = [
      task('a', '2025-03-10T00:00:00.000Z'),
      task('b', '2025-03-09T23:59:59.000Z'),
      task('c', '2025-03-10T23:00:00.000Z', 'completed'),
      task('d', null),
      task('e', '2025-03-10'),
      task('f', '2025-03-10'),
      task('g', '2025-03-10'),
    ];
    expect(ids(todaysTasks(list, now, 'UTC'))).toEqual(['a', 'c', 'e', 'f']);
  });
});

describe('expiredTasks', () => {
  it('keeps open tasks due before today, up to 5, never completed or undated ones', () => {
    const list = [
      task('today', '2025-03-10'),
      task('done', '2025-03-01', 'completed'),
      task('none', null),
      ...['1', '2', '3', '4', '5', '6'].map((n) => task(n, `2025-03-0${n}`, 'blocked')),
    ];
    expect(ids(expiredTasks(list, now, 'UTC'))).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('nextPriorityTasks', () => {
  it('takes 3 open tasks due today or later by priority rank, then earliest due date', () => {
    const list = [
      task('low-soon', '2025-03-10', 'pending', 'low'),
      task('high-late', '2025-03-20', 'pending', 'high'),
      task('high-soon', '2025-03-11', 'in-progress', 'high'),
      task('critical-past', '2025-03-09', 'pending', 'critical'),
      task('critical-done', '2025-03-12', 'completed', 'critical'),
      task('medium', '2025-03-15', 'pending', 'medium'),
      task('undated', null, 'pending', 'critical'),
    ];
    expect(ids(nextPriorityTasks(list, now, 'UTC'))).toEqual(['high-soon', 'high-late', 'medium']);
  });
  it('includes a task due earlier today', () => {
    expect(ids(nextPriorityTasks([task('x', '2025-03-10T01:00:00.000Z')], now, 'UTC'))).toEqual(['x']);
  });
});
