// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notification } from '../hooks/use-notifications.ts';
import { formatNotificationTime, notificationIcon, NotificationsPanel } from './notifications-panel.tsx';

afterEach(cleanup);

const n = (id: string, over: Partial<Notification> = {}): Notification => ({
  id,
  title: `Title ${id}`,
  message: `Message ${id}`,
  type: 'info',
  isRead: false,
  createdAt: '2025-03-04T10:15:00.000Z',
  ...over,
});

describe('NotificationsPanel', () => {
  it('shows title, message, timestamp and the type icon of each notification', () => {
    render(
      <NotificationsPanel
        notifications={[n('1', { type: 'warning' }), n('2', { type: 'success', isRead: true })]}
        onMarkRead={() => {}}
        onMarkAllRead={() => {}}
      />,
    );
    expect(screen.getByText('Title 1')).toBeTruthy();
    expect(screen.getByText('Message 1')).toBeTruthy();
    expect(screen.getAllByText(/Mar 4, 2025/)).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'Warning' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Success' })).toBeTruthy();
  });

  it('names each button by all it shows, so a voice user can say any of it (WCAG 2.5.3)', () => {
    render(
      <NotificationsPanel
        notifications={[n('1', { type: 'warning' }), n('2', { isRead: true })]}
        onMarkRead={() => {}}
        onMarkAllRead={() => {}}
      />,
    );
    const at = formatNotificationTime('2025-03-04T10:15:00.000Z');
    expect(screen.getByRole('button', { name: `Unread: Warning Title 1 Message 1 ${at}` })).toBeTruthy();
    expect(screen.getByRole('button', { name: `Info Title 2 Message 2 ${at}` })).toBeTruthy();
  });

  it('maps warning, success and error to their icons and anything else to info', () => {
    expect(notificationIcon('warning').label).toBe('Warning');
    expect(notificationIcon('success').label).toBe('Success');
    expect(notificationIcon('error').label).toBe('Error');
    expect(notificationIcon('info').label).toBe('Info');
    expect(notificationIcon('schedule_change').label).toBe('Info');
  });

  it('marks unread items with a dot, and a click on an unread one marks it read', async () => {
    const onMarkRead = vi.fn();
    render(
      <NotificationsPanel
        notifications={[n('1'), n('2', { isRead: true })]}
        onMarkRead={onMarkRead}
        onMarkAllRead={() => {}}
      />,
    );
    expect(screen.getAllByTestId('unread-dot')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: /^Info Title 2/ }));
    expect(onMarkRead).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: /^Unread: .*Title 1/ }));
    expect(onMarkRead).toHaveBeenCalledWith('1');
  });

  it('a tap marks it read and goes to what it is about; one about nothing only marks it', async () => {
    const onMarkRead = vi.fn();
    const onOpen = vi.fn();
    render(
      <NotificationsPanel
        notifications={[
          n('1', { relatedEntityType: 'task', relatedEntityId: 't-1' }),
          n('2', { relatedEntityType: null, relatedEntityId: null }),
        ]}
        onMarkRead={onMarkRead}
        onMarkAllRead={() => {}}
        onOpen={onOpen}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: /^Unread: .*Title 1/ }));
    expect(onMarkRead).toHaveBeenCalledWith('1');
    expect(onOpen).toHaveBeenCalledWith('/tasks?task=t-1');
    await userEvent.click(screen.getByRole('button', { name: /^Unread: .*Title 2/ }));
    expect(onMarkRead).toHaveBeenCalledWith('2');
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it("shows 'Mark All as Read' when any notification exists, even if all are read", async () => {
    const onMarkAllRead = vi.fn();
    render(
      <NotificationsPanel
        notifications={[n('1', { isRead: true })]}
        onMarkRead={() => {}}
        onMarkAllRead={onMarkAllRead}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Mark All as Read' }));
    expect(onMarkAllRead).toHaveBeenCalledOnce();
  });

  it("says 'No notifications' when the list is empty, without the Mark All button", () => {
    render(<NotificationsPanel notifications={[]} onMarkRead={() => {}} onMarkAllRead={() => {}} />);
    expect(screen.getByText('No notifications')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark All as Read' })).toBeNull();
  });
});
