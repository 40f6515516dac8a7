/** A company user as an assignee choice: id and display name. */
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

/** The company's people as the screens use them (from the users mirror). */
export interface People {
  /** Display name by user id, inactive users included: a deactivated assignee keeps a name. */
  names: ReadonlyMap<string, string>;
  /** Who can be given a task: the active users, by name. */
  assignable: Manager[];
}

/** Names and assignee choices from the mirrored user rows. */
export function peopleOf(
  users: readonly {
    id: string;
    name?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    isActive?: boolean | null;
  }[],
): People {
  const names = new Map<string, string>();
  const assignable: Manager[] = [];
  for (const u of users) {
    const name = displayName(u);
    if (!name) continue;
    names.set(u.id, name);
    if (u.isActive !== false) assignable.push({ id: u.id, name });
  }
  assignable.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  return { names, assignable };
}
