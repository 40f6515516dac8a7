/**
 * How a synced record's fields and values read in sentences: the conflict notification (server) and the
 * History view (device) name them the same way, for every synced table.
 */

/** A field name in words: 'dueDate' -> 'due date', 'assigneeId' -> 'assignee'. */
export function fieldInWords(field: string): string {
  return field
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const instantFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/** A date-only value (midnight UTC, or 'YYYY-MM-DD') as sentences show it: 'Dec 5, 2026'. */
export function dayInWords(iso: string): string {
  return dayFormat.format(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`));
}

/** An instant as sentences show it: 'Nov 23, 2026, 14:05 UTC'. */
export function instantInWords(at: number | string): string {
  return `${instantFormat.format(typeof at === 'string' ? Date.parse(at) : at)} UTC`;
}

/**
 * A field value in words: a date-time at midnight UTC as its day ('Mar 31, 2027'), another as an instant,
 * text quoted (long text cut at 80 characters), nothing as 'empty'.
 */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) {
      return value.slice(11, 19) === '00:00:00' ? dayInWords(value) : instantInWords(value);
    }
    return `"${value.length > 80 ? `${value.slice(0, 79)}…` : value}"`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
