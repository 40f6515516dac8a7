// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openSyncDb, type SyncDb } from '#sync/db.ts';
import { addPhoto, mutate } from '#sync/mutate.ts';
import { rememberedUser } from '#web/lib/session-user.ts';
import { StaticLocalData } from '../local-data.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '../test-utils.tsx';
import type { BlobStatus } from '#sync/db.ts';
import { SignOutButton } from './sign-out-button.tsx';

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
});

const PROJECT = '0195a0a0-0000-7000-8000-0000000000e1';
const STAYS =
  'They stay saved on this device and are sent the next time you sign in here. Signing out now means ' +
  'nobody else sees them until then.';

/** `n` queued changes: a project created offline, then renamed n - 1 times. */
async function queueChanges(n: number) {
  const id = '0195a0a0-0000-7000-8000-0000000000d2';
  await mutate(db, 'projects', 'create', id, { name: 'Level 2 slab', location: 'Block C' });
  for (let i = 1; i < n; i++) await mutate(db, 'projects', 'patch', id, { name: `Level 2 slab (${i})` });
}

/**
 * Photo rows the server already has (pulled, version 2: out of the outbox), pointing at kept bytes by hash,
 * one blob per distinct hash, in `status`.
 */
async function keepPhotos(photos: { id: string; sha: string }[], status: BlobStatus) {
  for (const { id, sha } of photos) {
    await db.photos.put({ id, version: 2, projectId: PROJECT, sha256: sha, blobStatus: 'pending' });
    await db.blobs.put({
      sha256: sha,
      bytes: new ArrayBuffer(4),
      mimeType: 'image/jpeg',
      size: 4,
      status,
      createdAt: 0,
      lastUsedAt: 0,
      attempts: 3,
      nextAttemptAt: 0,
    });
  }
}

const photo = (n: number, sha = String(n).repeat(64)) => ({
  id: `0195a0a0-0000-7000-8000-00000000010${n}`,
  sha,
});

/**
 * Taps Sign Out and returns the confirm as the user reads it (its title and text, as announced), or null
 * when it signed out at once without asking.
 */
async function confirmShown(): Promise<{ title: string; text: string } | null> {
  await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
  await waitFor(() => {
    if (!screen.queryByRole('alertdialog') && screen.getByTestId('location').textContent !== '/login') {
      throw new Error('Sign Out neither asked nor signed out');
    }
  });
  const dialog = screen.queryByRole('alertdialog');
  if (!dialog) return null;
  const read = (attr: string) => document.getElementById(dialog.getAttribute(attr) ?? '')?.textContent;
  return { title: read('aria-labelledby') ?? '', text: read('aria-describedby') ?? '' };
}

describe('Sign Out: what the confirm counts', () => {
  it('a queued change alone, in the singular', async () => {
    await queueChanges(1);
    setup();
    expect(await confirmShown()).toEqual({
      title: 'Sign out with unsent changes?',
      text: `You have 1 change that has not been sent to the server yet. ${STAYS}`,
    });
  });

  it('photos whose rows reached the server but whose bytes are still only on this device', async () => {
    await keepPhotos([photo(1), photo(2), photo(3)], 'pending');
    expect(await db.outbox.count()).toBe(0);
    setup();
    expect(await confirmShown()).toEqual({
      title: 'Sign out with unsent photos?',
      text: `You have 3 photos that have not been sent to the server yet. ${STAYS}`,
    });
  });

  it('one photo taken offline reads as one photo, not also as a change (its row is queued too)', async () => {
    await addPhoto(db, {
      projectId: PROJECT,
      bytes: new Uint8Array([0xff, 0xd8, 7]),
      mimeType: 'image/jpeg',
    });
    expect(await db.outbox.count()).toBe(1);
    setup();
    expect((await confirmShown())?.text).toBe(
      `You have 1 photo that has not been sent to the server yet. ${STAYS}`,
    );
  });

  it('photos the server refused are not counted: they wait in Sync issues and are not sent by themselves', async () => {
    await keepPhotos([photo(1)], 'rejected');
    await keepPhotos([photo(2)], 'pending');
    setup();
    expect((await confirmShown())?.text).toBe(
      `You have 1 photo that has not been sent to the server yet. ${STAYS}`,
    );
  });

  it('changes and photos together', async () => {
    await queueChanges(2);
    await keepPhotos([photo(1), photo(2), photo(3)], 'pending');
    setup();
    expect(await confirmShown()).toEqual({
      title: 'Sign out with unsent changes and photos?',
      text: `You have 2 changes and 3 photos that have not been sent to the server yet. ${STAYS}`,
    });
  });

  it('one change and one photo together', async () => {
    await queueChanges(1);
    await keepPhotos([photo(1)], 'pending');
    setup();
    expect((await confirmShown())?.text).toBe(
      `You have 1 change and 1 photo that have not been sent to the server yet. ${STAYS}`,
    );
  });

  it('two photos of the same bytes (one blob by its hash) count as two photos', async () => {
    const sha = 'f'.repeat(64);
    await keepPhotos([photo(1, sha), photo(2, sha)], 'pending');
    expect(await db.blobs.count()).toBe(1);
    setup();
    expect((await confirmShown())?.text).toBe(
      `You have 2 photos that have not been sent to the server yet. ${STAYS}`,
    );
  });

  it('photos whose bytes are on the server and nothing queued: no confirm, it signs out at once', async () => {
    await keepPhotos([photo(1), photo(2)], 'uploaded');
    setup();
    expect(await confirmShown()).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('signing out anyway keeps the unsent photo bytes on this device', async () => {
    await keepPhotos([photo(1)], 'pending');
    setup();
    await confirmShown();
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sign out anyway' }),
    );
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect((await db.blobs.get(photo(1).sha))?.status).toBe('pending');
  });
});
