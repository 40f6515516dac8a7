import { describe, expect, it } from 'vitest';
import { budgetAlert } from './budget-alerts.ts';

const p = (budget: number | null, actualCost: number) => ({ name: 'Harbor Tower', budget, actualCost });

describe('budget alerts', () => {
  it('alerts when spend crosses 90% of the budget, then again past 100%', () => {
    expect(budgetAlert(p(100_000_00, 80_000_00), p(100_000_00, 92_000_00))).toEqual({
      title: 'Project nearing its budget',
      message: 'Harbor Tower has spent 92% of its budget: $92,000 of its $100,000 budget.',
      type: 'warning',
    });
    expect(budgetAlert(p(100_000_00, 92_000_00), p(100_000_00, 105_000_00))).toEqual({
      title: 'Project over budget',
      message: 'Harbor Tower is 5% over its budget: $105,000 of its $100,000 budget.',
      type: 'error',
    });
  });

  it('alerts once per line crossed, not on every change above it', () => {
    expect(budgetAlert(p(100_000_00, 92_000_00), p(100_000_00, 95_000_00))).toBeNull();
    expect(budgetAlert(p(100_000_00, 105_000_00), p(100_000_00, 120_000_00))).toBeNull();
    expect(budgetAlert(p(100_000_00, 50_000_00), p(100_000_00, 60_000_00))).toBeNull();
    // Straight from under 90% to over budget: the one that matters.
    expect(budgetAlert(p(100_000_00, 10_000_00), p(100_000_00, 130_000_00))?.title).toBe(
      'Project over budget',
    );
  });

  it('counts a smaller budget as a crossing too, and a new project created over its budget', () => {
    expect(budgetAlert(p(100_000_00, 95_000_00), p(90_000_00, 95_000_00))?.title).toBe('Project over budget');
    expect(budgetAlert(null, p(10_000_00, 12_000_00))?.title).toBe('Project over budget');
  });

  it('says nothing about a project without a budget', () => {
    expect(budgetAlert(p(null, 0), p(null, 500_000_00))).toBeNull();
    expect(budgetAlert(p(0, 0), p(0, 500_000_00))).toBeNull();
  });
});
