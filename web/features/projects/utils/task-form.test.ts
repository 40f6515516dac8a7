import { describe, expect, it } from 'vitest';
import { PROJECT_REQUIRED_MESSAGE } from '#shared/schemas/task.ts';
import { NO_PROJECT, newTaskForm, showsNoProjectOption, UNASSIGNED, validateTaskForm } from './task-form.ts';

const now = new Date(2026, 2, 10, 9, 0);
const projectId = '0195a0a0-0000-7000-8000-000000000001';
const userId = '0195a0a0-0000-7000-8000-0000000000aa';

describe('task form validation (spec 01 section 5, spec 02 section 5)', () => {
  it('requires a title', () => {
    expect(validateTaskForm({ ...newTaskForm(projectId), title: ' ' }, { now, timeZone: 'UTC' })).toEqual({
      ok: false,
      errors: { title: 'Title is required' },
    });
  });

  it("requires a project for category project, with the spec's message", () => {
    expect(PROJECT_REQUIRED_MESSAGE).toBe("Project selection is required when category is 'Project Related'");
    const result = validateTaskForm({ ...newTaskForm(null), title: 'Pour slab' }, { now, timeZone: 'UTC' });
    expect(result).toEqual({ ok: false, errors: { projectId: PROJECT_REQUIRED_MESSAGE } });
  });

  it('lets other categories go without a project, and hides No Project only for project tasks', () => {
    const result = validateTaskForm(
      { ...newTaskForm(null), title: 'Order permits', category: 'administrative', projectId: NO_PROJECT },
      { now, timeZone: 'UTC' },
    );
    expect(result.ok && result.data.projectId).toBeNull();
    expect(showsNoProjectOption('project')).toBe(false);
    expect(showsNoProjectOption('general')).toBe(true);
  });

  it("sends null for 'Unassigned' and the id for a chosen assignee", () => {
    const base = { ...newTaskForm(projectId), title: 'Frame walls' };
    const unassigned = validateTaskForm({ ...base, assigneeId: UNASSIGNED }, { now, timeZone: 'UTC' });
    expect(unassigned.ok && unassigned.data.assigneeId).toBeNull();
    const assigned = validateTaskForm({ ...base, assigneeId: userId }, { now, timeZone: 'UTC' });
    expect(assigned).toEqual({
      ok: true,
      data: {
        title: 'Frame walls',
        description: null,
        category: 'project',
        projectId,
        status: 'pending',
        priority: 'medium',
        assigneeId: userId,
        dueDate: null,
      },
    });
  });

  it('blocks a new due date in the past but keeps one the task already had', () => {
    const values = { ...newTaskForm(projectId), title: 'T', dueDate: '2026-03-01' };
    expect(validateTaskForm(values, { now, timeZone: 'UTC' })).toEqual({
      ok: false,
      errors: { dueDate: 'Due date cannot be in the past' },
    });
    expect(validateTaskForm(values, { now, timeZone: 'UTC', initialDueDate: '2026-03-01' }).ok).toBe(true);
  });

  it("takes 'today' for the picker from the company's time zone, like the rules", () => {
    const lateInLosAngeles = new Date('2026-03-11T06:30:00.000Z'); // 10 March, 23:30 in Los Angeles
    const values = { ...newTaskForm(projectId), title: 'Pour slab', dueDate: '2026-03-10' };
    expect(validateTaskForm(values, { now: lateInLosAngeles, timeZone: 'America/Los_Angeles' }).ok).toBe(
      true,
    );
    expect(validateTaskForm(values, { now: lateInLosAngeles, timeZone: 'UTC' })).toEqual({
      ok: false,
      errors: { dueDate: 'Due date cannot be in the past' },
    });
  });
});
