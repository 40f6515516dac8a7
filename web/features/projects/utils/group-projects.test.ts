import { describe, expect, it } from 'vitest';
import type { ProjectRow } from '#sync/db.ts';
import { groupProjects } from './group-projects.ts';

const p = (id: string, name: string, status?: string): ProjectRow => ({ id, version: 1, name, status });

describe('grouping projects into Active and Completed (spec 01 section 2)', () => {
  it('puts completed under Completed and every other status under Active, by name', () => {
    const groups = groupProjects([
      p('1', 'Tower', 'completed'),
      p('2', 'bridge', 'delayed'),
      p('3', 'Annex', 'on-hold'),
      p('4', 'Depot', 'active'),
      p('5', 'Mall'),
      p('6', 'Arena', 'completed'),
    ]);
    expect(groups.active.map((x) => x.name)).toEqual(['Annex', 'bridge', 'Depot', 'Mall']);
    expect(groups.completed.map((x) => x.name)).toEqual(['Arena', 'Tower']);
  });

  it('orders names that differ only in case or accents by id, so equal names keep a stable order', () => {
    const groups = groupProjects([p('b', 'depot'), p('c', 'Dépôt'), p('a', 'Depot'), p('d', 'Annex')]);
    expect(groups.active.map((x) => x.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('gives two empty sections for no projects', () => {
    expect(groupProjects([])).toEqual({ active: [], completed: [] });
  });
});
