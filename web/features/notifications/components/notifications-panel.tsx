import { AlertTriangle, CheckCircle2, Info, XCircle, type LucideIcon } from 'lucide-react';
import { format, isValid, parseISO } from 'date-fns';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import type { Notification } from '../hooks/use-notifications.ts';
import { notificationTarget } from '../utils/target.ts';

/** Spec 02 section 2: warning, success and error have their icons; anything else is info. */
export function notificationIcon(type: string): { icon: LucideIcon; className: string; label: string } {
  switch (type) {
    case 'warning':
      return { icon: AlertTriangle, className: 'text-amber-500', label: 'Warning' };
    case 'success':
      return { icon: CheckCircle2, className: 'text-green-600', label: 'Success' };
    case 'error':
      return { icon: XCircle, className: 'text-red-600', label: 'Error' };
    default:
      return { icon: Info, className: 'text-blue-600', label: 'Info' };
  }
}

export function formatNotificationTime(createdAt: string): string {
  const d = parseISO(createdAt);
  return isValid(d) ? format(d, 'MMM d, yyyy h:mm a') : '';
}

export interface NotificationsPanelProps {
  notifications: Notification[];
  onMarkRead: (id: string) => void;
  onMarkAllRead: () => void;
  /** Goes to what a notification is about; its button says so when there is somewhere to go. */
  onOpen?: (target: string) => void;
  loading?: boolean;
  error?: boolean;
}

/** The list of notifications: title, message, time and type icon; unread ones carry a dot. */
export function NotificationsPanel({
  notifications,
  onMarkRead,
  onMarkAllRead,
  onOpen,
  loading,
  error,
}: NotificationsPanelProps) {
  return (
    <div className="flex max-h-[70vh] w-80 flex-col sm:w-96">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
        {notifications.length > 0 && (
          <Button variant="ghost" size="sm" onClick={onMarkAllRead}>
            Mark All as Read
          </Button>
        )}
      </div>
      {loading ? (
        <p className="px-4 py-6 text-center text-sm text-slate-500">Loading notifications...</p>
      ) : error && notifications.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-500">Notifications need a connection.</p>
      ) : notifications.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-500">No notifications</p>
      ) : (
        <ul className="overflow-y-auto" aria-label="Notifications">
          {notifications.map((n) => {
            const { icon: Icon, className, label } = notificationIcon(n.type);
            const target = onOpen ? notificationTarget(n) : null;
            return (
              <li key={n.id} className="border-b border-slate-100 last:border-b-0">
                <button
                  type="button"
                  onClick={() => {
                    if (!n.isRead) onMarkRead(n.id);
                    if (target) onOpen?.(target);
                  }}
                  className={cn(
                    'flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600',
                    !n.isRead && 'bg-teal-50/60',
                  )}
                  data-unread={!n.isRead}
                >
                  {/* Named by all it shows, so a voice user can say any of it (WCAG 2.5.3). The spaces
                      keep the words apart in the name whatever the CSS, and in axe's reading of the text. */}
                  {!n.isRead && <span className="sr-only">Unread:</span>}{' '}
                  <Icon className={cn('mt-0.5 h-5 w-5 shrink-0', className)} aria-label={label} role="img" />{' '}
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium text-slate-900">{n.title}</span>{' '}
                    <span className="block text-sm text-slate-600">{n.message}</span>{' '}
                    <span className="mt-1 block text-xs text-slate-500">
                      {formatNotificationTime(n.createdAt)}
                    </span>
                  </span>
                  {!n.isRead && (
                    <span
                      className="mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-teal-600"
                      data-testid="unread-dot"
                      aria-hidden="true"
                    />
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
