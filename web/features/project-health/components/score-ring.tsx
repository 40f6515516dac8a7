import { healthColour } from '#shared/rules/health-bands.ts';
import { cn } from '#web/lib/cn.ts';
import { HEALTH_STYLES } from '../utils/labels.ts';

const R = 34;
const CIRCUMFERENCE = 2 * Math.PI * R;

/** The circular overall score of a health card, coloured by the health bands. */
export function ScoreRing({ score, label }: { score: number; label: string }) {
  const style = HEALTH_STYLES[healthColour(score)];
  const filled = (Math.max(0, Math.min(100, score)) / 100) * CIRCUMFERENCE;
  return (
    <svg viewBox="0 0 80 80" className="h-20 w-20 shrink-0" role="img" aria-label={label}>
      <circle cx={40} cy={40} r={R} className="fill-none stroke-slate-200" strokeWidth={8} />
      <circle
        cx={40}
        cy={40}
        r={R}
        className={cn('fill-none', style.stroke)}
        strokeWidth={8}
        strokeLinecap="round"
        strokeDasharray={`${filled} ${CIRCUMFERENCE}`}
        transform="rotate(-90 40 40)"
      />
      <text
        x={40}
        y={46}
        textAnchor="middle"
        className={cn('fill-current text-xl font-bold', style.text)}
        aria-hidden="true"
      >
        {score}
      </text>
    </svg>
  );
}

/** One sub-score (Schedule, Budget, Quality, Resources) in its band's colour. */
export function SubScore({ name, score }: { name: string; score: number }) {
  const style = HEALTH_STYLES[healthColour(score)];
  return (
    <div className="grid min-w-0 gap-0.5 rounded-md border border-slate-100 bg-slate-50 p-2 text-center">
      <dt className="truncate text-xs text-slate-600">{name}</dt>
      <dd className={cn('text-lg font-semibold tabular-nums', style.text)}>{score}</dd>
    </div>
  );
}
