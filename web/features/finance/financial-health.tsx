import { lazy, Suspense } from 'react';
import { AlertTriangle, Radio, ShieldAlert, TrendingDown, TrendingUp } from 'lucide-react';
import { financialHealth } from '#shared/rules/financial-health.ts';
import { AsOfNotice, LoadFailed } from '#web/components/as-of-notice.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { errorStatus, isNetworkError, serverMessage } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import { MetricCard, MetricPlaceholders } from './components/metric-card.tsx';
import { ProjectBreakdown } from './components/project-breakdown.tsx';
import { useFinanceLists } from './hooks/use-finance-data.ts';
import { formatDollars, formatPercent } from './utils/format.ts';

// The chart is the one heavy part: it loads after the figures, never with the dashboard's first paint.
const BudgetChart = lazy(() => import('./components/budget-chart.tsx'));

/** The permission the server checks on the finance lists (api/route-permissions.ts). */
const FINANCE_GRANT = 'finance:read';

export const ACCESS_DENIED_TEXT = 'Financial health is available to admins and managers only.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The Financial Health tab (spec 01 sections 2 and 9; issue 12): eight figures from the company's
 * projects and invoices, the overdue and budget warnings, and the project breakdown. `now` decides which
 * sent invoices are overdue.
 */
export function FinancialHealth({ user, now = new Date() }: { user: CurrentUser; now?: Date }) {
  const allowed = user.grants.includes(FINANCE_GRANT);
  const { projects, invoices, timeEntries, lists } = useFinanceLists(allowed);
  const online = useBrowserOnline();

  const loaded = lists.every((q) => q.data !== undefined);
  // A few dozen rows: computed on each render, so the overdue cut-off is always the current time.
  const health = loaded ? financialHealth(projects.data ?? [], invoices.data ?? [], now) : null;

  if (!allowed || lists.some((q) => errorStatus(q.error) === 403)) {
    return (
      <section aria-label="Financial Health" className="grid gap-3">
        <div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-4">
          <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 text-red-700" aria-hidden="true" />
          <div>
            <p className="font-semibold text-red-800">Access Denied</p>
            <p className="text-sm text-red-800">{ACCESS_DENIED_TEXT}</p>
          </div>
        </div>
      </section>
    );
  }

  const offline = !online || user.offline === true || lists.some((q) => isNetworkError(q.error));
  const failed = lists.find((q) => q.isError && !isNetworkError(q.error) && q.data === undefined);
  const asOf = Math.min(...lists.map((q) => q.dataUpdatedAt).filter((t) => t > 0));

  let body;
  if (health) {
    const overdueWords = plural(health.overdueCount, 'overdue invoice', 'overdue invoices');
    body = (
      <>
        {health.actionRequired && (
          <div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-4">
            <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-red-700" aria-hidden="true" />
            <div className="text-sm text-red-800">
              <p className="font-semibold">Action Required</p>
              <p>
                {overdueWords} totalling {formatDollars(health.overdueAmount)}: follow up with the clients.
              </p>
            </div>
          </div>
        )}
        {health.budgetWarning && (
          <div
            role="alert"
            className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
          >
            {health.budgetWarning.direction === 'Over' ? (
              <TrendingUp className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
            ) : (
              <TrendingDown className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
            )}
            <div>
              <p className="font-semibold">Budget Warning</p>
              <p>
                {health.budgetWarning.direction} budget by {formatPercent(health.budgetWarning.percent)}
              </p>
            </div>
          </div>
        )}
        <ul aria-label="Financial figures" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <MetricCard
            title="Total Revenue"
            value={formatDollars(health.totalRevenue)}
            detail="Paid invoices"
          />
          <MetricCard
            title="Total Expenses"
            value={formatDollars(health.totalExpenses)}
            detail="Actual project costs"
          />
          <MetricCard
            title="Net Profit"
            value={formatDollars(health.netProfit)}
            band={health.netProfit < 0 ? 'alert' : 'neutral'}
            detail="Revenue minus expenses"
          />
          <MetricCard
            title="Profit Margin"
            value={formatPercent(health.profitMargin)}
            band={health.bands.margin}
          />
          <MetricCard
            title="Outstanding"
            value={formatDollars(health.outstanding)}
            detail="Sent and draft invoices"
          />
          <MetricCard
            title="Overdue"
            value={formatDollars(health.overdueAmount)}
            band={health.overdueAmount > 0 ? 'alert' : 'neutral'}
            detail={overdueWords}
          />
          <MetricCard title="Cash Flow" value={formatDollars(health.cashFlow)} band={health.bands.cash} />
          <MetricCard
            title="Budget Variance"
            value={formatPercent(health.budgetVariance)}
            band={health.bands.variance}
          />
        </ul>
        <ProjectBreakdown rows={health.breakdown} />
        {health.breakdown.length > 0 && (
          <Suspense
            fallback={<div className="h-40 animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />}
          >
            <BudgetChart rows={health.breakdown} />
          </Suspense>
        )}
        <p className="text-xs text-slate-600">
          From {plural(projects.data?.length ?? 0, 'project', 'projects')},{' '}
          {plural(invoices.data?.length ?? 0, 'invoice', 'invoices')} and{' '}
          {plural(timeEntries.data?.length ?? 0, 'time entry', 'time entries')}.
        </p>
      </>
    );
  } else if (failed) {
    body = (
      <LoadFailed
        what="The financial figures"
        message={serverMessage(failed.error)}
        onRetry={() => lists.forEach((q) => q.isError && void q.refetch())}
      />
    );
  } else if (offline) {
    body = (
      <p className="text-sm text-slate-700">
        You are offline, and the financial figures have not been loaded on this device yet. They will load
        when the connection returns.
      </p>
    );
  } else {
    body = <MetricPlaceholders />;
  }

  return (
    <section aria-labelledby="finance-heading" className="grid min-w-0 gap-4">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="finance-heading" className="text-xl font-semibold text-slate-900">
          Financial Health Dashboard
        </h2>
        <Badge variant="success" className="gap-1.5">
          <Radio className="h-3.5 w-3.5" aria-hidden="true" />
          Real-time Monitoring
        </Badge>
      </header>
      {offline && <AsOfNotice what="the figures" updatedAt={health ? asOf : undefined} />}
      {body}
    </section>
  );
}
