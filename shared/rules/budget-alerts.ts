/**
 * Budget alerts (spec 01 section 1: "cost control with automated budget alerts"): when a project's spend
 * crosses 90% of its budget, and again when it passes 100%, the people who read finance are told. A
 * crossing is what alerts, in either way it happens (more spent, or a smaller budget); staying above a
 * line alerts no one again.
 */

import { formatDollars } from './money.ts';

export interface ProjectMoney {
  name: string | null;
  budget: number | null;
  actualCost: number | null;
}

export interface BudgetAlert {
  title: string;
  message: string;
  type: 'warning' | 'error';
}

/** Share of the budget at which a project is "nearing its budget". */
export const NEARING_BUDGET = 0.9;

const usage = (p: ProjectMoney) => (p.budget && p.budget > 0 ? (p.actualCost ?? 0) / p.budget : 0);

/** The alert a change of a project's money raises, or null. `before` is null for a new project. */
export function budgetAlert(before: ProjectMoney | null, after: ProjectMoney): BudgetAlert | null {
  const was = before ? usage(before) : 0;
  const now = usage(after);
  const name = after.name ?? 'A project';
  const spent = `${formatDollars(after.actualCost ?? 0)} of its ${formatDollars(after.budget ?? 0)} budget`;
  if (now > 1 && was <= 1) {
    const over = Math.max(1, Math.round((now - 1) * 100));
    return {
      title: 'Project over budget',
      message: `${name} is ${over}% over its budget: ${spent}.`,
      type: 'error',
    };
  }
  if (now >= NEARING_BUDGET && was < NEARING_BUDGET && now <= 1) {
    return {
      title: 'Project nearing its budget',
      message: `${name} has spent ${Math.floor(now * 100)}% of its budget: ${spent}.`,
      type: 'warning',
    };
  }
  return null;
}
