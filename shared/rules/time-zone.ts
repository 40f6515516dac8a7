/** The zone of a company that has not chosen one (every company before migration 0003). */
export const DEFAULT_TIME_ZONE = 'UTC';

const validZones = new Map<string, boolean>();

/** Whether `name` is an IANA time zone this runtime knows ('America/Los_Angeles', 'UTC'). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name === '' || name.length > 64) return false;
  let ok = validZones.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      ok = true;
    } catch {
      ok = false;
    }
    validZones.set(name, ok);
  }
  return ok;
}

/** `timeZone` when it is a known zone, else UTC: a bad stored value never breaks a screen. */
export function zoneOrDefault(timeZone: string | null | undefined): string {
  return isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}
