import { describe, expect, it } from 'vitest';
import type { SyncTable } from '#shared/sync-protocol.ts';
import type { SyncIssue } from '#sync/db.ts';
import { recordName } from './issue-text.ts';

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

  it("names a task by its title and a schedule change by its reason, from the change's own data", () => {
    expect(recordName(issue('tasks', { title: 'Pour slab', description: 'Level 2' }))).toBe('Pour slab');
    expect(recordName(issue('schedule_changes', { reason: 'Rain delay' }))).toBe('Rain delay');
  });
});
