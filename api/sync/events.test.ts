import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/session.ts';
import { eventStreamOptions } from '../routes/sync.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { STREAM_LIMITS, eventStreams } from './events.ts';

let t: TestApp;
let admin: string;
const open: { cancel(): Promise<void> }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.cancel().catch(() => {})));
  // A cancelled stream frees its slot once its loop has woken; the next test starts from none.
  for (let i = 0; i < 200 && eventStreams(t.database).count() > 0; i++)
    await new Promise((r) => setTimeout(r, 10));
});
afterAll(() => t.close());

/** Reads server-sent event blocks; `null` once the server has ended the stream. */
async function openStream(cookie: string) {
  const res = await t.request('GET', '/api/sync/events', { cookie });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const stream = {
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return block;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
  open.push(stream);
  expect(await stream.next()).toMatch(/^event: version\n/);
  return stream;
}

/** A commit in Summit Builders, which pokes every Summit stream. */
async function commit() {
  const res = await t.request('POST', '/api/tasks', {
    cookie: admin,
    body: { title: `Poke ${Math.random()}`, category: 'general' },
  });
  expect(res.status).toBe(201);
}

const setActive = (email: string, active: boolean) =>
  t.exec('UPDATE users SET is_active = ? WHERE email = ?', [active ? 1 : 0, email]);

async function withHeartbeat<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const saved = eventStreamOptions.heartbeatMs;
  eventStreamOptions.heartbeatMs = ms;
  try {
    return await fn();
  } finally {
    eventStreamOptions.heartbeatMs = saved;
  }
}

describe('event streams', () => {
  it('[L10] ends a deactivated user’s stream at the next event, without sending it', async () => {
    const crew = await openStream(await t.login('crew@summit.test'));
    const manager = await openStream(await t.login('manager@summit.test'));
    await setActive('crew@summit.test', false);
    try {
      await commit();
      expect(await manager.next()).toMatch(/^event: version\n/);
      expect(await crew.next()).toBeNull();
    } finally {
      await setActive('crew@summit.test', true);
    }
  });

  it('[L10] ends the stream of a session that no longer exists at the next heartbeat, without a ping', async () => {
    await withHeartbeat(20, async () => {
      const cookie = await t.login('crew@summit.test');
      const stream = await openStream(cookie);
      // Signed out elsewhere (another process, an admin): only the session row is gone.
      await t.exec('DELETE FROM sessions WHERE sid = ?', [hashToken(cookie.replace(/^sc_session=/, ''))]);
      // Pings sent before the row went may still be in flight; after it, the stream ends.
      for (let blocks = 0; (await stream.next()) !== null; blocks++) expect(blocks).toBeLessThan(100);
    });
  });

  it('[L10] ends the stream at once when its session signs out', async () => {
    const cookie = await t.login('manager@summit.test');
    const stream = await openStream(cookie);
    expect((await t.request('POST', '/api/auth/logout', { cookie })).status).toBe(200);
    expect(await stream.next()).toBeNull();
  });

  it('[L10] ends a user’s streams as soon as an admin deactivates the user, not at the next heartbeat', async () => {
    const cookie = await t.login('crew@summit.test');
    const stream = await openStream(cookie);
    const crewId = (
      await t.query<{ id: string }>(`SELECT id FROM users WHERE email = 'crew@summit.test'`)
    )[0]!.id;
    const res = await t.request('PATCH', `/api/rbac/users/${crewId}`, {
      cookie: admin,
      body: { is_active: false },
    });
    expect(res.status).toBe(200);
    try {
      // Well inside the 25 s heartbeat that would otherwise end it.
      const ended = await Promise.race([
        stream.next(),
        new Promise<'still open'>((r) => setTimeout(() => r('still open'), 5000)),
      ]);
      expect(ended).toBeNull();
    } finally {
      await setActive('crew@summit.test', true);
    }
  });

  it('keeps at most 3 streams per user: a fourth closes the oldest', async () => {
    const cookie = await t.login('sub@summit.test');
    const userId = (await (await t.request('GET', '/api/auth/user', { cookie })).json()).id as string;
    const streams = [];
    for (let i = 0; i < 4; i++) streams.push(await openStream(cookie));
    expect(await streams[0]!.next()).toBeNull();
    expect(eventStreams(t.database).count(userId)).toBe(3);
    await commit();
    for (const s of streams.slice(1)) expect(await s.next()).toMatch(/^event: version\n/);
  });

  it('refuses a stream past the server’s total with 429 {message, code}, closing nobody else’s', async () => {
    const saved = STREAM_LIMITS.total;
    STREAM_LIMITS.total = 2;
    try {
      const a = await openStream(await t.login('crew@summit.test'));
      const b = await openStream(await t.login('manager@summit.test'));
      const res = await t.request('GET', '/api/sync/events', { cookie: await t.login('admin@harbor.test') });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ code: 'TOO_MANY_STREAMS', message: expect.any(String) });
      await commit();
      expect(await a.next()).toMatch(/^event: version\n/);
      expect(await b.next()).toMatch(/^event: version\n/);
    } finally {
      STREAM_LIMITS.total = saved;
    }
  });
});
