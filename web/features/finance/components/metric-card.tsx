import type { ReactNode } from 'react';
import type { Band } from '#shared/rules/financial-health.ts';
import { cn } from '#web/lib/cn.ts';

const BAND_STYLES: Record<Band | 'neutral' | 'alert', { box: string; value: string; word?: string }> = {
  green: { box: 'border-green-200 bg-green-50', value: 'text-green-800', word: 'Healthy' },
  yellow: { box: 'border-amber-200 bg-amber-50', value: 'text-amber-900', word: 'Watch' },
  red: { box: 'border-red-200 bg-red-50', value: 'text-red-800', word: 'At risk' },
  alert: { box: 'border-red-200 bg-red-50', value: 'text-red-800' },
  neutral: { box: 'border-slate-200 bg-white', value: 'text-slate-900' },
};

/**
 * One of the eight figures of the Financial Health tab. A banded figure (margin, variance, cash) also says
 * its band in words, so the colour is never the only signal.
 */
export function MetricCard({
  title,
  value,
  band = 'neutral',
  detail,
  icon,
}: {
  title: string;
  value: string;
  band?: Band | 'neutral' | 'alert';
  detail?: ReactNode;
  icon?: ReactNode;
}) {
  const style = BAND_STYLES[band];
  return (
    <li
      className={cn('grid min-w-0 content-start gap-1 rounded-lg border p-4 shadow-sm', style.box)}
      data-band={band}
      aria-label={title}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-700">{title}</h3>
        {icon}
      </div>
      <p className={cn('truncate text-2xl font-bold tabular-nums', style.value)}>{value}</p>
      {(style.word ?? detail) && (
        <p className="text-xs text-slate-600">
          {style.word && <span className={cn('font-semibold', style.value)}>{style.word}</span>}
          {style.word && detail ? ' · ' : null}
          {detail}
        </p>
      )}
    </li>
  );
}

/** The four pulsing cards shown while any of the tab's lists loads (spec 01 section 2). */
export function MetricPlaceholders() {
  return (
    <div role="status" aria-label="Loading financial figures">
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <li
            key={i}
            data-testid="finance-placeholder"
            className="grid h-28 animate-pulse content-start gap-3 rounded-lg border border-slate-200 bg-white p-4"
          >
            <div className="h-3 w-1/2 rounded bg-slate-200" />
            <div className="h-6 w-3/4 rounded bg-slate-200" />
            <div className="h-3 w-1/3 rounded bg-slate-100" />
          </li>
        ))}
      </ul>
      <span className="sr-only">Loading financial figures...</span>
    </div>
  );
}
