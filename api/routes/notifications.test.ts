import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../db/index.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
const cookie: Record<string, string> = {};
const EMAILS = {
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  harbor: 'crew@harbor.test',
} as const;
type Who = keyof typeof EMAILS;

async function call(method: string, url: string, who: Who | null, body?: unknown) {
  const res = await t.request(method, url, { cookie: who ? cookie[who] : undefined, body });
  return { status: res.status, body: (await res.json()) as any };
}
const idOf = async (email: string) =>
  (await t.query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;

async function addNotification(email: string, title: string, createdAt: string) {
  const id = crypto.randomUUID();
  const companyId = t.companyId(email.split('@')[1]!);
  const userId = await idOf(email);
  await t.orm((db) =>
    db
      .insert(schema.notifications)
      .values({
        id,
        userId,
        companyId,
        title,
        message: `${title} message`,
        type: 'warning',
        createdAt,
      })
      .run(),
  );
  return id;
}
const unreadOf = async (email: string) => {
  const userId = await idOf(email);
  return (
    await t.orm((db) =>
      db
        .select()
        .from(schema.notifications)
        .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.isRead, false)))
        .all(),
    )
  ).length;
};

let crewOld: string;
let crewNew: string;
let managerNote: string;
let harborNote: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const [who, email] of Object.entries(EMAILS)) cookie[who] = await t.login(email);
  crewOld = await addNotification(EMAILS.crew, 'Old crew note', '2020-01-01T00:00:00.000Z');
  crewNew = await addNotification(EMAILS.crew, 'New crew note', '2099-01-01T00:00:00.000Z');
  managerNote = await addNotification(EMAILS.manager, 'Manager note', '2099-01-02T00:00:00.000Z');
  harborNote = await addNotification(EMAILS.harbor, 'Harbor note', '2099-01-03T00:00:00.000Z');
});
afterAll(() => t?.close());

describe('GET /api/notifications', () => {
  it("lists only the caller's notifications, newest first, whatever userId the query names", async () => {
    const res = await call('GET', `/api/notifications?userId=${await idOf(EMAILS.manager)}`, 'crew');
    expect(res.status).toBe(200);
    const ids = res.body.map((n: any) => n.id);
    expect(ids).toContain(crewOld);
    expect(ids).toContain(crewNew);
    expect(ids).not.toContain(managerNote);
    expect(ids).not.toContain(harborNote);
    expect(ids.indexOf(crewNew)).toBeLessThan(ids.indexOf(crewOld));
    const times = res.body.map((n: any) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('answers the fields the panel reads and nothing else', async () => {
    const note = (await call('GET', '/api/notifications', 'crew')).body.find((n: any) => n.id === crewNew);
    expect(note).toEqual({
      id: crewNew,
      title: 'New crew note',
      message: 'New crew note message',
      type: 'warning',
      isRead: false,
      createdAt: '2099-01-01T00:00:00.000Z',
      relatedEntityType: null,
      relatedEntityId: null,
    });
  });

  it('refuses a visitor who is not signed in (401)', async () => {
    expect((await call('GET', '/api/notifications', null)).status).toBe(401);
  });
});

describe('PATCH /api/notifications/{id}/read', () => {
  it("marks the caller's own notification read", async () => {
    const res = await call('PATCH', `/api/notifications/${crewOld}/read`, 'crew');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: crewOld, isRead: true });
    const listed = (await call('GET', '/api/notifications', 'crew')).body.find((n: any) => n.id === crewOld);
    expect(listed.isRead).toBe(true);
  });

  it("answers 404 for another user's or another company's notification and leaves it unread", async () => {
    expect((await call('PATCH', `/api/notifications/${managerNote}/read`, 'crew')).status).toBe(404);
    expect((await call('PATCH', `/api/notifications/${harborNote}/read`, 'crew')).status).toBe(404);
    const manager = (await call('GET', '/api/notifications', 'manager')).body.find(
      (n: any) => n.id === managerNote,
    );
    expect(manager.isRead).toBe(false);
  });
});

describe('PATCH /api/notifications/mark-all-read', () => {
  it("marks every one of the caller's notifications read and no one else's", async () => {
    const managerUnread = await unreadOf(EMAILS.manager);
    const harborUnread = await unreadOf(EMAILS.harbor);
    expect(await unreadOf(EMAILS.crew)).toBeGreaterThan(0);
    const res = await call('PATCH', '/api/notifications/mark-all-read', 'crew');
    expect(res.status).toBe(200);
    expect(res.body.updated).toBeGreaterThan(0);
    expect(await unreadOf(EMAILS.crew)).toBe(0);
    expect((await call('GET', '/api/notifications', 'crew')).body.every((n: any) => n.isRead)).toBe(true);
    expect(await unreadOf(EMAILS.manager)).toBe(managerUnread);
    expect(await unreadOf(EMAILS.harbor)).toBe(harborUnread);
    expect(managerUnread).toBeGreaterThan(0);
  });

  it('refuses a visitor who is not signed in (401)', async () => {
    expect((await call('PATCH', '/api/notifications/mark-all-read', null)).status).toBe(401);
  });

  it('takes no body: none or {} marks, anything else is a 400 that marks nothing', async () => {
    await addNotification(EMAILS.manager, 'Unread one', new Date().toISOString());
    const before = await unreadOf(EMAILS.manager);
    for (const body of [{ zzz: 1 }, [], 'text', '{abc']) {
      const res = await t.request('PATCH', '/api/notifications/mark-all-read', {
        cookie: cookie.manager,
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    }
    expect(await unreadOf(EMAILS.manager)).toBe(before);
    expect((await call('PATCH', '/api/notifications/mark-all-read', 'manager', {})).status).toBe(200);
    expect(await unreadOf(EMAILS.manager)).toBe(0);
  });
});

describe('GET /api/notifications and the rows they are about', () => {
  it('stops showing a subcontractor a notification about a task it can no longer see', async () => {
    const sub = await t.login('sub@summit.test');
    const subId = await idOf('sub@summit.test');
    const task = (
      await t.query<{ id: string }>(
        `SELECT id FROM tasks WHERE company_id = ? AND deleted_at IS NULL AND project_id IS NOT NULL
           AND project_id NOT IN (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ?)
         LIMIT 1`,
        [t.companyId('summit.test'), subId],
      )
    )[0]!.id;
    const id = crypto.randomUUID();
    await t.orm((db) =>
      db
        .insert(schema.notifications)
        .values({
          id,
          userId: subId,
          companyId: t.companyId('summit.test'),
          title: 'Task assigned',
          message: 'You were assigned "Pour the east slab"',
          relatedEntityType: 'task',
          relatedEntityId: task,
          createdAt: '2099-01-01T00:00:00.000Z',
        })
        .run(),
    );
    const list = async () =>
      (
        (await (await t.request('GET', '/api/notifications', { cookie: sub })).json()) as { id: string }[]
      ).map((n) => n.id);
    const assign = (to: string | null) => t.exec('UPDATE tasks SET assignee_id = ? WHERE id = ?', [to, task]);
    await assign(subId);
    expect(await list()).toContain(id);
    await assign(null);
    expect(await list()).not.toContain(id);
  });
});
