import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import type { SessionUser } from '../context.ts';
import { io } from '../db/op.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { companyTaskList, taskListCache } from './tasks.ts';

let t: TestApp;
const BOUND = 64 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  // First use decides the bound of the cache of the connection the app reads through (PostgreSQL: its pool).
  await t.database.read((c) => io(taskListCache(c.sql, BOUND)));
});
afterAll(() => t?.close());

/** A company with `n` tasks; returns a company-wide reader of it. */
async function companyWithTasks(n: number): Promise<SessionUser> {
  const id = newId();
  await t.exec(
    `INSERT INTO companies (id, name, created_at, updated_at) VALUES (?, ?, '2026-01-01', '2026-01-01')`,
    [id, `Cache Co ${id}`],
  );
  // The n tasks in one statement (one round trip on PostgreSQL).
  const params: unknown[] = [];
  for (let i = 0; i < n; i++) params.push(newId(), `Task ${i} of ${id}`, 'x'.repeat(200), id);
  const row = "(?, ?, ?, ?, 'general', '2026-01-01', '2026-01-01')";
  await t.exec(
    `INSERT INTO tasks (id, title, description, company_id, category, created_at, updated_at)
     VALUES ${Array.from({ length: n }, () => row).join(', ')}`,
    params,
  );
  return {
    id: newId(),
    email: `reader@${id}.test`,
    firstName: null,
    lastName: null,
    name: null,
    role: 'admin',
    roleId: 1,
    companyId: id,
    companyName: 'Cache Co',
    companyTimeZone: 'UTC',
    mustChangePassword: false,
    permissions: new Set(['tasks:read']),
    sessionId: 'test',
  };
}

describe('the company task-list cache', () => {
  it('stays within its byte bound however many companies read their lists', async () => {
    const readers: SessionUser[] = [];
    for (let i = 0; i < 40; i++) readers.push(await companyWithTasks(30));
    for (const reader of readers) await t.database.read((c) => companyTaskList(c, reader));
    const { lists } = await t.database.read((c) => io(taskListCache(c.sql)));
    expect(lists.calculatedSize).toBeLessThanOrEqual(BOUND);
    expect(lists.size).toBeLessThan(40);
    // The reads above all went to the one cache of the app's connection: it holds the latest lists.
    expect(lists.size).toBeGreaterThan(0);
    // An evicted company's list is built again, whole and its own.
    const again = JSON.parse(
      new TextDecoder().decode((await t.database.read((c) => companyTaskList(c, readers[0]!))).json),
    ) as {
      companyId: string;
    }[];
    expect(again).toHaveLength(30);
    expect(again.every((task) => task.companyId === readers[0]!.companyId)).toBe(true);
  });

  it("never answers a subcontractor with the company's cached list", async () => {
    const admin = await t.login('admin@summit.test');
    const sub = await t.login('sub@summit.test');
    const all = (await (await t.request('GET', '/api/tasks', { cookie: admin })).json()) as unknown[];
    const mine = (await (await t.request('GET', '/api/tasks', { cookie: sub })).json()) as unknown[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(all.length);
  });
});
