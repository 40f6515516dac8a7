import { MAX_RISK_SCORE, probabilityLabel, riskLevelFromScore } from '#shared/rules/risk.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import type { RiskRow } from '../hooks/use-health-data.ts';
import {
  formatDay,
  GRADE_LABELS,
  labelOf,
  RISK_LEVEL_BADGE,
  RISK_LEVEL_LABELS,
  RISK_STATUS_LABELS,
  RISK_TYPE_LABELS,
} from '../utils/labels.ts';

/** A risk assessment's card (spec 02 sections 2, 4 and 9): score out of 25, level, status, plan. */
export function RiskCard({
  risk,
  projectName,
  assigneeName,
}: {
  risk: RiskRow;
  projectName: string | undefined;
  assigneeName: string | undefined;
}) {
  const level = riskLevelFromScore(risk.riskScore);
  return (
    <li
      aria-label={risk.riskTitle}
      className="grid min-w-0 content-start gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex min-w-0 flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold wrap-anywhere text-slate-900" title={risk.riskTitle}>
            {risk.riskTitle}
          </h3>
          {projectName && <p className="text-xs wrap-anywhere text-slate-600">{projectName}</p>}
        </div>
        <div className="flex flex-wrap gap-1">
          <Badge variant="outline">{labelOf(RISK_TYPE_LABELS, risk.riskType)}</Badge>
          <Badge variant="secondary">{labelOf(RISK_STATUS_LABELS, risk.status)}</Badge>
        </div>
      </div>
      {risk.riskDescription && <p className="text-sm wrap-anywhere text-slate-700">{risk.riskDescription}</p>}
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">Probability</dt>
          <dd>
            {GRADE_LABELS[risk.probability]} ({probabilityLabel(risk.probability)})
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Impact</dt>
          <dd>{GRADE_LABELS[risk.impact]}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Risk score</dt>
          <dd className="font-semibold tabular-nums">
            {risk.riskScore}/{MAX_RISK_SCORE}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Level</dt>
          <dd>
            <Badge variant={RISK_LEVEL_BADGE[level]}>{RISK_LEVEL_LABELS[level]}</Badge>
          </dd>
        </div>
      </dl>
      {risk.mitigationPlan && (
        <p className="text-sm wrap-anywhere text-slate-700">
          <span className="font-medium">Mitigation: </span>
          {risk.mitigationPlan}
        </p>
      )}
      <p className="text-xs text-slate-600">
        {assigneeName ? `Assigned to ${assigneeName}` : 'Unassigned'}
        {risk.dueDate ? ` · Due ${formatDay(risk.dueDate)}` : ''}
      </p>
    </li>
  );
}
