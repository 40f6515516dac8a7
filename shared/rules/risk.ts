/** Risk assessments (spec 02 sections 4 and 9): weights, score, level and probability labels. */
import type { RISK_LEVELS, RISK_LEVELS3 } from '../enums.ts';

/** low, medium or high: a risk's probability or impact. */
export type RiskGrade = (typeof RISK_LEVELS3)[number];
/** low, medium, high or critical. */
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Weights of probability and impact: low 1, medium 3, high 5. */
export const RISK_WEIGHTS: Readonly<Record<RiskGrade, number>> = { low: 1, medium: 3, high: 5 };

/** The highest possible score (high x high), the 'out of 25' of the risk cards. */
export const MAX_RISK_SCORE = 25;

/** Risk score = impact weight x probability weight (1..25). */
export function riskScore(impact: RiskGrade, probability: RiskGrade): number {
  return RISK_WEIGHTS[impact] * RISK_WEIGHTS[probability];
}

/**
 * A risk's level from its score. The spec names the levels but not the cut-offs; we use: up to 3 low
 * (low x anything up to medium), up to 9 medium (medium x medium, high x low), up to 15 high
 * (high x medium), above that critical (high x high).
 */
export function riskLevelFromScore(score: number): RiskLevel {
  if (score <= 3) return 'low';
  if (score <= 9) return 'medium';
  if (score <= 15) return 'high';
  return 'critical';
}

/** Probability labels: low 10-30%, medium 30-70%, high 70-90%. */
export const PROBABILITY_LABELS: Readonly<Record<RiskGrade, string>> = {
  low: '10-30%',
  medium: '30-70%',
  high: '70-90%',
};

/** The label of a probability grade. */
export function probabilityLabel(probability: RiskGrade): string {
  return PROBABILITY_LABELS[probability];
}

const LEVEL_ORDER: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];

/** The more severe of two risk levels. */
export function maxRiskLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return LEVEL_ORDER.indexOf(a) >= LEVEL_ORDER.indexOf(b) ? a : b;
}

/** Whether a risk assessment still counts: its status is neither mitigated nor closed. */
export function isOpenRisk(risk: { status: string }): boolean {
  return risk.status !== 'mitigated' && risk.status !== 'closed';
}
