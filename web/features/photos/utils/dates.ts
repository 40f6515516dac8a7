import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/** A photo's date as the gallery shows it ('Nov 23, 2026'), in the company's time zone; '' when unknown. */
export function formatPhotoDate(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return format(new TZDate(t, timeZone), 'MMM d, yyyy');
}
