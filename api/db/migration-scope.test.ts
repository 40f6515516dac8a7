import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('migration 0002 (scope, list indexes, invoice numbers)', () => {
  it('can run again over a database that already has it and its data', () => {
    const c = t.db.$client;
    const count = () => (c.prepare('SELECT count(*) AS n FROM invoices').get() as { n: number }).n;
    const before = count();
    expect(before).toBeGreaterThan(0);
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', '0002_scope.sql');
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      expect(() => c.exec(statement)).not.toThrow();
    }
    expect(count()).toBe(before);
  });

  it('keeps invoice numbers unique per company, not across companies', () => {
    const c = t.db.$client;
    const insert = c.prepare(
      `INSERT INTO invoices (id, company_id, invoice_number, created_at, updated_at) VALUES (?, ?, ?, '2026-01-01', '2026-01-01')`,
    );
    const summit = t.companyId('summit.test');
    const harbor = t.companyId('harbor.test');
    insert.run(newId(), summit, 'INV-SHARED-1');
    expect(() => insert.run(newId(), harbor, 'INV-SHARED-1')).not.toThrow();
    expect(() => insert.run(newId(), summit, 'INV-SHARED-1')).toThrow(/UNIQUE/);
  });

  it.each([
    [
      'tasks',
      'SELECT id FROM tasks WHERE company_id = ? AND due_date < ? ORDER BY due_date, id',
      'tasks_company_due_idx',
    ],
    [
      'project_logs',
      'SELECT id FROM project_logs WHERE company_id = ? AND created_at < ? ORDER BY created_at DESC',
      'project_logs_company_created_idx',
    ],
    [
      'photos',
      'SELECT id FROM photos WHERE company_id = ? AND created_at < ? ORDER BY created_at DESC',
      'photos_company_created_idx',
    ],
  ])('serves the hot filter of %s from an index', (_table, sql, index) => {
    const plan = t.db.$client
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all('x', '2030-01-01')
      .map((r) => (r as { detail: string }).detail)
      .join('\n');
    expect(plan).toContain(index);
  });
});

describe('migration 0007 (the task list order)', () => {
  it('reads a page of the task list, however deep, from an index without sorting the company', () => {
    // The shape of GET /api/tasks?limit=N&cursor=... (pageOfVisibleTasks): newest first, keyset after the
    // previous page's last (created_at, id).
    const plan = t.db.$client
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM tasks WHERE company_id = ? AND deleted_at IS NULL
         AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 51`,
      )
      .all('x', '2030-01-01', 'z')
      .map((r) => (r as { detail: string }).detail)
      .join('\n');
    expect(plan).toContain('tasks_company_created_idx (company_id=? AND (created_at,id)<(?,?))');
    expect(plan).not.toContain('TEMP B-TREE');
  });
});
