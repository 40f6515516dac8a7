import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import {
  CARRIED_CHANGES_MAX,
  PULL_MAX_LIMIT,
  SCHEMA_VERSION,
  type PulledChange,
} from '#shared/sync-protocol.ts';
import { hashToken } from '../auth/session.ts';
import { eventStreamOptions } from '../routes/sync.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { STREAM_LIMITS, eventStreams } from './events.ts';
import { device } from './testing.ts';
import { MAX_WAITING_SYNC, inSyncTurn } from './turns.ts';

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
async function openStream(cookie: string, query = '') {
  const res = await t.request('GET', `/api/sync/events${query}`, { cookie });
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
  // The first event says the company's version; a device that gave its cursor is up to date with it.
  expect(await stream.next()).toMatch(/^event: version\n/);
  return stream;
}

/** The event type and the parsed data of a server-sent event block. */
function parsed(block: string | null): { event: string; data: Record<string, unknown> } {
  expect(block).not.toBeNull();
  const event = /^event: (.*)$/m.exec(block!)![1]!;
  const data = JSON.parse(/^data: (.*)$/m.exec(block!)![1]!) as Record<string, unknown>;
  return { event, data };
}

/** A device of `email` that has made its first download: its client id and cursor (SPEC L16). */
async function downloadedDevice(email: string) {
  const cookie = await t.login(email);
  const d = device(t, cookie);
  const first = await d.pull(0, PULL_MAX_LIMIT);
  if ('reset' in first.body || first.body.hasMore) throw new Error(`${email}: first download not one page`);
  const query = `?clientId=${d.clientId}&cursor=${first.body.cursor}&schemaVersion=${SCHEMA_VERSION}`;
  return { cookie, d, cursor: first.body.cursor, query };
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

describe('changes carried by the stream', () => {
  /** A task made by Summit's admin, visible to its manager, not to its subcontractor (no project, not theirs). */
  async function commitTask(title: string): Promise<string> {
    const res = await t.request('POST', '/api/tasks', {
      cookie: admin,
      body: { title, category: 'general' },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  /** A downloaded device of `email` with its stream open, and the `changes` event a new task `title` brings. */
  async function carriedAfterCommit(email: string, title: string) {
    const m = await downloadedDevice(email);
    const stream = await openStream(m.cookie, m.query);
    const id = await commitTask(title);
    const { event, data } = parsed(await stream.next());
    expect(event).toBe('changes');
    return { m, stream, id, data };
  }

  it('[L16] a device that says where it is gets the next commit as the pull it would make, in a changes event', async () => {
    const { m, stream, id, data } = await carriedAfterCommit('manager@summit.test', 'Carried to the manager');
    expect(data.from).toBe(m.cursor);
    const changes = data.changes as PulledChange[];
    expect(changes.map((c) => [c.table, c.id])).toContainEqual(['tasks', id]);
    // Exactly what the device's own pull from that cursor answers.
    const pulled = await m.d.pull(m.cursor);
    expect(pulled.body).toMatchObject({ cursor: data.cursor, hasMore: false, changes });
    // The next event goes on from there.
    await commitTask('Carried next');
    expect(parsed(await stream.next()).data.from).toBe(data.cursor);
  });

  it('[L16] carries only what the user may see: a subcontractor hears the version move, not the task', async () => {
    const { m: sub, id, data } = await carriedAfterCommit('sub@summit.test', 'Not for the subcontractor');
    expect(data.cursor).toBeGreaterThan(sub.cursor);
    expect((data.changes as PulledChange[]).some((c) => c.id === id)).toBe(false);
    expect(JSON.stringify(data)).not.toContain('Not for the subcontractor');
  });

  it('[L16] pokes instead when the pull would not fit in one event, or would reset, or the device did not say', async () => {
    const m = await downloadedDevice('manager@summit.test');
    const stream = await openStream(m.cookie, m.query);
    // One push of more than CARRIED_CHANGES_MAX new tasks: one commit, one event.
    const writer = device(t, admin);
    const creates = Array.from({ length: CARRIED_CHANGES_MAX + 1 }, (_, i) =>
      writer.mutation('create', 'tasks', newId(), { title: `Bulk ${i}`, category: 'general' }),
    );
    expect((await writer.push(creates)).status).toBe(200);
    const { event, data } = parsed(await stream.next());
    expect(event).toBe('version');
    // Carried again once the device has pulled up to that version (the stream goes on from it).
    await commitTask('Small again');
    expect(parsed(await stream.next()).event).toBe('changes');

    // A client id the server never served: its pull would answer a reset (L9), so it is only poked.
    const stranger = await openStream(
      m.cookie,
      `?clientId=${newId()}&cursor=${data.version}&schemaVersion=${SCHEMA_VERSION}`,
    );
    // An app that gives no cursor (older apps): pokes only, as before.
    const older = await openStream(m.cookie);
    await commitTask('Poked only');
    expect(parsed(await stranger.next()).event).toBe('version');
    expect(parsed(await older.next()).event).toBe('version');
  });

  it('[L16] pokes instead while half the sync turns are taken, leaving them to pushes and pulls', async () => {
    const m = await downloadedDevice('manager@summit.test');
    const stream = await openStream(m.cookie, m.query);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const taken = Array.from({ length: MAX_WAITING_SYNC / 2 }, () => inSyncTurn(() => held));
    try {
      await commitTask('While the turns are taken');
      expect(parsed(await stream.next()).event).toBe('version');
    } finally {
      release();
      await Promise.all(taken);
    }
    await commitTask('Turns free again');
    expect(parsed(await stream.next()).event).toBe('changes');
  });

  it('[L16] refuses a bad cursor or client id with 400', async () => {
    const cookie = await t.login('manager@summit.test');
    for (const q of ['?cursor=-1', '?cursor=abc', '?clientId=nope&cursor=3']) {
      const res = await t.request('GET', `/api/sync/events${q}`, { cookie });
      expect(res.status, q).toBe(400);
    }
  });
});
