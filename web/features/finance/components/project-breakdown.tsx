import type { BreakdownRow, VarianceBadge } from '#shared/rules/financial-health.ts';
import { Badge, type BadgeVariant } from '#web/components/ui/badge.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { formatDollars, formatSignedPercent } from '../utils/format.ts';

const BADGE: Record<VarianceBadge, { variant: BadgeVariant; bar: string; words: string }> = {
  red: { variant: 'destructive', bar: 'bg-red-600', words: 'over budget' },
  green: { variant: 'success', bar: 'bg-green-600', words: 'under budget' },
  grey: { variant: 'secondary', bar: 'bg-teal-600', words: 'near budget' },
};

/** The project breakdown (spec 01 sections 2 and 9): budget, actual, remaining, variance badge, capped bar. */
export function ProjectBreakdown({ rows }: { rows: readonly BreakdownRow[] }) {
  return (
    <section aria-labelledby="finance-breakdown" className="grid gap-3">
      <h3 id="finance-breakdown" className="text-base font-semibold text-slate-900">
        Project Breakdown
      </h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No project has a budget or an actual cost yet.</p>
      ) : (
        <ul className="grid gap-3">
          {rows.map((row) => {
            const badge = BADGE[row.badge];
            return (
              <li
                key={row.id}
                aria-label={row.name}
                className="grid min-w-0 gap-2 rounded-lg border border-slate-200 bg-white p-4"
              >
                <div className="flex min-w-0 items-center justify-between gap-2">
                  <h4 className="min-w-0 truncate font-medium text-slate-900" title={row.name}>
                    {row.name}
                  </h4>
                  <Badge
                    variant={badge.variant}
                    data-badge={row.badge}
                    aria-label={`Variance ${formatSignedPercent(row.variance)}, ${badge.words}`}
                  >
                    {formatSignedPercent(row.variance)}
                  </Badge>
                </div>
                <dl className="grid grid-cols-3 gap-2 text-sm">
                  <div className="min-w-0">
                    <dt className="text-slate-600">Budget</dt>
                    <dd className="truncate font-semibold tabular-nums">{formatDollars(row.budget)}</dd>
                  </div>
                  <div className="min-w-0">
                    <dt className="text-slate-600">Actual</dt>
                    <dd className="truncate font-semibold tabular-nums">{formatDollars(row.actual)}</dd>
                  </div>
                  <div className="min-w-0">
                    <dt className="text-slate-600">Remaining</dt>
                    <dd
                      className={
                        row.remaining < 0
                          ? 'truncate font-semibold text-red-700 tabular-nums'
                          : 'truncate font-semibold tabular-nums'
                      }
                    >
                      {formatDollars(row.remaining)}
                    </dd>
                  </div>
                </dl>
                <Progress
                  value={row.barPercent}
                  aria-label={`Budget used on ${row.name}`}
                  indicatorClassName={badge.bar}
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
