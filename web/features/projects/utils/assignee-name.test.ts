import { describe, expect, it } from 'vitest';
import { assigneeName, displayName, peopleOf } from './assignee-name.ts';
import { DELETE_DEFAULT_ERROR, deleteConsequences, deleteErrorText } from './delete-summary.ts';

describe('manager lookup (spec 01 section 2) from the users mirror (sync/SPEC.md L12)', () => {
  const { names: managers, assignable } = peopleOf([
    { id: 'u1', name: 'Maria Lopez', isActive: true },
    { id: 'u2', name: null, firstName: 'Sam', lastName: 'Crew', email: null, isActive: false },
    { id: 'u3', name: 'Ann Able', isActive: true },
  ]);

  it("names an assignee, with 'Unassigned' and 'Unknown User' as fallbacks", () => {
    expect(assigneeName('u1', managers)).toBe('Maria Lopez');
    expect(assigneeName('u2', managers)).toBe('Sam Crew');
    expect(assigneeName(null, managers)).toBe('Unassigned');
    expect(assigneeName(undefined, managers)).toBe('Unassigned');
    expect(assigneeName('u9', managers)).toBe('Unknown User');
  });

  it('offers only active people as assignees, by name, while a deactivated assignee keeps a name', () => {
    expect(assignable).toEqual([
      { id: 'u3', name: 'Ann Able' },
      { id: 'u1', name: 'Maria Lopez' },
    ]);
  });

  it('names a mirrored user by name, else first and last name, else email', () => {
    expect(displayName({ name: 'Ann', firstName: 'A', lastName: 'B', email: 'a@x' })).toBe('Ann');
    expect(displayName({ name: null, firstName: 'Ann', lastName: 'Lee', email: 'a@x' })).toBe('Ann Lee');
    expect(displayName({ email: 'a@x' })).toBe('a@x');
  });
});

describe('delete texts (spec 01 sections 2 and 8)', () => {
  it('lists what goes with the project, with the task count', () => {
    expect(deleteConsequences(3)).toEqual([
      'All associated tasks (3 tasks)',
      'All project photos and documentation',
      'Project logs and progress history',
      'Related schedule changes',
      'Its communications and change orders',
    ]);
    expect(deleteConsequences(1)[0]).toBe('All associated tasks (1 task)');
  });

  it("reads 'Error: {message}', defaulting to the spec's text", () => {
    expect(deleteErrorText(new Error('Project not found'))).toBe('Error: Project not found');
    expect(deleteErrorText(new Error(''))).toBe(`Error: ${DELETE_DEFAULT_ERROR}`);
    expect(deleteErrorText(undefined)).toBe(`Error: ${DELETE_DEFAULT_ERROR}`);
  });
});
