import { RefreshCw, TrendingDown, TrendingUp } from 'lucide-react';
import { healthTrend, isHealthAlert } from '#shared/rules/health-bands.ts';
import { averageHealth } from '#shared/rules/project-health.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { cn } from '#web/lib/cn.ts';
import type { HealthMetricsRow, HealthProjectRow } from '../hooks/use-health-data.ts';
import { formatMoment, RISK_LEVEL_BADGE, RISK_LEVEL_LABELS } from '../utils/labels.ts';
import { ScoreRing, SubScore } from './score-ring.tsx';

export interface HealthCardProps {
  project: HealthProjectRow;
  metrics: HealthMetricsRow | undefined;
  /** Why Refresh is off (offline), or null. */
  writesDisabled: string | null;
  refreshing: boolean;
  onRefresh: (projectId: string) => void;
}

/** A project's health card (spec 02 section 2): overall ring, progress, four sub-scores, risk, trend. */
export function HealthCard({ project, metrics, writesDisabled, refreshing, onRefresh }: HealthCardProps) {
  const alert = metrics ? isHealthAlert(metrics.overallHealthScore) : false;
  return (
    <li
      aria-label={project.name}
      className={cn(
        'grid min-w-0 content-start gap-3 rounded-lg border bg-white p-4 shadow-sm',
        alert ? 'border-red-300 ring-1 ring-red-200' : 'border-slate-200',
      )}
    >
      <div className="flex min-w-0 items-start justify-between gap-2">
        <h2 className="min-w-0 font-semibold wrap-anywhere text-slate-900" title={project.name}>
          {project.name}
        </h2>
        {metrics && (
          <Badge variant={RISK_LEVEL_BADGE[metrics.riskLevel]}>
            {RISK_LEVEL_LABELS[metrics.riskLevel]} Risk
          </Badge>
        )}
      </div>
      {metrics ? (
        <>
          <div className="flex items-center gap-4">
            <ScoreRing
              score={metrics.overallHealthScore}
              label={`Overall health ${metrics.overallHealthScore} of 100`}
            />
            <div className="grid min-w-0 flex-1 gap-1">
              <p
                className={cn(
                  'flex items-center gap-1 text-sm font-medium',
                  healthTrend(metrics.overallHealthScore) === 'Improving' ? 'text-green-700' : 'text-red-700',
                )}
              >
                {healthTrend(metrics.overallHealthScore) === 'Improving' ? (
                  <TrendingUp className="h-4 w-4" aria-hidden="true" />
                ) : (
                  <TrendingDown className="h-4 w-4" aria-hidden="true" />
                )}
                {healthTrend(metrics.overallHealthScore)}
              </p>
              {alert && <p className="text-xs font-semibold text-red-700">Needs attention</p>}
              <p className="text-xs text-slate-600">Last updated {formatMoment(metrics.calculatedAt)}</p>
            </div>
          </div>
          <dl
            className="grid grid-cols-2 gap-2 sm:grid-cols-4 xl:grid-cols-2"
            aria-label={`Scores of ${project.name}`}
          >
            <SubScore name="Schedule" score={metrics.scheduleHealth} />
            <SubScore name="Budget" score={metrics.budgetHealth} />
            <SubScore name="Quality" score={metrics.qualityHealth} />
            <SubScore name="Resources" score={metrics.resourceHealth} />
          </dl>
        </>
      ) : (
        <p className="text-sm text-slate-600">
          Not calculated yet. Refresh scores it from its tasks, logs, budget and risks.
        </p>
      )}
      <div className="grid gap-1">
        <div className="flex justify-between text-xs text-slate-600">
          <span>Progress</span>
          <span className="tabular-nums">{project.progress}%</span>
        </div>
        <Progress value={project.progress} aria-label={`Progress of ${project.name}`} />
      </div>
      <Button
        variant="outline"
        size="sm"
        className="justify-self-start"
        disabled={writesDisabled !== null || refreshing}
        title={writesDisabled ?? undefined}
        aria-label={`Refresh health of ${project.name}`}
        onClick={() => onRefresh(project.id)}
      >
        <RefreshCw className={cn('h-4 w-4', refreshing && 'animate-spin')} aria-hidden="true" />
        Refresh
      </Button>
    </li>
  );
}

/** The average of the five scores over the shown projects that have been calculated. */
export function HealthAverage({ rows }: { rows: readonly HealthMetricsRow[] }) {
  const avg = averageHealth(rows);
  if (!avg) return null;
  return (
    <section
      aria-labelledby="health-average"
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="health-average" className="font-semibold text-slate-900">
        Average across {rows.length} {rows.length === 1 ? 'project' : 'projects'}
      </h2>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        <SubScore name="Overall" score={avg.overallHealthScore} />
        <SubScore name="Schedule" score={avg.scheduleHealth} />
        <SubScore name="Budget" score={avg.budgetHealth} />
        <SubScore name="Quality" score={avg.qualityHealth} />
        <SubScore name="Resources" score={avg.resourceHealth} />
      </dl>
    </section>
  );
}
