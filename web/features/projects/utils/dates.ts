/**
 * Dates in the project forms. A date-only value on the wire means midnight UTC (shared/schemas/common.ts),
 * so a stored due date is shown and edited by its UTC calendar day, while "today" for the pickers is the
 * company's day (`todayIn` of shared/rules/dates.ts, the same day the rules count from).
 */

/** A stored due date as the value of a date input (`YYYY-MM-DD`), or '' when there is none. */
export function toDateInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : new Date(t).toISOString().slice(0, 10);
}

/**
 * The day a date input names, at the time of day (UTC) of the stored value it replaces: a date input edits
 * only the day, so moving a due date stored as `T23:00Z` keeps its `T23:00Z` (issue 9). Without a stored
 * value the day means midnight UTC, as on the wire.
 */
export function withTimeOf(day: string, stored: string | null | undefined): string {
  const t = stored ? Date.parse(stored) : Number.NaN;
  const time = Number.isNaN(t) ? 'T00:00:00.000Z' : new Date(t).toISOString().slice(10);
  return `${day}${time}`;
}

const display = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A stored due date as the cards show it ('Mar 5, 2026'), or null when there is none. */
export function formatDueDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : display.format(t);
}
