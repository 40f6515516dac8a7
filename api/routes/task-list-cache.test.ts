import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import type { SessionUser } from '../context.ts';
import { connOf } from '../db/database.ts';
import { runSync } from '../db/op.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { companyTaskList, taskListCache } from './tasks.ts';

let t: TestApp;
const BOUND = 64 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  taskListCache(connOf(t.db).sql, BOUND); // first use decides the bound of this connection's cache
});
afterAll(() => t?.close());

/** A company with `n` tasks; returns a company-wide reader of it. */
function companyWithTasks(n: number): SessionUser {
  const c = t.db.$client;
  const id = newId();
  c.prepare(
    `INSERT INTO companies (id, name, created_at, updated_at) VALUES (?, ?, '2026-01-01', '2026-01-01')`,
  ).run(id, `Cache Co ${id}`);
  const insert = c.prepare(
    `INSERT INTO tasks (id, title, description, company_id, category, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'general', '2026-01-01', '2026-01-01')`,
  );
  for (let i = 0; i < n; i++) insert.run(newId(), `Task ${i} of ${id}`, 'x'.repeat(200), id);
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
  it('stays within its byte bound however many companies read their lists', () => {
    const readers = Array.from({ length: 40 }, () => companyWithTasks(30));
    for (const reader of readers) runSync(companyTaskList(connOf(t.db), reader));
    const { lists } = taskListCache(connOf(t.db).sql);
    expect(lists.calculatedSize).toBeLessThanOrEqual(BOUND);
    expect(lists.size).toBeLessThan(40);
    // An evicted company's list is built again, whole and its own.
    const again = JSON.parse(
      new TextDecoder().decode(runSync(companyTaskList(connOf(t.db), readers[0]!)).json),
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
