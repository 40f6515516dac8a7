import type { RISK_STATUSES, RISK_TYPES } from '#shared/enums.ts';
import type { HealthColour } from '#shared/rules/health-bands.ts';
import type { RiskGrade, RiskLevel } from '#shared/rules/risk.ts';
import type { BadgeVariant } from '#web/components/ui/badge.tsx';

export const RISK_TYPE_LABELS: Record<(typeof RISK_TYPES)[number], string> = {
  schedule: 'Schedule',
  budget: 'Budget',
  quality: 'Quality',
  resource: 'Resource',
  weather: 'Weather',
  safety: 'Safety',
};
export const GRADE_LABELS: Record<RiskGrade, string> = { low: 'Low', medium: 'Medium', high: 'High' };
export const RISK_STATUS_LABELS: Record<(typeof RISK_STATUSES)[number], string> = {
  identified: 'Identified',
  monitoring: 'Monitoring',
  mitigated: 'Mitigated',
  closed: 'Closed',
};
export const RISK_LEVEL_LABELS: Record<RiskLevel, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};
export const RISK_LEVEL_BADGE: Record<RiskLevel, BadgeVariant> = {
  low: 'success',
  medium: 'warning',
  high: 'destructive',
  critical: 'destructive',
};

/** The health bands' colours (spec 02 section 4): text, ring stroke and soft background. */
export const HEALTH_STYLES: Record<HealthColour, { text: string; stroke: string; soft: string }> = {
  green: { text: 'text-green-700', stroke: 'stroke-green-600', soft: 'bg-green-50 border-green-200' },
  yellow: { text: 'text-amber-700', stroke: 'stroke-amber-500', soft: 'bg-amber-50 border-amber-200' },
  orange: { text: 'text-orange-700', stroke: 'stroke-orange-500', soft: 'bg-orange-50 border-orange-200' },
  red: { text: 'text-red-700', stroke: 'stroke-red-600', soft: 'bg-red-50 border-red-200' },
};

/** A value of a fixed list as its label; an unknown value (a newer server's) as itself. */
export function labelOf<T extends string>(labels: Record<T, string>, value: string): string {
  return (labels as Record<string, string>)[value] ?? value;
}

const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const MOMENT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A due date as the calendar day it names (its UTC date, as on the wire; shared/rules/dates.ts dueDay). */
export const formatDay = (iso: string) => DAY.format(new Date(iso));
/** A moment (a calculation) in the device's clock. */
export const formatMoment = (iso: string) => MOMENT.format(new Date(iso));
