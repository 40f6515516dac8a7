import { LogImageUrl } from '../schemas/log.ts';

/**
 * How a synced record's fields and values read in sentences: the conflict notification (server) and the
 * History view (device) name them the same way, for every synced table.
 */

/** Fields whose word is not their name: a log's `images` are what the screens call its photos. */
const FIELD_WORDS: Record<string, string> = { images: 'photos' };

/** Fields that hold several values: a sentence says 'were', not 'was'. */
const PLURAL_FIELDS = new Set(['images', 'tags']);

/** 'was' or 'were' for a field, as in 'Your photos were replaced'. */
export function fieldVerb(field: string): 'was' | 'were' {
  return PLURAL_FIELDS.has(field) ? 'were' : 'was';
}

/** A field name in words: 'dueDate' -> 'due date', 'assigneeId' -> 'assignee', 'images' -> 'photos'. */
export function fieldInWords(field: string): string {
  const word = FIELD_WORDS[field];
  if (word) return word;
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
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    // A log's photos are addresses nobody should have to read: their number says what changed.
    if (value.every((v) => LogImageUrl.safeParse(v).success))
      return value.length === 1 ? '1 photo' : `${value.length} photos`;
    if (value.every((v) => typeof v === 'string')) return value.map((v) => valueInWords(v)).join(', ');
  }
  return JSON.stringify(value);
}
