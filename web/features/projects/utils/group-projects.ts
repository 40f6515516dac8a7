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

export function byName(a: ProjectRow, b: ProjectRow): number {
  return (
    (a.name ?? '').localeCompare(b.name ?? '', undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id)
  );
}
