// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import { json, renderInApp, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { rememberedUser } from '#web/lib/session-user.ts';
import SignInPage, { sessionEndedNotice } from './sign-in-page.tsx';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  act(() => resetToasts());
  vi.unstubAllGlobals();
});

async function fill(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
}

describe('Sign-in screen', () => {
  it('after a session that ended on its own: says so, how many changes wait, and fills in the email', async () => {
    sessionStorage.setItem('sc_session_ended', JSON.stringify({ email: 'crew@summit.test', waiting: 4 }));
    stubApi({
      'GET /api/auth/user': () => json({}, 401),
      'POST /api/auth/login': () => json(TEST_USER),
    });
    renderInApp(<SignInPage />, { path: '/login' });
    expect(
      await screen.findByText(/^Your session has ended/, { selector: 'p[role="status"]' }),
    ).toHaveProperty(
      'textContent',
      'Your session has ended. Sign in again to send the 4 changes waiting on this device; they are kept until then.',
    );
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('crew@summit.test');
    await userEvent.type(screen.getByLabelText('Password'), 'sitecommand-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await vi.waitFor(() => expect(sessionStorage.getItem('sc_session_ended')).toBeNull());
  });

  it('says "it is kept" of one waiting change and asks nothing of a session that ended with none', () => {
    expect(sessionEndedNotice(1)).toBe(
      'Your session has ended. Sign in again to send the 1 change waiting on this device; it is kept until then.',
    );
    expect(sessionEndedNotice(0)).toBe('Your session has ended. Sign in again to continue.');
  });

  it('requires both fields', async () => {
    stubApi({ 'GET /api/auth/user': () => json({}, 401) });
    renderInApp(<SignInPage />, { path: '/login' });
    expect((await screen.findByLabelText('Email')).hasAttribute('required')).toBe(true);
    expect(screen.getByLabelText('Password').hasAttribute('required')).toBe(true);
  });

  it("reads 'Signing in...' while pending, then shows the error toast for wrong credentials", async () => {
    let answer: (r: Response) => void = () => {};
    stubApi({
      'GET /api/auth/user': () => json({}, 401),
      'POST /api/auth/login': () => new Promise<Response>((r) => (answer = r)),
    });
    renderInApp(<SignInPage />, { path: '/login' });
    await fill('crew@summit.test', 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const pending = await screen.findByRole('button', { name: 'Signing in...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer(json({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }, 401)));
    const toasts = within(screen.getByRole('region', { name: /^Notifications/ }));
    expect(await toasts.findByText('Unable to Sign In')).toBeTruthy();
    expect(toasts.getByText('Email or password is incorrect. Please try again.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('after a wrong password, focus is on the password field, selected, and the field names the error', async () => {
    let answer: (r: Response) => void = () => {};
    stubApi({
      'GET /api/auth/user': () => json({}, 401),
      'POST /api/auth/login': () => new Promise<Response>((r) => (answer = r)),
    });
    renderInApp(<SignInPage />, { path: '/login' });
    await fill('crew@summit.test', 'wrong-pass');
    // A tap on the button, as on a phone: the button holds focus when it is disabled.
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('button', { name: 'Signing in...' });
    await act(async () => answer(json({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }, 401)));
    await screen.findByRole('button', { name: 'Sign In' });

    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, 'wrong-pass'.length]);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    const described = (password.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(described).toBe('Email or password is incorrect. Please try again.');

    // Typing replaces the selected wrong password instead of appending to it.
    await userEvent.keyboard('sitecommand-demo');
    expect(password.value).toBe('sitecommand-demo');
  });

  it('offline, says the server cannot be reached at once instead of staying on "Signing in..."', async () => {
    stubApi({
      'GET /api/auth/user': () => json({}, 401),
      'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderInApp(<SignInPage />, { path: '/login' });
    await fill('crew@summit.test', 'sitecommand-demo');
    onlineManager.setOnline(false);
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(
        await screen.findByText('Unable to connect to the server. Please try again later.'),
      ).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(false);
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('on success remembers the user and goes to /dashboard', async () => {
    stubApi({
      'GET /api/auth/user': () => json({}, 401),
      'POST /api/auth/login': () => json(TEST_USER),
    });
    renderInApp(<SignInPage />, { path: '/login' });
    await fill('crew@summit.test', 'sitecommand-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(rememberedUser()?.email).toBe('crew@summit.test');
  });

  it('Back to Landing goes to /', async () => {
    stubApi({ 'GET /api/auth/user': () => json({}, 401) });
    renderInApp(<SignInPage />, { path: '/login' });
    await userEvent.click(await screen.findByRole('button', { name: 'Back to Landing' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
  });
});
