// @vitest-environment jsdom
import { useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import type { SessionUser } from '#web/lib/session-user.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { useSession } from './session.tsx';
import { Sidebar } from './shell/sidebar.tsx';
import { json, renderInApp, stubApi, TEST_USER } from './test-utils.tsx';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
});

const MANAGER: SessionUser = {
  ...TEST_USER,
  role: 'manager',
  permissions: { ...TEST_USER.permissions, subs: true },
  grants: ['subs:view', 'tasks:view'],
};

/** The sidebar as the shell renders it, and a screen whose read the server now refuses. */
function SignedIn() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const subs = useQuery({ queryKey: ['/api/subcontractors'], enabled: open });
  if (!user) return null;
  return (
    <>
      <Sidebar flags={user.permissions} />
      <button onClick={() => setOpen(true)}>Open Subs</button>
      {subs.isError && <p>Could not load</p>}
    </>
  );
}

describe('a role that lost a permission', () => {
  it('a 403 for a permission brings the new role at once: Subs leaves the sidebar and a toast says why', async () => {
    let user = MANAGER;
    stubApi({
      'GET /api/auth/user': () => json(user),
      'GET /api/subcontractors': () =>
        json({ code: 'FORBIDDEN', message: 'You do not have permission to do that' }, 403),
    });
    renderInApp(<SignedIn />);
    expect(await screen.findByRole('link', { name: 'Subs' })).toBeTruthy();

    // An admin makes them crew; the app has not asked who they are since.
    user = { ...TEST_USER, grants: ['tasks:view'] };
    fireEvent.click(screen.getByRole('button', { name: 'Open Subs' }));
    await screen.findByText('Could not load');

    // At once, not at the next periodic check (15 s).
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Subs' })).toBeNull());
    expect(await screen.findByText('Your role changed')).toBeTruthy();
    expect(screen.getByText('You can no longer open Subs.')).toBeTruthy();
  });

  it('a 403 that is not about a permission (a device bound to another account) does not ask again', async () => {
    const api = stubApi({
      'GET /api/auth/user': () => json(MANAGER),
      'GET /api/subcontractors': () =>
        json({ code: 'CLIENT_BOUND', message: 'This device id belongs to another account' }, 403),
    });
    renderInApp(<SignedIn />);
    await screen.findByRole('link', { name: 'Subs' });
    const asked = () => api.mock.calls.filter(([url]) => String(url).includes('/api/auth/user')).length;
    const before = asked();
    fireEvent.click(screen.getByRole('button', { name: 'Open Subs' }));
    await screen.findByText('Could not load');
    expect(asked()).toBe(before);
    expect(screen.queryByText('Your role changed')).toBeNull();
  });
});
