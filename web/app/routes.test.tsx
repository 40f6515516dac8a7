// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb } from '#sync/db.ts';
import { AppRoutes, SESSION_LOADING_TEXT } from './routes.tsx';
import { json, markFirstDownloadDone, renderInApp, stubApi, TEST_USER } from './test-utils.tsx';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the route table', () => {
  it("shows 'Loading your dashboard...' while the session loads", async () => {
    stubApi({ 'GET /api/auth/user': () => new Promise<Response>(() => {}) });
    renderInApp(<AppRoutes />, { path: '/dashboard' });
    expect(SESSION_LOADING_TEXT).toBe('Loading your dashboard...');
    expect(await screen.findByText('Loading your dashboard...')).toBeTruthy();
  });

  it('signed out: / is the landing page, /login the sign-in, an unknown address the 404 page', async () => {
    stubApi({ 'GET /api/auth/user': () => json({ message: 'no' }, 401) });
    renderInApp(<AppRoutes />, { path: '/no-such-screen' });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    cleanup();
    renderInApp(<AppRoutes />, { path: '/login' });
    expect(await screen.findByRole('heading', { name: 'Sign in to SiteCommand' })).toBeTruthy();
  });

  it('signed out: a bookmarked screen goes to sign-in, and signing in comes back to it', async () => {
    let signedIn = false;
    stubApi({
      'GET /api/auth/user': () => (signedIn ? json(TEST_USER) : json({ message: 'no' }, 401)),
      'POST /api/auth/login': () => {
        signedIn = true;
        return json(TEST_USER);
      },
    });
    renderInApp(<AppRoutes />, { path: '/schedule' });
    expect(
      await screen.findByRole('heading', { name: 'Sign in to SiteCommand' }, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'crew@summit.test');
    await userEvent.type(screen.getByLabelText('Password'), 'sitecommand-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/schedule'), {
      timeout: 5_000,
    });
  });

  it('a screen whose menu item the role lacks shows Access Denied, typed address or not', async () => {
    stubApi({
      'GET /api/auth/user': () =>
        json({
          ...TEST_USER,
          role: 'subcontractor',
          permissions: { ...TEST_USER.permissions, projects: false },
        }),
    });
    renderInApp(<AppRoutes />, { path: '/projects' });
    expect(await screen.findByRole('heading', { name: 'Access Denied' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Projects' })).toBeNull();
  });

  it('a user who must change their password sees only that screen, and it checks the form', async () => {
    const change = vi.fn(() => json({ ok: true }));
    stubApi({
      'GET /api/auth/user': () => json({ ...TEST_USER, mustChangePassword: true }),
      'POST /api/auth/change-password': change,
    });
    renderInApp(<AppRoutes />, { path: '/projects' });
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Current password'), 'one-time-pass');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('New password must be at least 12 characters')).toBeTruthy();
    expect(change).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'a-much-longer-secret');
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a-much-longer-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await vi.waitFor(() => expect(change).toHaveBeenCalledOnce());
    const [, init] = change.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      currentPassword: 'one-time-pass',
      newPassword: 'a-much-longer-secret',
    });
  });
});

describe('signing out', () => {
  it('takes the screens down and calls off their questions before the session ends on the server', async () => {
    const order: string[] = [];
    let notificationsSignal: AbortSignal | undefined;
    let logoutAnswered = () => {};
    const fetch = stubApi({
      'GET /api/auth/user': () => json(TEST_USER),
      // Asked, never answered: a question in flight when the user taps Sign Out.
      'GET /api/notifications': (_url, init) => {
        notificationsSignal = init?.signal ?? undefined;
        order.push('notifications asked');
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => {
            order.push('notifications called off');
            reject(new DOMException('aborted', 'AbortError'));
          }),
        );
      },
      'POST /api/auth/logout': () => {
        order.push('logout');
        return new Promise<Response>((resolve) => {
          logoutAnswered = () => resolve(json({ message: 'Signed out' }));
        });
      },
    });
    // A device that has its data (a new one asks for the notifications after its first download).
    const db = openSyncDb({ companyId: TEST_USER.companyId, userId: TEST_USER.id });
    await markFirstDownloadDone(db, Date.now() - 60_000);
    db.close();
    renderInApp(<AppRoutes />, { path: '/projects' });
    await screen.findByRole('button', { name: 'Notifications' }, { timeout: 8_000 });
    await vi.waitFor(() => expect(order).toContain('notifications asked'), { timeout: 8_000 });

    await userEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    await vi.waitFor(() => expect(order).toContain('logout'));
    expect(order).toEqual(['notifications asked', 'notifications called off', 'logout']);
    expect(notificationsSignal?.aborted).toBe(true);
    // While the logout call is out, only the frame is left: no bell, no screen to ask anything.
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    const askedSoFar = fetch.mock.calls.length;
    logoutAnswered();
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(fetch.mock.calls.slice(askedSoFar).map(([url]) => String(url))).not.toContain(
      '/api/notifications',
    );
  });
});
