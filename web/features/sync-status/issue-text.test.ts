import { describe, expect, it } from 'vitest';
import type { SyncTable } from '#shared/sync-protocol.ts';
import type { SyncIssue } from '#sync/db.ts';
import { describeIssue, recordName, valueInWords } from './issue-text.ts';

const issue = (table: SyncTable, data: Record<string, unknown>): SyncIssue => ({
  id: 1,
  kind: 'mutation',
  code: 'NOT_FOUND',
  message: 'Project not found',
  createdAt: 0,
  mutation: {
    id: 7,
    op: 'patch',
    table,
    rowId: '01a2089a-2bde-7120-9e77-3955297bb8ad',
    data,
    baseVersion: 3,
    clientTime: Date.parse('2026-11-23T10:00:00.000Z'),
    createdAt: 0,
  },
});

describe('the name a sync issue gives its record', () => {
  it('prefers the name on the device', () => {
    expect(recordName(issue('projects', { description: 'x' }), 'Oakridge Fire Station')).toBe(
      'Oakridge Fire Station',
    );
  });

  it("never takes a project's description for its name once the project is gone from the device", () => {
    expect(recordName(issue('projects', { description: 'Edit to a project that gets deleted' }))).toBeNull();
    expect(recordName(issue('projects', { name: 'Harbor Tower', description: 'New' }))).toBe('Harbor Tower');
  });

  it('names a record gone from the device by the name it had when the server refused the change', () => {
    const gone = { ...issue('tasks', { description: 'Level 2' }), recordName: 'Drive test piles' };
    expect(recordName(gone)).toBe('Drive test piles');
    expect(recordName(gone, 'Renamed since')).toBe('Renamed since');
    expect(describeIssue(gone).title).toBe(
      'Task "Drive test piles": your change to description was not saved',
    );
  });

  it("names a task by its title and a schedule change by its reason, from the change's own data", () => {
    expect(recordName(issue('tasks', { title: 'Pour slab', description: 'Level 2' }))).toBe('Pour slab');
    expect(recordName(issue('schedule_changes', { reason: 'Rain delay' }))).toBe('Rain delay');
  });
});

describe('a create refused because what it belongs to is gone', () => {
  it('says its project or task went away, not that the new record was deleted', () => {
    const created = issue('project_logs', { title: 'Sub diary' });
    const text = describeIssue({ ...created, mutation: { ...created.mutation!, op: 'create' } });
    expect(text.title).toBe('Project log "Sub diary" was not created');
    expect(text.explanation).toBe(
      'What this project log belongs to is no longer on the server (it was deleted, or you can no longer see it), so it could not be created.',
    );
    expect(describeIssue(created).explanation).toMatch(/^This project log is no longer on the server/);
  });
});

describe('a schedule change someone else decided first (W13)', () => {
  const decided = (data: Record<string, unknown>): SyncIssue => ({
    ...issue('schedule_changes', data),
    code: 'ALREADY_DECIDED',
    message: 'This schedule change was already approved by David Okafor',
  });

  it('[W13] names who decided in the title, not a code', () => {
    const text = describeIssue(decided({ status: 'rejected' }), 'Rain all week');
    expect(text.title).toBe('Schedule change "Rain all week" was already approved by David Okafor');
    expect(text.badge).toBe('Already decided');
    expect(text.explanation).toContain('Your rejection was not applied');
    expect(text.explanation).not.toContain('ALREADY_DECIDED');
  });

  it('[W13] tells the requester an edit of a decided request cannot apply', () => {
    const text = describeIssue(decided({ reason: 'Still raining' }));
    expect(text.title).toBe('Schedule change "Still raining" was already approved by David Okafor');
    expect(text.explanation).toContain('Your edit was not applied');
  });
});

describe('a decision on a request that changed since it was seen (W19)', () => {
  it('[W19] says the approval was not applied and what the request asks now, without offering to send it again', () => {
    const text = describeIssue(
      {
        ...issue('schedule_changes', { status: 'approved' }),
        code: 'REQUEST_CHANGED',
        message:
          'This schedule change request was edited after you saw it. It now asks for Apr 30, 2030. Look at it again before deciding.',
      },
      'Rain all week',
    );
    expect(text.title).toBe('Schedule change "Rain all week": your approval was not applied');
    expect(text.badge).toBe('Request changed');
    expect(text.explanation).toContain('It now asks for Apr 30, 2030.');
    expect(text.explanation).not.toMatch(/send it again/i);
  });
});

describe('a change order someone else decided first (W16)', () => {
  it('[W16] names the change order by its title and who decided it', () => {
    const text = describeIssue(
      {
        ...issue('change_orders', { status: 'rejected', reason: 'Rejected by project manager' }),
        code: 'ALREADY_DECIDED',
        message: 'This change order was already approved by David Okafor',
      },
      'Extra footing',
    );
    expect(text.title).toBe('Change order "Extra footing" was already approved by David Okafor');
    expect(text.badge).toBe('Already decided');
    expect(text.explanation).toContain('Your rejection was not applied');
  });

  it('[W15] names a refused communication by its subject', () => {
    expect(recordName(issue('communications', { subject: 'Rebar short' }))).toBe('Rebar short');
  });
});

describe('values in a Sync issues entry', () => {
  it('are labelled as the screens label them, not stored codes', () => {
    expect(valueInWords('status', 'in-progress', undefined, 'tasks')).toBe('In Progress');
    expect(valueInWords('category', 'project', undefined, 'tasks')).toBe('Project Related');
    expect(valueInWords('priority', 'medium', undefined, 'tasks')).toBe('Medium');
    expect(valueInWords('status', 'on-hold', undefined, 'projects')).toBe('On Hold');
    // A value a newer server introduced, or a field without labels, is shown as it is.
    expect(valueInWords('status', 'paused', undefined, 'tasks')).toBe('paused');
    expect(valueInWords('title', 'Pour slab', undefined, 'tasks')).toBe('Pour slab');
  });

  it('name what an id points at, or say it is no longer on the device', () => {
    expect(valueInWords('projectId', 'p-1', (id) => (id === 'p-1' ? 'Riverside' : undefined))).toBe(
      'Riverside',
    );
    expect(valueInWords('projectId', 'p-2', () => undefined)).toBe('a record no longer on this device');
  });
});
