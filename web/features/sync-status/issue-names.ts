import { mirrorTable, type SyncDb, type SyncIssue } from '#sync/db.ts';

/** Names the device knows for the records of some issues, and for the ids their fields point at. */
export interface IssueNames {
  /** The record's name or title from the device's copy, by issue id. */
  record: Map<number, string>;
  /** Names of users, projects and tasks by id, for values such as an assignee or a request's task. */
  byId: Map<string, string>;
}

const nameOfRow = (row: Record<string, unknown> | undefined): string | undefined => {
  if (!row) return undefined;
  // A schedule change has neither: its reason is what people call it.
  for (const key of ['name', 'title', 'subject', 'reason']) {
    const v = row[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  const first = row.firstName;
  const last = row.lastName;
  const full = [first, last].filter((p): p is string => typeof p === 'string' && !!p).join(' ');
  return full || undefined;
};

/**
 * Reads, in a few bulk reads, the names the Sync issues list shows: each issue's record from the mirror
 * (its name may have changed since the change was made, or the change may not carry one), and the users
 * projects and tasks its values point at.
 */
export async function loadIssueNames(db: SyncDb, issues: readonly SyncIssue[]): Promise<IssueNames> {
  const record = new Map<number, string>();
  const byTable = new Map<string, SyncIssue[]>();
  const ids = new Set<string>();
  for (const issue of issues) {
    const m = issue.mutation;
    if (!m || issue.id === undefined) continue;
    byTable.set(m.table, [...(byTable.get(m.table) ?? []), issue]);
    const values = [
      ...Object.entries(m.data ?? {}),
      ...(issue.conflicts ?? []).flatMap((c) => [[c.field, c.kept] as const, [c.field, c.yours] as const]),
    ];
    for (const [field, v] of values) if (field.endsWith('Id') && typeof v === 'string') ids.add(v);
  }
  for (const [table, list] of byTable) {
    const rows = await mirrorTable(db, table).bulkGet(list.map((i) => i.mutation!.rowId));
    list.forEach((issue, k) => {
      const name = nameOfRow(rows[k]);
      if (name && issue.id !== undefined) record.set(issue.id, name);
    });
  }
  const byId = new Map<string, string>();
  if (ids.size) {
    const list = [...ids];
    // A schedule change names its task (taskId), a task its project and assignee.
    const [users, projects, tasks] = await Promise.all([
      db.users.bulkGet(list),
      db.projects.bulkGet(list),
      db.tasks.bulkGet(list),
    ]);
    list.forEach((id, k) => {
      const name = nameOfRow(users[k]) ?? nameOfRow(projects[k]) ?? nameOfRow(tasks[k]);
      if (name) byId.set(id, name);
    });
  }
  // A project or task gone from the device since: the name it had when the server refused the change.
  for (const issue of issues)
    for (const [id, name] of Object.entries(issue.refNames ?? {})) if (!byId.has(id)) byId.set(id, name);
  return { record, byId };
}
