import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Bell } from 'lucide-react';
import * as Popover from '@radix-ui/react-popover';
import { Button } from '#web/components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '#web/components/ui/tooltip.tsx';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
} from '../hooks/use-notifications.ts';
import { NotificationsPanel } from './notifications-panel.tsx';

/** The bell with its unread-count badge; opens the notifications panel. */
export function NotificationBell({ enabled = true }: { enabled?: boolean }) {
  const query = useNotifications(enabled);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const list = query.data ?? [];
  const unread = list.filter((n) => !n.isRead).length;
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next && enabled) void query.refetch();
      }}
    >
      <Tooltip>
        <TooltipTrigger asChild>
          <Popover.Trigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="relative"
              aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
            >
              <Bell className="h-5 w-5" aria-hidden="true" />
              {unread > 0 && (
                <span
                  className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold text-white"
                  data-testid="unread-badge"
                  aria-hidden="true"
                >
                  {unread > 99 ? '99+' : unread}
                </span>
              )}
            </Button>
          </Popover.Trigger>
        </TooltipTrigger>
        <TooltipContent>Notifications</TooltipContent>
      </Tooltip>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          className="z-50 rounded-lg border border-slate-200 bg-white shadow-lg focus:outline-none"
          aria-label="Notifications panel"
        >
          <NotificationsPanel
            notifications={list}
            loading={query.isPending && enabled}
            error={query.isError || !enabled}
            onMarkRead={(id) => markRead.mutate(id)}
            onMarkAllRead={() => markAll.mutate()}
            onOpen={(target) => {
              setOpen(false);
              navigate(target);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
