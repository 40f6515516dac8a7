/** What a notification is about, as the server stores it (`related_entity_type` and `_id`). */
export interface NotificationSubject {
  relatedEntityType?: string | null;
  relatedEntityId?: string | null;
}

/**
 * Where tapping a notification takes the user: the record it is about, or the screen that lists it. A
 * task opens in its detail dialog (from there, its History); null when it is about nothing the app shows.
 */
export function notificationTarget(n: NotificationSubject): string | null {
  const id = n.relatedEntityId;
  switch (n.relatedEntityType) {
    case 'task':
      return id ? `/tasks?task=${encodeURIComponent(id)}` : '/tasks';
    case 'project':
      return '/projects';
    case 'schedule_change':
      return '/schedule';
    case 'project_log':
      return '/logs';
    case 'photo':
      return '/photos';
    case 'change_order':
    case 'communication':
      return '/dashboard?tab=communications';
    case 'invoice':
      return '/dashboard?tab=finance';
    default:
      return null;
  }
}
