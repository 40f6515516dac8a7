import { zoneOrDefault } from '#shared/rules/dates.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant as 'Mar 5, 2026' in `timeZone` (a created date: the company's day it happened). */
export function formatInTimeZone(iso: string | null | undefined, timeZone: string): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const zone = zoneOrDefault(timeZone);
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: zone });
    formats.set(zone, f);
  }
  return f.format(t);
}
