import { healthColour } from '#shared/rules/health-bands.ts';
import { cn } from '#web/lib/cn.ts';
import type { HealthMetricsRow, HealthProjectRow } from '../hooks/use-health-data.ts';
import { formatMoment, HEALTH_STYLES } from '../utils/labels.ts';

/** What each score measures (DESIGN.md section 9, the formula in shared/rules/project-health.ts). */
const SCORES = [
  {
    key: 'scheduleHealth',
    name: 'Schedule',
    how: 'Progress against the time elapsed to the due date, less half the share of open tasks overdue.',
  },
  {
    key: 'budgetHealth',
    name: 'Budget',
    how: 'Spending against progress: the points by which the budget spent runs ahead of the work done.',
  },
  {
    key: 'qualityHealth',
    name: 'Quality',
    how: 'Less 10 per open issue log and 20 per open safety log.',
  },
  {
    key: 'resourceHealth',
    name: 'Resources',
    how: 'Less half the share of open tasks unassigned and half the share blocked.',
  },
] as const;

const BAND_WORDS = { green: 'Good', yellow: 'Fair', orange: 'Poor', red: 'Critical' } as const;

/** The Detailed Metrics tab: the four score cards of each shown project. */
export function DetailedMetrics({
  projects,
  metricsOf,
}: {
  projects: readonly HealthProjectRow[];
  metricsOf: (projectId: string) => HealthMetricsRow | undefined;
}) {
  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-600">
        Overall = 35% schedule + 30% budget + 20% quality + 15% resources. Each score runs from 0 to 100.
      </p>
      {projects.map((project) => {
        const m = metricsOf(project.id);
        return (
          <section key={project.id} aria-label={`Metrics of ${project.name}`} className="grid min-w-0 gap-2">
            <h2 className="font-semibold wrap-anywhere text-slate-900">{project.name}</h2>
            {m ? (
              <>
                <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
                  {SCORES.map((s) => {
                    const score = m[s.key];
                    const band = healthColour(score);
                    return (
                      <li
                        key={s.key}
                        aria-label={`${s.name} score`}
                        className={cn('grid min-w-0 gap-1 rounded-lg border p-4', HEALTH_STYLES[band].soft)}
                      >
                        <h3 className="text-sm font-medium text-slate-700">{s.name}</h3>
                        <p className={cn('text-2xl font-bold tabular-nums', HEALTH_STYLES[band].text)}>
                          {score}
                          <span className="text-sm font-normal text-slate-600">
                            {' '}
                            / 100 · {BAND_WORDS[band]}
                          </span>
                        </p>
                        <p className="text-xs text-slate-600">{s.how}</p>
                      </li>
                    );
                  })}
                </ul>
                <p className="text-xs text-slate-600">Calculated {formatMoment(m.calculatedAt)}</p>
              </>
            ) : (
              <p className="text-sm text-slate-600">Not calculated yet.</p>
            )}
          </section>
        );
      })}
    </div>
  );
}
