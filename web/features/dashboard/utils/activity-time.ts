import { formatDistance } from 'date-fns';
import { toTime } from '#shared/rules/dates.ts';

/**
 * An activity's time, e.g. '5 minutes ago'; 'Recently' when the date is invalid (spec 01 section 8). A time
 * ahead of this device's clock (a skewed clock) reads as now rather than 'in 2 minutes'.
 */
export function activityTimeText(createdAt: string | null | undefined, now: Date): string {
  const t = toTime(createdAt);
  if (t === null) return 'Recently';
  return formatDistance(Math.min(t, now.getTime()), now, { addSuffix: true });
}
