/** A company user as the manager lookup knows it: id and display name (GET /api/users/managers). */
export interface Manager {
  id: string;
  name: string;
}

/** The name shown for a user row of the read-only mirror: its name, else first plus last name, else email. */
export function displayName(u: {
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return u.name || full || u.email || '';
}

/**
 * The assignee of a task row (spec 01 section 2): 'Unassigned' when it has none, the manager's name when
 * the lookup knows the id, 'Unknown User' otherwise.
 */
export function assigneeName(
  assigneeId: string | null | undefined,
  managers: ReadonlyMap<string, string>,
): string {
  if (!assigneeId) return 'Unassigned';
  return managers.get(assigneeId) || 'Unknown User';
}

/**
 * One lookup from the device's users mirror and, when online, the server's managers list: the mirror
 * works offline and wins; the server list fills in users the mirror does not hold yet.
 */
export function mergeManagers(
  mirror: readonly Manager[] | undefined,
  server: readonly Manager[] | undefined,
): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of server ?? []) if (m.name) map.set(m.id, m.name);
  for (const m of mirror ?? []) if (m.name) map.set(m.id, m.name);
  return map;
}
