// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { LAST_USER_KEY, rememberedUser, rememberUser } from '#web/lib/session-user.ts';
import { SESSION_USER_ELEMENT_ID, sessionUserBlock } from '#shared/page-bootstrap.ts';
import { createQueryClient } from '#web/lib/api.ts';
import { clearSessionEnded, noteSigningOut, noteWaiting, readSessionEnded } from './session-ended.ts';
import { fetchCurrentUser, prefetchCurrentUser, retryUserQuery, useSession } from './session.tsx';
import { json, renderInApp, stubApi, TEST_USER } from './test-utils.tsx';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('fetchCurrentUser', () => {
  it('returns the user and remembers it for an offline start', async () => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    expect(await fetchCurrentUser()).toEqual(TEST_USER);
    expect(rememberedUser()).toMatchObject({ id: TEST_USER.id, companyId: TEST_USER.companyId });
  });

  it('treats 401 as signed out and forgets the remembered user', async () => {
    rememberUser(TEST_USER);
    stubApi({ 'GET /api/auth/user': () => json({ message: 'Not signed in' }, 401) });
    expect(await fetchCurrentUser()).toBeNull();
    expect(localStorage.getItem(LAST_USER_KEY)).toBeNull();
  });

  it('uses the remembered user, marked offline, when no answer comes', async () => {
    rememberUser(TEST_USER);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect(await fetchCurrentUser()).toEqual({ ...TEST_USER, offline: true });
  });

  it('throws a network error when nobody is remembered', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(fetchCurrentUser()).rejects.toThrow('Failed to fetch');
  });

  it('does not fall back on a server error other than "unreachable"', async () => {
    rememberUser(TEST_USER);
    stubApi({ 'GET /api/auth/user': () => new Response('boom', { status: 500 }) });
    await expect(fetchCurrentUser()).rejects.toThrow('500: boom');
  });
});

describe('retry of the user request', () => {
  it('retries up to 2 times, never on 401', () => {
    expect(retryUserQuery(0, new Error('500: x'))).toBe(true);
    expect(retryUserQuery(1, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryUserQuery(2, new Error('500: x'))).toBe(false);
    expect(retryUserQuery(0, new Error('401: x'))).toBe(false);
  });
});

function Probe() {
  const { status, user, offline } = useSession();
  return (
    <p>
      {status} {user?.email ?? 'nobody'} {offline ? 'offline' : 'online'}
    </p>
  );
}

describe('SessionProvider', () => {
  it('goes from loading to authenticated', async () => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    renderInApp(<Probe />);
    expect(screen.getByText(/^loading/)).toBeTruthy();
    expect(await screen.findByText('authenticated crew@summit.test online')).toBeTruthy();
  });

  it('uses the answer asked for before the first render, without asking the server a second time', async () => {
    const fetch = stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    const client = createQueryClient();
    prefetchCurrentUser(client);
    await waitFor(() => expect(client.getQueryData(['/api/auth/user'])).toEqual(TEST_USER));
    renderInApp(<Probe />, { client });
    expect(await screen.findByText('authenticated crew@summit.test online')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('takes the user the server wrote into the page: signed in at the first render, with no request', async () => {
    const fetch = stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    document.head.insertAdjacentHTML('beforeend', sessionUserBlock(TEST_USER));
    const client = createQueryClient();
    prefetchCurrentUser(client);
    expect(client.getQueryData(['/api/auth/user'])).toEqual(TEST_USER);
    renderInApp(<Probe />, { client });
    expect(screen.getByText('authenticated crew@summit.test online')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    // Remembered for an offline start, as an answer from the server is; and read once only.
    expect(rememberedUser()).toMatchObject({ id: TEST_USER.id });
    expect(document.getElementById(SESSION_USER_ELEMENT_ID)).toBeNull();
  });

  it('takes a signed-out page as the 401 it stands for: no request, and the remembered user forgotten', async () => {
    const fetch = stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    rememberUser(TEST_USER);
    document.head.insertAdjacentHTML('beforeend', sessionUserBlock(null));
    const client = createQueryClient();
    prefetchCurrentUser(client);
    renderInApp(<Probe />, { client });
    expect(screen.getByText('unauthenticated nobody online')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    expect(rememberedUser()).toBeNull();
  });

  it('asks the server when the page carries no user, or one it cannot read', async () => {
    const fetch = stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    document.head.insertAdjacentHTML(
      'beforeend',
      `<script type="application/json" id="${SESSION_USER_ELEMENT_ID}">{"id":</script>`,
    );
    const client = createQueryClient();
    prefetchCurrentUser(client);
    await waitFor(() => expect(client.getQueryData(['/api/auth/user'])).toEqual(TEST_USER));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is unauthenticated on 401', async () => {
    stubApi({ 'GET /api/auth/user': () => json({ message: 'no' }, 401) });
    renderInApp(<Probe />);
    expect(await screen.findByText('unauthenticated nobody online')).toBeTruthy();
  });

  it('runs offline on the remembered user, and confirms with the server once online again', async () => {
    rememberUser(TEST_USER);
    let up = false;
    stubApi({
      'GET /api/auth/user': () => {
        if (!up) throw new TypeError('Failed to fetch');
        return json(TEST_USER);
      },
    });
    renderInApp(<Probe />);
    expect(await screen.findByText('authenticated crew@summit.test offline')).toBeTruthy();
    up = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.getByText('authenticated crew@summit.test online')).toBeTruthy());
  });
});

function MenuProbe() {
  const { user } = useSession();
  if (!user) return <p>nobody</p>;
  return <p>photos {user.permissions.photos ? 'shown' : 'hidden'}</p>;
}

describe('an open app and a changed role (issue 13)', () => {
  const granted = { ...TEST_USER, permissions: { ...TEST_USER.permissions, photos: true } };
  const before = { ...TEST_USER, permissions: { ...TEST_USER.permissions, photos: false } };

  it('picks up the new permissions when the tab is shown again, without a reload', async () => {
    let current = before;
    const api = stubApi({ 'GET /api/auth/user': () => json(current) });
    renderInApp(<MenuProbe />);
    expect(await screen.findByText('photos hidden')).toBeTruthy();
    current = granted;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(api).toHaveBeenCalledTimes(2);
    expect(await screen.findByText('photos shown')).toBeTruthy();
  });

  it('picks up the new permissions while the tab stays open and visible', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let current = before;
      const api = stubApi({ 'GET /api/auth/user': () => json(current) });
      renderInApp(<MenuProbe />);
      expect(await screen.findByText('photos hidden')).toBeTruthy();
      current = granted;
      const asked = api.mock.calls.length;
      // Well under a minute: an admin's change should not wait for the next sign-in or reload.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(api.mock.calls.length).toBeGreaterThan(asked);
      expect(await screen.findByText('photos shown')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a session that ends on its own', () => {
  it('is noted for the sign-in page with the email and the work waiting; a Sign Out is not', async () => {
    sessionStorage.clear();
    rememberUser(TEST_USER);
    noteWaiting(3);
    stubApi({ 'GET /api/auth/user': () => json({ message: 'Not signed in' }, 401) });
    expect(await fetchCurrentUser()).toBeNull();
    expect(readSessionEnded()).toEqual({ email: TEST_USER.email, waiting: 3 });

    clearSessionEnded();
    rememberUser(TEST_USER);
    noteSigningOut(true);
    try {
      expect(await fetchCurrentUser()).toBeNull();
      expect(readSessionEnded()).toBeNull();
    } finally {
      noteSigningOut(false);
      noteWaiting(0);
    }
  });
});
