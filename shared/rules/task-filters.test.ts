import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TASK_FILTERS,
  emptyStateText,
  filtersFromQuery,
  filtersToQuery,
  hasActiveFilters,
  taskMatcher,
  type TaskFilters,
} from './task-filters.ts';

const ME = 'user-me';
const OTHER = 'user-other';
// 10 March 2025, 12:00 UTC: a Monday.
const ctx = { now: new Date('2025-03-10T12:00:00.000Z'), timeZone: 'UTC', userId: ME };
const f = (over: Partial<TaskFilters>): TaskFilters => ({ ...DEFAULT_TASK_FILTERS, ...over });

const tasks = [
  {
    id: 'a',
    title: 'Pour footings',
    description: 'North wall',
    status: 'pending',
    priority: 'high',
    projectId: 'p1',
    assigneeId: ME,
    dueDate: '2025-03-09T00:00:00.000Z',
  },
  {
    id: 'b',
    title: 'Order rebar',
    description: null,
    status: 'completed',
    priority: 'low',
    projectId: 'p1',
    assigneeId: OTHER,
    dueDate: '2025-03-08T00:00:00.000Z',
  },
  {
    id: 'c',
    title: 'Invoice client',
    description: 'March FOOTINGS invoice',
    status: 'in-progress',
    priority: 'medium',
    projectId: null,
    assigneeId: null,
    dueDate: '2025-03-10T00:00:00.000Z',
  },
  {
    id: 'd',
    title: 'Safety briefing',
    description: null,
    status: 'blocked',
    priority: 'critical',
    projectId: 'p2',
    assigneeId: ME,
    dueDate: '2025-03-17T00:00:00.000Z',
  },
  {
    id: 'e',
    title: 'Tidy yard',
    description: null,
    status: 'pending',
    priority: 'low',
    projectId: 'p2',
    assigneeId: null,
    dueDate: null,
  },
  {
    id: 'f',
    title: 'Next month',
    description: null,
    status: 'pending',
    priority: 'low',
    projectId: 'p2',
    assigneeId: null,
    dueDate: '2025-03-18T00:00:00.000Z',
  },
];
const ids = (filters: TaskFilters) => tasks.filter(taskMatcher(filters, ctx)).map((t) => t.id);

describe('task filters', () => {
  it('keep every task when nothing is chosen', () => {
    expect(ids(f({}))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
  it('search title and description, case-insensitive, ignoring surrounding spaces', () => {
    expect(ids(f({ search: '  footings ' }))).toEqual(['a', 'c']);
    expect(ids(f({ search: 'REBAR' }))).toEqual(['b']);
  });
  it('filter by status and priority', () => {
    expect(ids(f({ status: 'pending' }))).toEqual(['a', 'e', 'f']);
    expect(ids(f({ status: 'in-progress' }))).toEqual(['c']);
    expect(ids(f({ priority: 'low' }))).toEqual(['b', 'e', 'f']);
    expect(ids(f({ status: 'pending', priority: 'low' }))).toEqual(['e', 'f']);
  });
  it('filter by project', () => {
    expect(ids(f({ project: 'p2' }))).toEqual(['d', 'e', 'f']);
  });
  it("'Assigned to Me' keeps the signed-in user's tasks; unassigned and a person filter too", () => {
    expect(ids(f({ assignee: 'me' }))).toEqual(['a', 'd']);
    expect(ids(f({ assignee: 'unassigned' }))).toEqual(['c', 'e', 'f']);
    expect(ids(f({ assignee: OTHER }))).toEqual(['b']);
  });
  it('filter by due date: overdue never includes a completed task; this week is today to 7 days ahead', () => {
    expect(ids(f({ due: 'overdue' }))).toEqual(['a']);
    expect(ids(f({ due: 'today' }))).toEqual(['c']);
    expect(ids(f({ due: 'week' }))).toEqual(['c', 'd']);
    expect(ids(f({ due: 'none' }))).toEqual(['e']);
  });
  it("count days in the company's zone: 23:30 on 9 March in Los Angeles is still the 9th there", () => {
    const la = { ...ctx, now: new Date('2025-03-10T06:30:00.000Z'), timeZone: 'America/Los_Angeles' };
    expect(tasks.filter(taskMatcher(f({ due: 'today' }), la)).map((t) => t.id)).toEqual(['a']);
    expect(tasks.filter(taskMatcher(f({ due: 'overdue' }), la)).map((t) => t.id)).toEqual([]);
  });
});

describe('task filters in the URL', () => {
  it('round-trip through the query, leaving defaults out and other keys alone', () => {
    const chosen = f({
      search: 'rebar',
      status: 'blocked',
      priority: 'high',
      project: 'p1',
      due: 'week',
      assignee: 'me',
    });
    const query = filtersToQuery(chosen, new URLSearchParams('view=list'));
    expect(query.toString()).toBe(
      'view=list&q=rebar&status=blocked&priority=high&project=p1&due=week&assignee=me',
    );
    expect(filtersFromQuery(query)).toEqual(chosen);
    expect(filtersToQuery(f({}), query).toString()).toBe('view=list');
  });
  it('read an unknown status, priority or due window as all', () => {
    expect(filtersFromQuery(new URLSearchParams('status=done&priority=urgent&due=later'))).toEqual(f({}));
  });
  it('count as active only when something narrows the list', () => {
    expect(hasActiveFilters(f({ search: '   ' }))).toBe(false);
    expect(hasActiveFilters(f({ due: 'overdue' }))).toBe(true);
  });
});

describe('empty state wording', () => {
  it("says 'No tasks found' and invites a first task when no filter is on", () => {
    expect(emptyStateText(f({}))).toEqual({
      title: 'No tasks found',
      description: 'Get started by creating your first task.',
    });
  });
  it('names the search, status and priority the user chose', () => {
    expect(emptyStateText(f({ search: 'crane' })).description).toBe(
      'No tasks matching "crane". Try a different search or clear the filters.',
    );
    expect(emptyStateText(f({ status: 'in-progress' })).description).toBe(
      'No tasks with status In Progress. Try a different search or clear the filters.',
    );
    expect(emptyStateText(f({ search: 'crane', status: 'blocked', priority: 'critical' })).description).toBe(
      'No tasks matching "crane" and with status Blocked and with Critical priority. Try a different search or clear the filters.',
    );
  });
  it('speaks of filters when only the panel filters are on', () => {
    expect(emptyStateText(f({ assignee: 'me' })).description).toBe(
      'No tasks match your filters. Try clearing them.',
    );
  });
});
