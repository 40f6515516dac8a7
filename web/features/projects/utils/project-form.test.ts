import { describe, expect, it } from 'vitest';
import { emptyProjectForm, minDueDate, parseProgress, validateProjectForm } from './project-form.ts';

const now = new Date(2026, 2, 10, 15, 0); // 10 March 2026, local time
const create = { mode: 'create' as const, now, timeZone: 'UTC' };

describe('project form validation (spec 01 section 5)', () => {
  it('requires a name and a location', () => {
    const result = validateProjectForm({ ...emptyProjectForm(), name: '  ', location: '' }, create);
    expect(result).toEqual({
      ok: false,
      errors: { name: 'Name is required', location: 'Location is required' },
    });
  });

  it('gives a new project status active and progress 0', () => {
    const result = validateProjectForm({ ...emptyProjectForm(), name: 'Depot', location: 'Leeds' }, create);
    expect(result).toEqual({
      ok: true,
      data: {
        name: 'Depot',
        description: null,
        location: 'Leeds',
        status: 'active',
        progress: 0,
        dueDate: null,
      },
    });
  });

  it('turns a non-numeric progress entry into 0', () => {
    expect(parseProgress('abc')).toBe(0);
    expect(parseProgress('')).toBe(0);
    expect(parseProgress(' 42 ')).toBe(42);
    const result = validateProjectForm(
      { ...emptyProjectForm(), name: 'A', location: 'B', progress: 'lots' },
      create,
    );
    expect(result.ok && result.data.progress).toBe(0);
  });

  it('refuses progress outside 0 to 100', () => {
    for (const progress of ['101', '-1', '250']) {
      const result = validateProjectForm(
        { ...emptyProjectForm(), name: 'A', location: 'B', progress },
        create,
      );
      expect(result).toEqual({ ok: false, errors: { progress: 'Progress must be 0 to 100' } });
    }
    const edge = validateProjectForm(
      { ...emptyProjectForm(), name: 'A', location: 'B', progress: '100' },
      create,
    );
    expect(edge.ok).toBe(true);
  });

  it('blocks a due date before today on create, and sends a date as midnight UTC', () => {
    expect(minDueDate('create', now, 'UTC')).toBe('2026-03-10');
    const past = validateProjectForm(
      { ...emptyProjectForm(), name: 'A', location: 'B', dueDate: '2026-03-09' },
      create,
    );
    expect(past).toEqual({ ok: false, errors: { dueDate: 'Due date cannot be in the past' } });
    const old = validateProjectForm(
      { ...emptyProjectForm(), name: 'A', location: 'B', dueDate: '1899-12-31' },
      create,
    );
    expect(old).toEqual({ ok: false, errors: { dueDate: 'Due date cannot be before 1900' } });
    const today = validateProjectForm(
      { ...emptyProjectForm(), name: 'A', location: 'B', dueDate: '2026-03-10' },
      create,
    );
    expect(today.ok && today.data.dueDate).toBe('2026-03-10T00:00:00.000Z');
  });

  it('on edit, blocks a new date before today but keeps a date the project already had', () => {
    const values = { ...emptyProjectForm(), name: 'A', location: 'B', dueDate: '2025-01-01' };
    expect(
      validateProjectForm(values, { mode: 'edit', now, timeZone: 'UTC', initialDueDate: '2025-01-01' }).ok,
    ).toBe(true);
    expect(
      validateProjectForm(values, { mode: 'edit', now, timeZone: 'UTC', initialDueDate: '2026-05-01' }),
    ).toEqual({
      ok: false,
      errors: { dueDate: 'Due date cannot be in the past' },
    });
  });

  it('on edit still requires name and location', () => {
    const result = validateProjectForm(
      { ...emptyProjectForm(), name: '', location: '' },
      { mode: 'edit', now, timeZone: 'UTC' },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual({
      name: 'Name is required',
      location: 'Location is required',
    });
  });
});
