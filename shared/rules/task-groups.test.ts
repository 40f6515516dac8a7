import { describe, expect, it } from 'vitest';
import {
  compareTasks,
  groupKeyOf,
  groupTasks,
  indexTasks,
  patchTaskIndex,
  sectionOf,
  taskTiles,
  toggledByQuickAction,
  toggledByShortcut,
} from './task-groups.ts';

// Monday 10 March 2025, 12:00 UTC.
const now = new Date('2025-03-10T12:00:00.000Z');
const day = (d: string) => `${d}T00:00:00.000Z`;
let n = 0;
const task = (over: Record<string, unknown>) => ({
  id: `t${(n += 1)}`,
  title: `Task ${n}`,
  category: 'project',
  status: 'pending',
  projectId: 'p1',
  dueDate: null as string | null,
  ...over,
});

describe('the four tiles', () => {
  it('count total, overdue (never a completed task), due this week (today to 7 days ahead) and completed', () => {
    const tasks = [
      task({ dueDate: day('2025-03-09') }), // overdue
      task({ dueDate: day('2025-03-01'), status: 'completed' }), // completed, not overdue
      task({ dueDate: day('2025-03-10') }), // due today: this week
      task({ dueDate: day('2025-03-17'), status: 'completed' }), // 7 days ahead: this week, completed
      task({ dueDate: day('2025-03-18') }), // 8 days ahead: not this week
      task({ dueDate: null, status: 'blocked' }),
    ];
    expect(taskTiles(tasks, now, 'UTC')).toEqual({ total: 6, overdue: 1, dueThisWeek: 2, completed: 2 });
  });
  it("count in the company's zone: at 00:30 in Auckland on the 11th a task due on the 10th is overdue", () => {
    const auckland = new Date('2025-03-10T11:30:00.000Z'); // 00:30 on 11 March in Auckland (UTC+13)
    const tasks = [task({ dueDate: day('2025-03-10') })];
    expect(taskTiles(tasks, auckland, 'Pacific/Auckland').overdue).toBe(1);
    expect(taskTiles(tasks, auckland, 'UTC').overdue).toBe(0);
  });
  it('count zero of everything with no tasks', () => {
    expect(taskTiles([], now, 'UTC')).toEqual({ total: 0, overdue: 0, dueThisWeek: 0, completed: 0 });
  });
});

describe('list sections', () => {
  it('put project and subcontractor tasks under Project Tasks, administrative and general apart', () => {
    expect(sectionOf('project')).toBe('project');
    expect(sectionOf('subcontractor')).toBe('project');
    expect(sectionOf('administrative')).toBe('administrative');
    expect(sectionOf('general')).toBe('general');
  });
  it('group project tasks per project by name, with the rounded completed share and the spec colours', () => {
    const names = new Map([
      ['p1', 'Zephyr Tower'],
      ['p2', 'Alder Bridge'],
      ['p3', 'Maple School'],
    ]);
    const tasks = [
      task({ projectId: 'p1', status: 'completed' }),
      task({ projectId: 'p1', status: 'completed' }),
      task({ projectId: 'p1', status: 'pending' }),
      task({ projectId: 'p2', status: 'completed' }),
      task({ projectId: 'p2', status: 'pending', dueDate: day('2025-03-01') }),
      task({ projectId: 'p3', status: 'pending', category: 'subcontractor' }),
      task({ projectId: 'p3', status: 'completed' }),
      task({ projectId: 'p3', status: 'pending' }),
      task({ projectId: null, category: 'administrative' }),
      task({ projectId: 'p1', category: 'general' }),
    ];
    const groups = groupTasks(tasks, names, now, 'UTC');
    expect(groups.projects.map((g) => [g.name, g.tasks.length, g.percent, g.colour])).toEqual([
      ['Alder Bridge', 2, 50, '#E53935'], // an overdue task: red
      ['Maple School', 3, 33, '#FB8C00'], // under 50%: amber
      ['Zephyr Tower', 3, 67, '#43A047'],
    ]);
    expect(groups.administrative.map((t) => t.category)).toEqual(['administrative']);
    expect(groups.general.map((t) => t.category)).toEqual(['general']);
  });
  it('names a project missing from the device and puts project tasks without a project last', () => {
    const groups = groupTasks(
      [task({ projectId: null }), task({ projectId: 'gone' })],
      new Map(),
      now,
      'UTC',
    );
    expect(groups.projects.map((g) => g.name)).toEqual(['Unknown Project', 'No Project']);
  });
  it('leave sections empty when nothing falls in them', () => {
    const groups = groupTasks([], new Map(), now, 'UTC');
    expect(groups).toEqual({ projects: [], administrative: [], general: [] });
  });
});

describe('task order and toggles', () => {
  it('sorts by due date (none last), then title', () => {
    const list = [
      task({ title: 'B', dueDate: null }),
      task({ title: 'A', dueDate: null }),
      task({ title: 'C', dueDate: day('2025-03-12') }),
      task({ title: 'D', dueDate: day('2025-03-11') }),
    ].sort(compareTasks);
    expect(list.map((t) => t.title)).toEqual(['D', 'C', 'A', 'B']);
  });
  it('S takes completed to pending and anything else to completed', () => {
    expect(toggledByShortcut('completed')).toBe('pending');
    expect(toggledByShortcut('blocked')).toBe('completed');
  });
  it('the quick action takes completed to in-progress and anything else to completed', () => {
    expect(toggledByQuickAction('completed')).toBe('in-progress');
    expect(toggledByQuickAction('pending')).toBe('completed');
  });
});

describe('the task index patched per change', () => {
  // Seeded, so a failure replays: 300 random changes (status, project, category, due date, deletes and
  // new tasks) applied one small batch at a time must give the index a full rebuild gives.
  it('equals a full rebuild after every batch, and leaves groups no change touched as the same lists', () => {
    let seed = 42;
    const rand = (k: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % k;
    };
    const make = (i: number) =>
      task({
        id: `r${String(i).padStart(4, '0')}`,
        title: `Row ${rand(40)}`,
        category: ['project', 'subcontractor', 'administrative', 'general'][rand(4)],
        projectId: ['p1', 'p2', 'p3', null][rand(4)],
        status: ['pending', 'completed'][rand(2)],
        dueDate: rand(5) === 0 ? null : day(`2025-03-${String(1 + rand(28)).padStart(2, '0')}`),
      });
    let rows = new Map<string, ReturnType<typeof task>>();
    for (let i = 0; i < 120; i++) {
      const t = make(i);
      rows.set(t.id, t);
    }
    let index = indexTasks([...rows.values()].sort(compareTasks));
    let next = 1000;
    for (let batch = 0; batch < 60; batch++) {
      const removed: ReturnType<typeof task>[] = [];
      const added: ReturnType<typeof task>[] = [];
      const ids = [...rows.keys()];
      for (let k = 0; k < 1 + rand(5); k++) {
        const old = rows.get(ids[rand(ids.length)]!);
        if (!old || removed.includes(old)) continue;
        const op = rand(4);
        removed.push(old);
        if (op === 0) continue; // deleted
        added.push({ ...make(0), id: old.id });
      }
      if (rand(3) === 0) added.push(make(next++));
      const touched = new Set([...removed, ...added].map(groupKeyOf));
      const patched = patchTaskIndex(index, removed, added);
      for (const [key, list] of index.groups)
        if (!touched.has(key)) expect(patched.groups.get(key)).toBe(list);
      rows = new Map(rows);
      for (const t of removed) rows.delete(t.id);
      for (const t of added) rows.set(t.id, t);
      const rebuilt = indexTasks([...rows.values()].sort(compareTasks));
      expect(patched.sorted).toEqual(rebuilt.sorted);
      expect(new Map([...patched.groups].sort())).toEqual(new Map([...rebuilt.groups].sort()));
      index = patched;
    }
  });
});
