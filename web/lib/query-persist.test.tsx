// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { IsRestoringProvider, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createStore, get } from 'idb-keyval';
import { createQueryClient } from './api.ts';
import { forgetPersistedQueries, PERSISTED, usePersistedQueries } from './query-persist.ts';
import { forgetUser, LAST_USER_KEY } from './session-user.ts';

afterEach(() => {
  cleanup();
  forgetUser();
});

/** The browser's signed-in user as a sign-in in any of its tabs records it (web/lib/session-user.ts). */
function signedInAs(userId: string) {
  localStorage.setItem(LAST_USER_KEY, JSON.stringify({ id: userId, companyId: 'c1', permissions: {} }));
}

const USERS_KEY = ['/api/rbac/users'];
const OTHER_KEY = ['/api/notifications'];

/** One app start of `userId`: a fresh query client that restores and then keeps that user's answers. */
async function start(userId: string) {
  signedInAs(userId);
  const client = createQueryClient();
  const hook = renderHook(({ id }) => usePersistedQueries(client, id), { initialProps: { id: userId } });
  await waitFor(() => expect(hook.result.current).toBe(false));
  return { client, hook };
}

/** Waits until the device holds `text` among `userId`'s kept answers (written at most once a second). */
async function kept(userId: string, text: string) {
  const store = createStore('sitecommand-query-cache', 'queries');
  await waitFor(async () => expect(String(await get(`queries:${userId}`, store))).toContain(text), {
    timeout: 5_000,
  });
}

/** Puts an answer in the cache the way a successful fetch does. */
async function answer(
  client: ReturnType<typeof createQueryClient>,
  key: string[],
  data: unknown,
  persist: boolean,
) {
  await client.fetchQuery({ queryKey: key, queryFn: () => data, meta: persist ? PERSISTED : undefined });
}

describe('the office screens’ kept answers', () => {
  it('a later start of the same user has the answers of queries marked PERSISTED, and only those', async () => {
    const first = await start('user-a');
    // The other answer first: the snapshot that holds the users list was taken with it in the cache.
    await answer(first.client, OTHER_KEY, [{ id: 'n1' }], false);
    await answer(first.client, USERS_KEY, [{ id: 'u1' }], true);
    await kept('user-a', '/api/rbac/users');
    first.hook.unmount();

    const second = await start('user-a');
    expect(second.client.getQueryData(USERS_KEY)).toEqual([{ id: 'u1' }]);
    expect(second.client.getQueryData(OTHER_KEY)).toBeUndefined();
    expect(second.client.getQueryState(USERS_KEY)?.dataUpdatedAt).toBeGreaterThan(0);
  });

  it('another user does not get them, and a forgotten user’s answers are gone', async () => {
    const first = await start('user-b');
    await answer(first.client, USERS_KEY, [{ id: 'secret' }], true);
    await kept('user-b', 'secret');
    first.hook.unmount();

    const other = await start('user-c');
    expect(other.client.getQueryData(USERS_KEY)).toBeUndefined();
    other.hook.unmount();

    await forgetPersistedQueries('user-b');
    const again = await start('user-b');
    expect(again.client.getQueryData(USERS_KEY)).toBeUndefined();
  });

  it('a tab still showing a user keeps nothing it fetched once another tab signed in someone else', async () => {
    const tab = await start('user-d');
    await answer(tab.client, USERS_KEY, [{ id: 'own' }], true);
    await kept('user-d', 'own');
    // Another tab signs out and signs in a user of another company: this tab's requests now carry that
    // user's cookie until its session check notices, and their answers are not user-d's.
    signedInAs('user-e');
    await answer(tab.client, ['/api/activities/recent'], [{ id: 'other-company' }], true);
    await new Promise((r) => setTimeout(r, 1_500));
    const store = createStore('sitecommand-query-cache', 'queries');
    const stored = String(await get('queries:user-d', store));
    expect(stored).toContain('own');
    expect(stored).not.toContain('other-company');
  });

  it('the next start asks the server again for a kept answer, even one kept a second before', async () => {
    const first = await start('user-f');
    await answer(first.client, OTHER_KEY, [{ id: 'n1', isRead: false }], true);
    await kept('user-f', 'n1');
    first.hook.unmount();

    // The next start comes at once (a reload): the kept answer is far younger than the 5 s a fresh one
    // is not asked for again.
    signedInAs('user-f');
    const client = createQueryClient();
    let asked = 0;
    function Screen({ children }: { children: ReactNode }) {
      const restoring = usePersistedQueries(client, 'user-f');
      return (
        <QueryClientProvider client={client}>
          <IsRestoringProvider value={restoring}>{children}</IsRestoringProvider>
        </QueryClientProvider>
      );
    }
    const screen = renderHook(
      () =>
        useQuery({
          queryKey: OTHER_KEY,
          meta: PERSISTED,
          queryFn: async () => {
            asked += 1;
            return [{ id: 'n1', isRead: true }];
          },
        }),
      { wrapper: Screen },
    );
    await waitFor(() => expect(screen.result.current.data).toEqual([{ id: 'n1', isRead: true }]));
    expect(asked).toBe(1);
  });
});
