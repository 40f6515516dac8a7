import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, writeTx } from './index.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-db-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function pragmas(db: ReturnType<typeof openDb>) {
  const c = db.$client;
  return {
    journal: c.pragma('journal_mode', { simple: true }),
    synchronous: c.pragma('synchronous', { simple: true }),
    foreignKeys: c.pragma('foreign_keys', { simple: true }),
    busyTimeout: c.pragma('busy_timeout', { simple: true }),
  };
}

const EXPECTED = { journal: 'wal', synchronous: 2, foreignKeys: 1, busyTimeout: 5000 };

describe('database open', () => {
  it('sets WAL, synchronous=FULL, foreign keys and busy timeout on a fresh database', () => {
    const db = openDb(path.join(dir, 'fresh.db'));
    expect(pragmas(db)).toEqual(EXPECTED);
    db.$client.close();
  });

  it('keeps synchronous=FULL after reopening a WAL database (better-sqlite3 would report NORMAL)', () => {
    const file = path.join(dir, 'reopen.db');
    openDb(file).$client.close();
    const plain = new Database(file);
    // What a plain reopen gives: the reason the pragma must be set on every open.
    expect(plain.pragma('synchronous', { simple: true })).not.toBe(2);
    plain.close();
    const db = openDb(file);
    expect(pragmas(db)).toEqual(EXPECTED);
    db.$client.close();
  });

  it('creates every table of spec 02 section 3 plus roles, permissions and role_permissions', () => {
    const db = openDb(path.join(dir, 'tables.db'));
    const tables = db.$client
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    for (const t of [
      'companies',
      'users',
      'projects',
      'tasks',
      'project_logs',
      'photos',
      'user_activities',
      'schedule_changes',
      'notifications',
      'subcontractor_assignments',
      'project_health_metrics',
      'risk_assessments',
      'health_check_templates',
      'communications',
      'change_orders',
      'time_entries',
      'invoices',
      'sessions',
      'roles',
      'permissions',
      'role_permissions',
    ]) {
      expect(tables).toContain(t);
    }
    for (const t of ['projects', 'tasks', 'project_logs', 'photos', 'schedule_changes']) {
      const cols = db.$client
        .prepare<[], { name: string }>(`PRAGMA table_info(${t})`)
        .all()
        .map((c) => c.name);
      expect(cols).toEqual(
        expect.arrayContaining([
          'company_id',
          'version',
          'deleted_at',
          'field_meta',
          'updated_at',
          'updated_by',
        ]),
      );
    }
    db.$client.close();
  });

  it('applies the spec defaults (task status pending, priority medium, category project)', () => {
    const db = openDb(path.join(dir, 'defaults.db'));
    const c = db.$client;
    c.prepare(`INSERT INTO companies (id, name, updated_at, created_at) VALUES ('c1', 'Acme', '', '')`).run();
    c.prepare(
      `INSERT INTO tasks (id, title, company_id, created_at, updated_at) VALUES ('t1', 'Pour slab', 'c1', '', '')`,
    ).run();
    expect(c.prepare('SELECT status, priority, category, is_milestone FROM tasks').get()).toEqual({
      status: 'pending',
      priority: 'medium',
      category: 'project',
      is_milestone: 0,
    });
    expect(c.prepare('SELECT industry, plan_type, is_active FROM companies').get()).toEqual({
      industry: 'construction',
      plan_type: 'basic',
      is_active: 1,
    });
    c.close();
  });

  it('refuses a row that points at a missing parent (foreign keys are enforced)', () => {
    const db = openDb(path.join(dir, 'fk.db'));
    expect(() =>
      db.$client
        .prepare(
          `INSERT INTO tasks (id, title, company_id, created_at, updated_at) VALUES ('t1', 'x', 'nope', '', '')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.$client.close();
  });
});

describe('write transactions', () => {
  it('take the write lock at BEGIN (IMMEDIATE), so a second writer waits instead of failing mid-transaction', () => {
    const file = path.join(dir, 'immediate.db');
    const db = openDb(file);
    const other = new Database(file);
    other.pragma('busy_timeout = 0');
    writeTx(db, () => {
      // No statement has run yet: a DEFERRED transaction would hold no lock here.
      expect(() => other.prepare('BEGIN IMMEDIATE').run()).toThrow(/database is locked|SQLITE_BUSY/);
    });
    other.prepare('BEGIN IMMEDIATE').run();
    other.prepare('ROLLBACK').run();
    other.close();
    db.$client.close();
  });

  it('refuse an async body instead of committing before its awaits run', () => {
    const db = openDb(path.join(dir, 'async.db'));
    expect(() => writeTx(db, (async () => 1) as unknown as () => number)).toThrow(/promise/i);
    db.$client.close();
  });

  it('roll back everything when the body throws', () => {
    const db = openDb(path.join(dir, 'rollback.db'));
    expect(() =>
      writeTx(db, () => {
        db.$client
          .prepare(`INSERT INTO companies (id, name, created_at, updated_at) VALUES ('c1', 'A', '', '')`)
          .run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.$client.prepare('SELECT count(*) AS n FROM companies').get()).toEqual({ n: 0 });
    db.$client.close();
  });
});
