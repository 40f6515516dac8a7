import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '#web/components/ui/card.tsx';
import { cn } from '#web/lib/cn.ts';

/** The links of the dashboard: 44 px tall on a phone (spec 02: tap targets), keyboard-visible focus. */
export const LINK_CLASS =
  'inline-flex min-h-11 items-center rounded px-2 text-sm font-medium text-teal-700 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600 md:min-h-9';

/**
 * A dashboard widget: a titled card (a named region, so tests and screen readers find it by its title)
 * with an optional link in its header and one of four states: loading, failed, empty or its content.
 */
export function Widget({
  title,
  action,
  loading,
  error,
  empty,
  className,
  children,
}: {
  title: string;
  /** The header link, e.g. View All. */
  action?: { label: string; to: string };
  /** True until the first read answers. */
  loading?: boolean;
  /** Shown instead of the content when the read failed (and there is nothing kept to show). */
  error?: ReactNode;
  /** Shown instead of the content when there is nothing to list. */
  empty?: string | false;
  className?: string;
  children?: ReactNode;
}) {
  const id = `widget-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  let body: ReactNode;
  if (error) body = error;
  else if (loading)
    body = (
      <div role="status" aria-label={`Loading ${title}`} className="grid min-w-0 grid-cols-1 gap-2">
        <div className="h-4 w-3/4 animate-pulse rounded bg-slate-200" />
        <div className="h-4 w-1/2 animate-pulse rounded bg-slate-200" />
        <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
      </div>
    );
  else if (empty) body = <p className="py-2 text-sm text-slate-600">{empty}</p>;
  else body = children;
  return (
    <Card role="region" aria-labelledby={id} className={cn('flex min-w-0 flex-col', className)}>
      <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-2">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {action && (
          <Link to={action.to} className={LINK_CLASS}>
            {action.label}
          </Link>
        )}
      </div>
      <div className="min-w-0 px-4 pb-4">{body}</div>
    </Card>
  );
}
