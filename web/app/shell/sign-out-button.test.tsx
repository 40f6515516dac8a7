// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb, type SyncDb } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { rememberedUser } from '#web/lib/session-user.ts';
import { StaticLocalData } from '../local-data.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '../test-utils.tsx';
import { SignOutButton, unsentChangesText } from './sign-out-button.tsx';

let db: SyncDb;
let n = 0;
beforeEach(() => {
  n += 1;
  db = openSyncDb({ companyId: `company-signout-${n}`, userId: TEST_USER.id });
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  db.close();
  vi.unstubAllGlobals();
});

function setup(logout: () => Response | Promise<Response> = () => json({ ok: true })) {
  const fetch = stubApi({ 'GET /api/auth/user': () => json(TEST_USER), 'POST /api/auth/logout': logout });
  renderInApp(
    <StaticLocalData db={db}>
      <SignOutButton />
    </StaticLocalData>,
    { path: '/dashboard' },
  );
  return fetch;
}

describe('Sign Out', () => {
  it('with nothing unsent: logs out, forgets the user and goes to /login', async () => {
    const fetch = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(
      fetch.mock.calls.some(([url, init]) => String(url) === '/api/auth/logout' && init?.method === 'POST'),
    ).toBe(true);
    expect(rememberedUser()).toBeNull();
  });

  it('goes to /login even when the logout call fails', async () => {
    setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
  });

  it('with unsent changes asks first; staying keeps the session, signing out keeps the outbox', async () => {
    await mutate(db, 'projects', 'create', '0195a0a0-0000-7000-8000-0000000000d1', {
      name: 'A',
      location: 'B',
    });
    await mutate(db, 'projects', 'patch', '0195a0a0-0000-7000-8000-0000000000d1', { name: 'A2' });
    setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('You have 2 changes that have not been sent');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');

    await userEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign out anyway' }),
    );
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(await db.outbox.count()).toBe(2);
  });

  it('words one change in the singular', () => {
    expect(unsentChangesText(1)).toMatch(/^You have 1 change that has not been sent/);
  });
});
