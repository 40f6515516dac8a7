/**
 * The Financial Health tab (spec 01 sections 2 and 9). Money is integer cents in and out; percentages are
 * unrounded numbers (the screen shows them to one decimal).
 */
import { toTime, type DateInput } from './dates.ts';

/** The fields of a project the finance figures read. `budget` null or 0 means no budget. */
export interface FinanceProject {
  id: string;
  name: string;
  budget: number | null;
  actualCost: number;
}

/** The fields of an invoice the finance figures read (spec 01 section 3). */
export interface FinanceInvoice {
  status: string;
  total: number;
  dueDate: DateInput;
}

export type Band = 'green' | 'yellow' | 'red';
export type VarianceBadge = 'red' | 'green' | 'grey';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

/** Total revenue: the sum of paid invoice totals. */
export function totalRevenue(invoices: readonly FinanceInvoice[]): number {
  return sum(invoices.filter((i) => i.status === 'paid').map((i) => i.total));
}

/** Total expenses: the sum of project actual costs. */
export function totalExpenses(projects: readonly FinanceProject[]): number {
  return sum(projects.map((p) => p.actualCost));
}

/** The sum of project budgets (a project without a budget counts 0). */
export function totalBudget(projects: readonly FinanceProject[]): number {
  return sum(projects.map((p) => p.budget ?? 0));
}

/** Net profit: revenue minus expenses. */
export function netProfit(revenue: number, expenses: number): number {
  return revenue - expenses;
}

/** Profit margin %: profit / revenue x 100, or 0 when there is no revenue. */
export function profitMargin(profit: number, revenue: number): number {
  return percent(profit, revenue);
}

/** Outstanding: the sum of sent and draft invoice totals. */
export function outstandingAmount(invoices: readonly FinanceInvoice[]): number {
  return sum(invoices.filter((i) => i.status === 'sent' || i.status === 'draft').map((i) => i.total));
}

/** Whether an invoice is overdue at `now`: sent, with a due date before now. */
export function isInvoiceOverdue(invoice: FinanceInvoice, now: Date): boolean {
  const due = toTime(invoice.dueDate);
  return invoice.status === 'sent' && due !== null && due < now.getTime();
}

/** Overdue: the amount and the count of sent invoices past their due date. */
export function overdueInvoices(
  invoices: readonly FinanceInvoice[],
  now: Date,
): { amount: number; count: number } {
  const overdue = invoices.filter((i) => isInvoiceOverdue(i, now));
  return { amount: sum(overdue.map((i) => i.total)), count: overdue.length };
}

/** Cash flow: net profit plus outstanding. */
export function cashFlow(profit: number, outstanding: number): number {
  return profit + outstanding;
}

/** Budget variance %: (expenses - total budget) / total budget x 100, or 0 when the budget is 0. */
export function budgetVariance(expenses: number, budget: number): number {
  return budget === 0 ? 0 : ((expenses - budget) / budget) * 100;
}

/** Margin band: green at 20% or more, yellow at 10% or more, red below 10%. */
export function marginBand(margin: number): Band {
  if (margin >= 20) return 'green';
  if (margin >= 10) return 'yellow';
  return 'red';
}

/** Variance band on the absolute variance: green at 5% or less, yellow at 15% or less, red above. */
export function varianceBand(variance: number): Band {
  const v = Math.abs(variance);
  if (v <= 5) return 'green';
  if (v <= 15) return 'yellow';
  return 'red';
}

/**
 * The cash band's yellow floor: the spec's -10000, read as US dollars (the unit the screen shows), so
 * -1,000,000 cents.
 */
export const CASH_YELLOW_FLOOR_CENTS = -1_000_000;

/** Cash band (cents): green above 0, yellow above -$10,000, red otherwise. */
export function cashBand(cash: number): Band {
  if (cash > 0) return 'green';
  if (cash > CASH_YELLOW_FLOOR_CENTS) return 'yellow';
  return 'red';
}

/** A project's budget variance %: (actual - budget) / budget x 100, or 0 without a budget. */
export function projectVariance(project: FinanceProject): number {
  return budgetVariance(project.actualCost, project.budget ?? 0);
}

/** Project variance badge: red above +10%, green below -10%, grey otherwise. */
export function projectVarianceBadge(variance: number): VarianceBadge {
  if (variance > 10) return 'red';
  if (variance < -10) return 'green';
  return 'grey';
}

/** The budget warning: shown when the absolute variance exceeds 15%, 'Over' or 'Under' budget. */
export function budgetWarning(variance: number): { direction: 'Over' | 'Under'; percent: number } | null {
  if (Math.abs(variance) <= 15) return null;
  return { direction: variance > 0 ? 'Over' : 'Under', percent: Math.abs(variance) };
}

/** At most this many projects in the breakdown. */
export const BREAKDOWN_LIMIT = 5;

export interface BreakdownRow {
  id: string;
  name: string;
  budget: number;
  actual: number;
  /** budget - actual (negative when over budget). */
  remaining: number;
  variance: number;
  badge: VarianceBadge;
  /** actual / budget x 100, capped at 100 (100 when money was spent without a budget). */
  barPercent: number;
}

/** The project breakdown: at most 5 projects that have a budget or an actual cost, in the given order. */
export function projectBreakdown(
  projects: readonly FinanceProject[],
  limit = BREAKDOWN_LIMIT,
): BreakdownRow[] {
  return projects
    .filter((p) => (p.budget ?? 0) > 0 || p.actualCost > 0)
    .slice(0, limit)
    .map((p) => {
      const budget = p.budget ?? 0;
      const variance = projectVariance(p);
      const used = budget > 0 ? (p.actualCost / budget) * 100 : 100;
      return {
        id: p.id,
        name: p.name,
        budget,
        actual: p.actualCost,
        remaining: budget - p.actualCost,
        variance,
        badge: projectVarianceBadge(variance),
        barPercent: Math.min(100, used),
      };
    });
}

export interface FinancialHealth {
  totalRevenue: number;
  totalExpenses: number;
  netProfit: number;
  profitMargin: number;
  outstanding: number;
  overdueAmount: number;
  overdueCount: number;
  cashFlow: number;
  budgetVariance: number;
  bands: { margin: Band; variance: Band; cash: Band };
  /** 'Action Required' shows when the overdue amount is above 0. */
  actionRequired: boolean;
  budgetWarning: { direction: 'Over' | 'Under'; percent: number } | null;
  breakdown: BreakdownRow[];
}

/** Every figure of the Financial Health tab at `now`. */
export function financialHealth(
  projects: readonly FinanceProject[],
  invoices: readonly FinanceInvoice[],
  now: Date,
): FinancialHealth {
  const revenue = totalRevenue(invoices);
  const expenses = totalExpenses(projects);
  const profit = netProfit(revenue, expenses);
  const margin = profitMargin(profit, revenue);
  const outstanding = outstandingAmount(invoices);
  const overdue = overdueInvoices(invoices, now);
  const cash = cashFlow(profit, outstanding);
  const variance = budgetVariance(expenses, totalBudget(projects));
  return {
    totalRevenue: revenue,
    totalExpenses: expenses,
    netProfit: profit,
    profitMargin: margin,
    outstanding,
    overdueAmount: overdue.amount,
    overdueCount: overdue.count,
    cashFlow: cash,
    budgetVariance: variance,
    bands: { margin: marginBand(margin), variance: varianceBand(variance), cash: cashBand(cash) },
    actionRequired: overdue.amount > 0,
    budgetWarning: budgetWarning(variance),
    breakdown: projectBreakdown(projects),
  };
}
