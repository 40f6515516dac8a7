import { describe, expect, it } from 'vitest';
import { dueDateText, isTaskOverdue } from './due-date-text.ts';

const now = new Date('2025-03-10T18:00:00.000Z');

describe('dueDateText', () => {
  it('says "1 day overdue" for yesterday, singular', () => {
    expect(dueDateText('2025-03-09T23:00:00.000Z', now, 'UTC')).toBe('1 day overdue');
  });
  it('says "n days overdue" for older dates', () => {
    expect(dueDateText('2025-03-05', now, 'UTC')).toBe('5 days overdue');
  });
  it('says "Due today" for any time today, even earlier today', () => {
    expect(dueDateText('2025-03-10T00:00:00.000Z', now, 'UTC')).toBe('Due today');
    expect(dueDateText('2025-03-10T23:59:00.000Z', now, 'UTC')).toBe('Due today');
  });
  it('says "Due tomorrow" for the next day', () => {
    expect(dueDateText('2025-03-11T00:00:00.000Z', now, 'UTC')).toBe('Due tomorrow');
  });
  it('says "Due in n days" from two days ahead', () => {
    expect(dueDateText('2025-03-12T09:00:00.000Z', now, 'UTC')).toBe('Due in 2 days');
  });
  it('says "No due date" without one', () => {
    expect(dueDateText(null, now, 'UTC')).toBe('No due date');
  });
});

describe('isTaskOverdue', () => {
  it('is true for an open task due yesterday, false for one due today', () => {
    expect(isTaskOverdue({ status: 'pending', dueDate: '2025-03-09T23:59:59.000Z' }, now, 'UTC')).toBe(true);
    expect(isTaskOverdue({ status: 'pending', dueDate: '2025-03-10T00:00:00.000Z' }, now, 'UTC')).toBe(false);
  });
  it('is never true for a completed task or one without a due date', () => {
    expect(isTaskOverdue({ status: 'completed', dueDate: '2020-01-01' }, now, 'UTC')).toBe(false);
    expect(isTaskOverdue({ status: 'blocked', dueDate: null }, now, 'UTC')).toBe(false);
  });
});
