import type { ProjectRow } from '#sync/db.ts';

export interface ProjectGroups {
  active: ProjectRow[];
  completed: ProjectRow[];
}

/**
 * The two card sections of the Projects screen (spec 01 section 2, spec 02 section 4): status completed
 * goes under Completed, every other status (active, delayed, on-hold, or none yet) under Active. Each
 * section is sorted by name so a project does not jump about as it syncs.
 */
export function groupProjects(projects: readonly ProjectRow[]): ProjectGroups {
  const sorted = [...projects].sort(byName);
  return {
    active: sorted.filter((p) => p.status !== 'completed'),
    completed: sorted.filter((p) => p.status === 'completed'),
  };
}

// The collators String#localeCompare would build on every call (with options, that is most of a sort's
// time; the screen sorts on every save, budget B7), built once: the same order.
const NAME_ORDER = new Intl.Collator(undefined, { sensitivity: 'base' });
const ID_ORDER = new Intl.Collator();

export function byName(a: ProjectRow, b: ProjectRow): number {
  return NAME_ORDER.compare(a.name ?? '', b.name ?? '') || ID_ORDER.compare(a.id, b.id);
}
