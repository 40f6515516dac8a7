import { describe, expect, it } from 'vitest';
import { notificationTarget } from './target.ts';

describe('where a notification leads', () => {
  it('opens a task itself, and the screen that lists anything else', () => {
    expect(notificationTarget({ relatedEntityType: 'task', relatedEntityId: 'a b' })).toBe(
      '/tasks?task=a%20b',
    );
    expect(notificationTarget({ relatedEntityType: 'schedule_change', relatedEntityId: 'x' })).toBe(
      '/schedule',
    );
    expect(notificationTarget({ relatedEntityType: 'change_order', relatedEntityId: 'x' })).toBe(
      '/dashboard?tab=communications',
    );
    expect(notificationTarget({ relatedEntityType: 'project', relatedEntityId: 'x' })).toBe('/projects');
    expect(notificationTarget({ relatedEntityType: 'invoice', relatedEntityId: 'x' })).toBe(
      '/dashboard?tab=finance',
    );
  });

  it('leads nowhere when it is about nothing the app shows', () => {
    expect(notificationTarget({})).toBeNull();
    expect(notificationTarget({ relatedEntityType: 'something-new', relatedEntityId: 'x' })).toBeNull();
  });
});
