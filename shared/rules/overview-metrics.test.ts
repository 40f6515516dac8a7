import { describe, expect, it } from 'vitest';
import {
  activeProjectCount,
  averageProgress,
  budgetUsagePercent,
  criticalProjects,
  isCriticalProject,
  overviewMetrics,
  type OverviewProject,
} from './overview-metrics.ts';

const p = (
  status: string,
  progress: number,
  budget: number | null = null,
  actualCost = 0,
): OverviewProject => ({
  status,
  progress,
  budget,
  actualCost,
});

describe('activeProjectCount', () => {
  it('counts only status active', () => {
    expect(activeProjectCount([p('active', 0), p('delayed', 0), p('completed', 0), p('active', 10)])).toBe(2);
  });
});

describe('averageProgress', () => {
  it('rounds the mean progress', () => {
    expect(averageProgress([p('active', 10), p('active', 15)])).toBe(13);
    expect(averageProgress([p('active', 10), p('active', 14)])).toBe(12);
  });
  it('is 0 without projects', () => {
    expect(averageProgress([])).toBe(0);
  });
});

describe('budgetUsagePercent', () => {
  it('is total actual over total budget', () => {
    expect(budgetUsagePercent([p('active', 0, 1000, 250), p('active', 0, null, 250)])).toBe(50);
  });
  it('is 0 when no project has a budget', () => {
    expect(budgetUsagePercent([p('active', 0, null, 500)])).toBe(0);
  });
});

describe('critical projects', () => {
  it('counts delayed ones and active ones below 50%', () => {
    expect(isCriticalProject(p('delayed', 90))).toBe(true);
    expect(isCriticalProject(p('active', 49))).toBe(true);
    expect(isCriticalProject(p('active', 50))).toBe(false);
    expect(isCriticalProject(p('on-hold', 10))).toBe(false);
    expect(criticalProjects([p('delayed', 90), p('active', 50), p('active', 0)])).toHaveLength(2);
  });
});

describe('overviewMetrics', () => {
  it('returns every metric together', () => {
    expect(overviewMetrics([p('active', 20, 100, 50), p('delayed', 60, 100, 100)])).toEqual({
      activeCount: 1,
      averageProgress: 40,
      budgetUsagePercent: 75,
      criticalCount: 2,
    });
  });
});
