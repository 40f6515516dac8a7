import type { BreakdownRow } from '#shared/rules/financial-health.ts';
import { formatDollars } from '../utils/format.ts';

const ROW = 44;
const LABEL = 132;
const WIDTH = 480;
const BAR = 14;

/**
 * Budget against actual cost per project, drawn by hand in SVG: the picture the breakdown's numbers make,
 * without a chart library in the dashboard's download. Loaded lazily by the panel.
 */
export default function BudgetChart({ rows }: { rows: readonly BreakdownRow[] }) {
  const max = Math.max(1, ...rows.flatMap((r) => [r.budget, r.actual]));
  const scale = (cents: number) => ((WIDTH - LABEL - 8) * Math.max(0, cents)) / max;
  const height = rows.length * ROW + 24;
  const summary = rows
    .map((r) => `${r.name}: budget ${formatDollars(r.budget)}, actual ${formatDollars(r.actual)}`)
    .join('; ');
  return (
    <figure className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="text-base font-semibold text-slate-900">Budget vs Actual</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="h-auto w-full max-w-2xl"
        role="img"
        aria-label={`Budget against actual cost per project. ${summary}`}
      >
        {rows.map((r, i) => {
          const y = i * ROW;
          const over = r.actual > r.budget;
          return (
            <g key={r.id} data-project={r.id}>
              <text x={0} y={y + 18} className="fill-slate-700 text-[11px]">
                {r.name.length > 20 ? `${r.name.slice(0, 19)}…` : r.name}
              </text>
              <rect
                x={LABEL}
                y={y + 4}
                width={scale(r.budget)}
                height={BAR}
                rx={2}
                className="fill-slate-300"
              />
              <rect
                x={LABEL}
                y={y + 4 + BAR + 2}
                width={scale(r.actual)}
                height={BAR}
                rx={2}
                className={over ? 'fill-red-500' : 'fill-teal-600'}
              />
            </g>
          );
        })}
        <g transform={`translate(${LABEL}, ${rows.length * ROW + 8})`} className="text-[11px]">
          <rect width={10} height={10} className="fill-slate-300" />
          <text x={14} y={9} className="fill-slate-700">
            Budget
          </text>
          <rect x={70} width={10} height={10} className="fill-teal-600" />
          <text x={84} y={9} className="fill-slate-700">
            Actual
          </text>
          <rect x={136} width={10} height={10} className="fill-red-500" />
          <text x={150} y={9} className="fill-slate-700">
            Actual over budget
          </text>
        </g>
      </svg>
    </figure>
  );
}
