import { describe, expect, it } from 'vitest';
import {
  activeProjectsWidget,
  isNewThisWeek,
  overviewHealthCards,
  pendingDueTodayCount,
  type DashboardProject,
} from './dashboard-cards.ts';

// Monday 10 March 2025, 06:30 UTC: still Sunday 9 March (23:30) in Los Angeles.
const now = new Date('2025-03-10T06:30:00.000Z');
const LA = 'America/Los_Angeles';

describe('isNewThisWeek', () => {
  it('counts today and the 6 days before in the company zone, not earlier and not the future', () => {
    // In UTC, today is 10 March: 4 March is the 7th day back, 3 March the 8th.
    expect(isNewThisWeek('2025-03-04T00:00:00.000Z', now, 'UTC')).toBe(true);
    expect(isNewThisWeek('2025-03-03T23:59:59.000Z', now, 'UTC')).toBe(false);
    expect(isNewThisWeek('2025-03-10T06:30:00.000Z', now, 'UTC')).toBe(true);
    expect(isNewThisWeek('2025-03-10T07:00:00.000Z', now, 'UTC')).toBe(false);
  });

  it("uses the company's day: in Los Angeles today is 9 March, so 3 March is still this week", () => {
    // 2025-03-03T12:00Z is 3 March 04:00 in Los Angeles: the 7th day back from Sunday 9 March.
    expect(isNewThisWeek('2025-03-03T12:00:00.000Z', now, LA)).toBe(true);
    expect(isNewThisWeek('2025-03-03T12:00:00.000Z', now, 'UTC')).toBe(false);
  });

  it('is false for a missing or unreadable date', () => {
    expect(isNewThisWeek(null, now, 'UTC')).toBe(false);
    expect(isNewThisWeek('not a date', now, 'UTC')).toBe(false);
  });
});

describe('pendingDueTodayCount', () => {
  it('counts tasks due today that are not completed', () => {
    const tasks = [
      { status: 'pending', dueDate: '2025-03-10' },
      { status: 'in_progress', dueDate: '2025-03-10T18:00:00.000Z' },
      { status: 'completed', dueDate: '2025-03-10' },
      { status: 'pending', dueDate: '2025-03-09' },
      { status: 'pending', dueDate: '2025-03-11' },
      { status: 'pending', dueDate: null },
    ];
    expect(pendingDueTodayCount(tasks, now, 'UTC')).toBe(2);
    // In Los Angeles it is still 9 March.
    expect(pendingDueTodayCount(tasks, now, LA)).toBe(1);
  });
});

const project = (name: string, status: string, progress: number, dueDate: string | null = null) =>
  ({ name, status, progress, dueDate }) satisfies DashboardProject;

describe('activeProjectsWidget', () => {
  it('shows 3 active projects, the nearest due date first, undated last', () => {
    const list = [
      project('Undated', 'active', 10),
      project('Later', 'active', 10, '2025-06-01'),
      project('Done', 'completed', 100, '2025-01-01'),
      project('Soon', 'active', 10, '2025-03-20'),
      project('Held', 'on-hold', 10, '2025-03-11'),
      project('Soonest', 'active', 10, '2025-03-12'),
    ];
    expect(activeProjectsWidget(list).map((p) => p.name)).toEqual(['Soonest', 'Soon', 'Later']);
  });
});

describe('overviewHealthCards', () => {
  it('shows at most 6 cards, worst health first, and counts every project for View All', () => {
    const list = [
      project('A on track', 'active', 85),
      project('B complete', 'completed', 100),
      project('C behind', 'active', 20),
      project('D at risk', 'delayed', 90),
      project('E moderate', 'on-hold', 60),
      project('F behind', 'active', 49),
      project('G on track', 'active', 80),
      project('H moderate', 'active', 50),
    ];
    const { cards, total } = overviewHealthCards(list);
    expect(total).toBe(8);
    expect(cards.map((c) => `${c.project.name}: ${c.health}`)).toEqual([
      'D at risk: At Risk',
      'C behind: Behind',
      'F behind: Behind',
      'E moderate: Moderate',
      'H moderate: Moderate',
      'A on track: On Track',
    ]);
  });
});
