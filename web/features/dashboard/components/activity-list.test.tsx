// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { ActivityList } from './activity-list.tsx';
import { json, polyfillDom, renderWithApp, stubApi, testDb } from './test-support.tsx';

beforeAll(polyfillDom);

let db: SyncDb;
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  db?.close();
});

const NOW = new Date('2025-03-10T12:00:00.000Z');

/** 60 activities, one a minute, newest first, as the server orders them. */
const all = Array.from({ length: 60 }, (_, i) => ({
  id: `0195a0a0-0000-7000-8000-000000000${String(999 - i).padStart(3, '0')}`,
  action_type: 'task_updated',
  first_name: 'Casey',
  email: 'crew@summit.test',
  description: `Activity number ${i + 1}`,
  created_at: new Date(NOW.getTime() - (i + 1) * 60_000).toISOString(),
}));

describe('the full activity list (/activity)', () => {
  it('shows the newest first, 50 at a time, and Load more asks for the ones older than the last shown', async () => {
    const fetch = stubApi({
      'GET /api/activities': (url) => {
        const q = new URL(url, 'http://localhost').searchParams;
        const before = q.get('before');
        const start = before ? all.findIndex((a) => a.created_at === before) + 1 : 0;
        return json(all.slice(start, start + Number(q.get('limit'))));
      },
    });
    db = testDb();
    renderWithApp(db, <ActivityList now={NOW} />, { path: '/activity' });

    const list = await screen.findByRole('list', { name: 'Activities' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('Activity number 1');
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('1 minute ago');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(60));
    expect(within(list).getAllByRole('listitem')[59]?.textContent).toContain('Activity number 60');
    const second = new URL(String(fetch.mock.calls[1]?.[0]), 'http://localhost').searchParams;
    expect(second.get('before')).toBe(all[49]?.created_at);
    expect(second.get('beforeId')).toBe(all[49]?.id);
    // 10 came back, fewer than a page: that was the last.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says so when there is no activity, and links back to the dashboard', async () => {
    stubApi({ 'GET /api/activities': () => json([]) });
    db = testDb();
    renderWithApp(db, <ActivityList now={NOW} />, { path: '/activity' });
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });
});
