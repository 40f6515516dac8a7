import { describe, expect, it } from 'vitest';
import {
  averageHealth,
  budgetHealth,
  clampScore,
  computeProjectHealth,
  elapsedPercent,
  overallHealth,
  projectRiskLevel,
  qualityHealth,
  resourceHealth,
  riskLevelFromOverall,
  scheduleHealth,
  type HealthProject,
  type HealthTask,
} from './project-health.ts';

const now = new Date('2025-01-11T00:00:00.000Z');
// Ten days from creation to due date; `now` is exactly halfway.
const project = (over: Partial<HealthProject> = {}): HealthProject => ({
  progress: 50,
  createdAt: '2025-01-06T00:00:00.000Z',
  dueDate: '2025-01-16T00:00:00.000Z',
  budget: null,
  actualCost: 0,
  ...over,
});
const task = (
  status = 'pending',
  dueDate: string | null = null,
  assigneeId: string | null = 'u1',
): HealthTask => ({
  status,
  dueDate,
  assigneeId,
});

describe('clampScore', () => {
  it('rounds and clamps to 0..100', () => {
    expect([clampScore(-5), clampScore(49.5), clampScore(150)]).toEqual([0, 50, 100]);
  });
});

describe('elapsedPercent', () => {
  it('is the share of createdAt -> dueDate passed at now', () => {
    expect(elapsedPercent(project(), now)).toBe(50);
  });
  it('is 0 without a due date and before the start', () => {
    expect(elapsedPercent(project({ dueDate: null }), now)).toBe(0);
    expect(
      elapsedPercent(project({ createdAt: '2025-02-01T00:00:00.000Z', dueDate: '2025-03-01' }), now),
    ).toBe(0);
  });
  it('is 100 once the due date has passed, even when it was before creation', () => {
    expect(elapsedPercent(project({ dueDate: '2025-01-10T00:00:00.000Z' }), now)).toBe(100);
    expect(elapsedPercent(project({ createdAt: '2025-01-10', dueDate: '2025-01-09' }), now)).toBe(100);
  });
});

describe('scheduleHealth', () => {
  it('is 100 when progress keeps up with elapsed time and nothing is overdue', () => {
    expect(scheduleHealth(project({ progress: 50 }), [task()], now, 'UTC')).toBe(100);
    expect(scheduleHealth(project({ progress: 80 }), [], now, 'UTC')).toBe(100);
  });
  it('loses the lag of progress behind elapsed time', () => {
    expect(scheduleHealth(project({ progress: 20 }), [], now, 'UTC')).toBe(70);
  });
  it('loses 50 x the share of open tasks overdue, completed tasks left out', () => {
    const tasks = [
      task('pending', '2025-01-01'),
      task('pending', '2025-02-01'),
      task('completed', '2025-01-01'),
    ];
    expect(scheduleHealth(project(), tasks, now, 'UTC')).toBe(75);
  });
  it('never goes below 0', () => {
    expect(
      scheduleHealth(
        project({ progress: 0, dueDate: '2025-01-07' }),
        [task('pending', '2025-01-01')],
        now,
        'UTC',
      ),
    ).toBe(0);
  });
});

describe('budgetHealth', () => {
  it('is 100 without a budget', () => {
    expect(budgetHealth({ budget: null, actualCost: 5000, progress: 0 })).toBe(100);
    expect(budgetHealth({ budget: 0, actualCost: 5000, progress: 0 })).toBe(100);
  });
  it('is 100 while spending stays at or behind progress', () => {
    expect(budgetHealth({ budget: 1000, actualCost: 500, progress: 50 })).toBe(100);
  });
  it('loses the points by which spent % runs ahead of progress %', () => {
    expect(budgetHealth({ budget: 1000, actualCost: 700, progress: 40 })).toBe(70);
    expect(budgetHealth({ budget: 1000, actualCost: 3000, progress: 0 })).toBe(0);
  });
});

describe('qualityHealth', () => {
  it('loses 10 per open issue log and 20 per open safety log', () => {
    const logs = [
      { type: 'issue', status: 'open' },
      { type: 'issue', status: 'in-progress' },
      { type: 'safety', status: 'open' },
      { type: 'issue', status: 'resolved' },
      { type: 'safety', status: 'closed' },
      { type: 'general', status: 'open' },
    ];
    expect(qualityHealth(logs)).toBe(60);
  });
  it('never goes below 0', () => {
    expect(qualityHealth(Array.from({ length: 6 }, () => ({ type: 'safety', status: 'open' })))).toBe(0);
  });
});

describe('resourceHealth', () => {
  it('is 100 with no open tasks', () => {
    expect(resourceHealth([task('completed', null, null)])).toBe(100);
  });
  it('loses 50 x the unassigned share and 50 x the blocked share of open tasks', () => {
    expect(resourceHealth([task('pending', null, null), task('blocked'), task(), task()])).toBe(75);
    expect(resourceHealth([task('blocked', null, null)])).toBe(0);
  });
});

describe('overallHealth', () => {
  it('weighs schedule 0.35, budget 0.30, quality 0.20, resources 0.15 and rounds', () => {
    expect(overallHealth({ schedule: 100, budget: 0, quality: 0, resources: 0 })).toBe(35);
    expect(overallHealth({ schedule: 0, budget: 100, quality: 0, resources: 0 })).toBe(30);
    expect(overallHealth({ schedule: 0, budget: 0, quality: 100, resources: 0 })).toBe(20);
    expect(overallHealth({ schedule: 0, budget: 0, quality: 0, resources: 100 })).toBe(15);
    expect(overallHealth({ schedule: 71, budget: 0, quality: 0, resources: 0 })).toBe(25);
  });
});

describe('riskLevelFromOverall', () => {
  it('is low from 80, medium from 60, high from 40, critical below', () => {
    expect([80, 79, 60, 59, 40, 39].map(riskLevelFromOverall)).toEqual([
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
    ]);
  });
});

describe('projectRiskLevel', () => {
  it('is raised to the most severe open risk assessment', () => {
    expect(projectRiskLevel(90, [{ status: 'identified', riskScore: 15 }])).toBe('high');
    expect(
      projectRiskLevel(90, [
        { status: 'monitoring', riskScore: 25 },
        { status: 'identified', riskScore: 9 },
      ]),
    ).toBe('critical');
  });
  it('ignores mitigated and closed risks', () => {
    expect(
      projectRiskLevel(90, [
        { status: 'mitigated', riskScore: 25 },
        { status: 'closed', riskScore: 25 },
      ]),
    ).toBe('low');
  });
  it('is never lowered by a mild risk', () => {
    expect(projectRiskLevel(30, [{ status: 'identified', riskScore: 1 }])).toBe('critical');
  });
});

describe('computeProjectHealth', () => {
  it('gives a healthy project full marks and a low risk level', () => {
    expect(
      computeProjectHealth({ project: project(), tasks: [task()], logs: [], risks: [] }, now, 'UTC'),
    ).toEqual({
      overallHealthScore: 100,
      scheduleHealth: 100,
      budgetHealth: 100,
      qualityHealth: 100,
      resourceHealth: 100,
      riskLevel: 'low',
    });
  });
  it('combines every score of a struggling project', () => {
    const h = computeProjectHealth(
      {
        project: project({ progress: 30, budget: 10_000, actualCost: 6_000 }),
        tasks: [task('pending', '2025-01-01', null), task('blocked', '2025-02-01')],
        logs: [
          { type: 'issue', status: 'open' },
          { type: 'safety', status: 'open' },
        ],
        risks: [{ status: 'identified', riskScore: 9 }],
      },
      now,
      'UTC',
    );
    // schedule 100 - 20 - 25 = 55; budget 100 - 30 = 70; quality 70; resources 100 - 25 - 25 = 50
    expect(h).toEqual({
      scheduleHealth: 55,
      budgetHealth: 70,
      qualityHealth: 70,
      resourceHealth: 50,
      overallHealthScore: 62,
      riskLevel: 'medium',
    });
  });
});

describe('averageHealth (the Health Overview summary)', () => {
  const row = (o: number, s: number, b: number, q: number, r: number) => ({
    overallHealthScore: o,
    scheduleHealth: s,
    budgetHealth: b,
    qualityHealth: q,
    resourceHealth: r,
  });
  it('averages each of the five scores over the calculated projects, rounded', () => {
    // Overall (80 + 61) / 2 = 70.5 -> 71; schedule (90 + 40) / 2 = 65; budget (100 + 75) / 2 = 87.5 -> 88.
    expect(averageHealth([row(80, 90, 100, 70, 50), row(61, 40, 75, 30, 0)])).toEqual(
      row(71, 65, 88, 50, 25),
    );
  });
  it('is the row itself for one project, and null when none has been calculated', () => {
    expect(averageHealth([row(55, 44, 33, 22, 11)])).toEqual(row(55, 44, 33, 22, 11));
    expect(averageHealth([])).toBeNull();
  });
});
