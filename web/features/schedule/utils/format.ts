/**
 * Dates on the Schedule screen. A due date names its UTC calendar day (shared/rules/dates.ts), so it is
 * shown by its UTC date and time of day, as the task forms show and edit it; a request's creation time is
 * an instant, shown in the company's zone.
 */
import { zoneOrDefault } from '#shared/rules/dates.ts';

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

const parse = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/** 'Mar 10, 2026' for a due or requested date, 'No date' when absent. */
export function formatDay(iso: string | null | undefined): string {
  const t = parse(iso);
  return t === null ? 'No date' : dayFormat.format(t);
}

/** The time of day of a due date ('9:30 AM'), or 'No time set' for a date-only value (midnight UTC). */
export function formatDueTime(iso: string | null | undefined): string {
  const t = parse(iso);
  if (t === null || t % 86_400_000 === 0) return 'No time set';
  return timeFormat.format(t);
}

/** 'Mar 10, 2026, 4:05 PM' in the company's zone, for when something happened. */
export function formatInstant(iso: string | null | undefined, timeZone: string): string {
  const t = parse(iso);
  if (t === null) return 'Unknown time';
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zoneOrDefault(timeZone),
  }).format(t);
}

/** 'Tue 10' for a Gantt column header of a `YYYY-MM-DD` day. */
export function formatColumnDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  const weekday = d.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });
  return `${weekday} ${d.getUTCDate()}`;
}

/** 'Tuesday, March 10, 2026' for a calendar cell's accessible name. */
export function formatLongDay(day: string): string {
  return new Date(`${day}T00:00:00.000Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
