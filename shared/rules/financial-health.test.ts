import { describe, expect, it } from 'vitest';
import {
  budgetVariance,
  budgetWarning,
  cashBand,
  cashFlow,
  financialHealth,
  isInvoiceOverdue,
  marginBand,
  netProfit,
  outstandingAmount,
  overdueInvoices,
  profitMargin,
  projectBreakdown,
  projectVariance,
  projectVarianceBadge,
  totalBudget,
  totalExpenses,
  totalRevenue,
  varianceBand,
  type FinanceInvoice,
  type FinanceProject,
} from './financial-health.ts';

const now = new Date('2025-06-15T12:00:00.000Z');
const invoices: FinanceInvoice[] = [
  { status: 'paid', total: 100_00, dueDate: '2025-01-01T00:00:00.000Z' },
  { status: 'paid', total: 50_00, dueDate: null },
  { status: 'sent', total: 30_00, dueDate: '2025-06-14T00:00:00.000Z' },
  { status: 'sent', total: 20_00, dueDate: '2025-06-16T00:00:00.000Z' },
  { status: 'draft', total: 10_00, dueDate: '2025-01-01T00:00:00.000Z' },
];
const project = (id: string, budget: number | null, actualCost: number): FinanceProject => ({
  id,
  name: `P${id}`,
  budget,
  actualCost,
});

describe('totals', () => {
  it('counts only paid invoices as revenue', () => {
    expect(totalRevenue(invoices)).toBe(150_00);
  });
  it('sums project actual costs as expenses', () => {
    expect(totalExpenses([project('1', 100, 40), project('2', null, 60)])).toBe(100);
  });
  it('sums budgets, a project without one counting 0', () => {
    expect(totalBudget([project('1', 100, 0), project('2', null, 0)])).toBe(100);
  });
  it('net profit is revenue minus expenses', () => {
    expect(netProfit(150, 200)).toBe(-50);
  });
  it('outstanding sums sent and draft invoices', () => {
    expect(outstandingAmount(invoices)).toBe(60_00);
  });
  it('cash flow is net profit plus outstanding', () => {
    expect(cashFlow(-50, 80)).toBe(30);
  });
});

describe('profitMargin', () => {
  it('is profit over revenue in percent', () => {
    expect(profitMargin(25, 200)).toBe(12.5);
  });
  it('is 0 when there is no revenue', () => {
    expect(profitMargin(-100, 0)).toBe(0);
  });
});

describe('overdue invoices', () => {
  it('counts sent invoices whose due date has passed, not drafts or future ones', () => {
    expect(overdueInvoices(invoices, now)).toEqual({ amount: 30_00, count: 1 });
  });
  it('is not overdue exactly at its due instant, and never without a due date', () => {
    expect(isInvoiceOverdue({ status: 'sent', total: 1, dueDate: now.toISOString() }, now)).toBe(false);
    expect(isInvoiceOverdue({ status: 'sent', total: 1, dueDate: null }, now)).toBe(false);
  });
});

describe('budgetVariance', () => {
  it('is (expenses - budget) / budget in percent', () => {
    expect(budgetVariance(120, 100)).toBe(20);
    expect(budgetVariance(80, 100)).toBe(-20);
  });
  it('is 0 when the budget is 0', () => {
    expect(budgetVariance(500, 0)).toBe(0);
  });
});

describe('colour bands', () => {
  it('margin: green from 20, yellow from 10, red below 10', () => {
    expect(marginBand(20)).toBe('green');
    expect(marginBand(19.9)).toBe('yellow');
    expect(marginBand(10)).toBe('yellow');
    expect(marginBand(9.9)).toBe('red');
  });
  it('variance: green up to 5, yellow up to 15, red above, on the absolute value', () => {
    expect(varianceBand(5)).toBe('green');
    expect(varianceBand(-5)).toBe('green');
    expect(varianceBand(5.1)).toBe('yellow');
    expect(varianceBand(-15)).toBe('yellow');
    expect(varianceBand(15.1)).toBe('red');
  });
  it('cash: green above 0, yellow above -$10,000, red otherwise', () => {
    expect(cashBand(1)).toBe('green');
    expect(cashBand(0)).toBe('yellow');
    expect(cashBand(-999_999)).toBe('yellow');
    expect(cashBand(-1_000_000)).toBe('red');
  });
});

describe('project variance badge', () => {
  it('is red above +10%, green below -10%, grey between (inclusive)', () => {
    expect(projectVarianceBadge(10.1)).toBe('red');
    expect(projectVarianceBadge(10)).toBe('grey');
    expect(projectVarianceBadge(-10)).toBe('grey');
    expect(projectVarianceBadge(-10.1)).toBe('green');
  });
  it('a project variance is 0 without a budget', () => {
    expect(projectVariance(project('1', null, 500))).toBe(0);
    expect(projectVariance(project('1', 200, 250))).toBe(25);
  });
});

describe('budgetWarning', () => {
  it('appears only beyond 15% either way', () => {
    expect(budgetWarning(15)).toBeNull();
    expect(budgetWarning(-15)).toBeNull();
    expect(budgetWarning(15.5)).toEqual({ direction: 'Over', percent: 15.5 });
    expect(budgetWarning(-20)).toEqual({ direction: 'Under', percent: 20 });
  });
});

describe('projectBreakdown', () => {
  it('lists at most 5 projects with a budget or an actual cost, skipping the others', () => {
    const list = [
      project('a', null, 0),
      project('b', 100, 0),
      project('c', null, 10),
      project('d', 0, 0),
      project('e', 100, 50),
      project('f', 100, 50),
      project('g', 100, 50),
      project('h', 100, 50),
    ];
    expect(projectBreakdown(list).map((r) => r.id)).toEqual(['b', 'c', 'e', 'f', 'g']);
  });
  it('shows remaining as budget minus actual and caps the bar at 100%', () => {
    const [over] = projectBreakdown([project('x', 100_00, 150_00)]);
    expect(over).toMatchObject({
      budget: 100_00,
      actual: 150_00,
      remaining: -50_00,
      variance: 50,
      badge: 'red',
    });
    expect(over!.barPercent).toBe(100);
    const [under] = projectBreakdown([project('y', 200, 50)]);
    expect(under).toMatchObject({ barPercent: 25, badge: 'green', remaining: 150 });
  });
});

describe('financialHealth', () => {
  it('combines every figure, the action-required flag and the budget warning', () => {
    const h = financialHealth([project('1', 100_00, 120_00)], invoices, now);
    expect(h).toMatchObject({
      totalRevenue: 150_00,
      totalExpenses: 120_00,
      netProfit: 30_00,
      profitMargin: 20,
      outstanding: 60_00,
      overdueAmount: 30_00,
      overdueCount: 1,
      cashFlow: 90_00,
      budgetVariance: 20,
      bands: { margin: 'green', variance: 'red', cash: 'green' },
      actionRequired: true,
      budgetWarning: { direction: 'Over', percent: 20 },
    });
    expect(h.breakdown).toHaveLength(1);
  });
  it('asks for no action when nothing is overdue', () => {
    expect(financialHealth([], [], now).actionRequired).toBe(false);
  });
});
