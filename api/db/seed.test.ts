import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../shared/ids.ts';
import { PERMISSIONS, ROLE_TEMPLATES } from '../../shared/permissions.ts';
import { formatCents } from '../../shared/rules/money.ts';
import { DiskBlobStore } from '../storage/index.ts';
import { openDb, type Db } from './index.ts';
import { DEMO_ACCOUNTS, seedDemo, seedRbac } from './seed.ts';

const NOW = new Date('2026-03-18T18:30:00.000Z');
const TODAY = NOW.toISOString().slice(0, 10);

const TABLES = [
  'companies',
  'users',
  'roles',
  'permissions',
  'role_permissions',
  'projects',
  'tasks',
  'project_logs',
  'photos',
  'schedule_changes',
  'user_activities',
  'notifications',
  'subcontractor_assignments',
  'project_health_metrics',
  'risk_assessments',
  'health_check_templates',
  'communications',
  'change_orders',
  'time_entries',
  'invoices',
] as const;

function all<T>(db: Db, sql: string, ...params: unknown[]): T[] {
  return db.$client.prepare(sql).all(...params) as T[];
}

function one<T>(db: Db, sql: string, ...params: unknown[]): T {
  return db.$client.prepare(sql).get(...params) as T;
}

function counts(db: Db): Record<(typeof TABLES)[number], number> {
  return Object.fromEntries(
    TABLES.map((t) => [t, one<{ n: number }>(db, `SELECT count(*) AS n FROM ${t}`).n]),
  ) as Record<(typeof TABLES)[number], number>;
}

function templateGrants(db: Db): Record<number, string[]> {
  const rows = all<{ role_id: number; name: string }>(
    db,
    `SELECT rp.role_id, p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id ORDER BY p.name`,
  );
  const out: Record<number, string[]> = {};
  for (const r of rows) (out[r.role_id] ??= []).push(r.name);
  return out;
}

describe('seedRbac', () => {
  it('upserts the catalogue and the five templates, and repairs drifted grants', () => {
    const db = openDb(':memory:');
    seedRbac(db);
    seedRbac(db);
    expect(counts(db).permissions).toBe(PERMISSIONS.length);
    const roleRows = all<{
      id: number;
      kind: string;
      company_id: string | null;
      is_template: number;
      name: string;
    }>(db, 'SELECT id, kind, company_id, is_template, name FROM roles ORDER BY id');
    expect(roleRows).toHaveLength(5);
    for (const [kind, t] of Object.entries(ROLE_TEMPLATES)) {
      const row = roleRows.find((r) => r.id === t.id);
      expect(row).toMatchObject({
        kind,
        name: t.name,
        is_template: 1,
        company_id: kind === 'root' ? PLATFORM_COMPANY_ID : null,
      });
    }
    const platform = one<{ name: string; settings: string; domain: string }>(
      db,
      'SELECT name, settings, domain FROM companies WHERE id = ?',
      PLATFORM_COMPANY_ID,
    );
    expect(platform.name).toBe('SiteCommand Platform');
    expect(JSON.parse(platform.settings)).toEqual({ type: 'platform', subscription_tier: 'enterprise' });

    const perm = one<{ resource_type: string; action: string; category: string }>(
      db,
      "SELECT resource_type, action, category FROM permissions WHERE name = 'change_orders:approve'",
    );
    expect(perm).toEqual({ resource_type: 'change_orders', action: 'approve', category: 'Change orders' });

    // Drift: crew loses a grant and gains an admin one; a rerun puts the template back exactly.
    const crew = ROLE_TEMPLATES.crew.id;
    db.$client
      .prepare(
        "DELETE FROM role_permissions WHERE role_id = ? AND permission_id = (SELECT id FROM permissions WHERE name = 'tasks:read')",
      )
      .run(crew);
    db.$client
      .prepare(
        "INSERT INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions WHERE name = 'rbac:manage'",
      )
      .run(crew);
    db.$client.prepare("UPDATE roles SET name = 'Renamed' WHERE id = ?").run(crew);
    seedRbac(db);
    const grants = templateGrants(db);
    for (const t of Object.values(ROLE_TEMPLATES)) expect(grants[t.id]).toEqual([...t.permissions].sort());
    expect(one<{ name: string }>(db, 'SELECT name FROM roles WHERE id = ?', crew).name).toBe(
      ROLE_TEMPLATES.crew.name,
    );
    db.$client.close();
  });
});

describe('seedDemo', () => {
  let dir: string;
  let db: Db;
  let store: DiskBlobStore;
  let first: { seeded: boolean };
  let before: ReturnType<typeof counts>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-seed-'));
    db = openDb(path.join(dir, 'seed.db'));
    store = new DiskBlobStore(path.join(dir, 'photos'));
    seedRbac(db);
    first = await seedDemo(db, store, { now: NOW });
    before = counts(db);
  }, 60_000);

  afterAll(() => {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seeds a realistic volume of data', () => {
    expect(first).toEqual({ seeded: true });
    const c = before;
    expect(c.companies).toBe(3);
    expect(c.users).toBeGreaterThanOrEqual(11);
    expect(c.projects).toBeGreaterThanOrEqual(7);
    expect(c.projects).toBeLessThanOrEqual(9);
    expect(c.tasks).toBeGreaterThanOrEqual(130);
    expect(c.tasks).toBeLessThanOrEqual(170);
    expect(c.project_logs).toBeGreaterThanOrEqual(35);
    expect(c.project_logs).toBeLessThanOrEqual(45);
    expect(c.photos).toBeGreaterThanOrEqual(55);
    expect(c.photos).toBeLessThanOrEqual(65);
    expect(c.schedule_changes).toBeGreaterThanOrEqual(8);
    expect(c.schedule_changes).toBeLessThanOrEqual(12);
    expect(c.invoices).toBeGreaterThanOrEqual(10);
    expect(c.invoices).toBeLessThanOrEqual(14);
    expect(c.time_entries).toBeGreaterThanOrEqual(25);
    expect(c.time_entries).toBeLessThanOrEqual(35);
    expect(c.change_orders).toBeGreaterThanOrEqual(6);
    expect(c.change_orders).toBeLessThanOrEqual(10);
    expect(c.communications).toBeGreaterThanOrEqual(10);
    expect(c.communications).toBeLessThanOrEqual(14);
    expect(c.risk_assessments).toBeGreaterThanOrEqual(5);
    expect(c.risk_assessments).toBeLessThanOrEqual(8);
    // Activities come from the mutators (one or more per write), no longer a hand-picked 30.
    expect(c.user_activities).toBeGreaterThanOrEqual(c.tasks + c.project_logs + c.photos);
    expect(c.notifications).toBeGreaterThanOrEqual(15);
    expect(c.project_health_metrics).toBe(c.projects);
    expect(c.health_check_templates).toBe(4);
    expect(c.permissions).toBe(PERMISSIONS.length);
    expect(c.roles).toBe(5);
  });

  it('creates every demo account with its role, template role id and company', () => {
    for (const a of DEMO_ACCOUNTS) {
      const u = one<
        { role: string; role_id: number; company: string; username: string; name: string } | undefined
      >(
        db,
        `SELECT u.role, u.role_id, c.name AS company, u.username, u.name
           FROM users u JOIN companies c ON c.id = u.company_id WHERE u.email = ?`,
        a.email,
      );
      expect(u, a.email).toBeDefined();
      expect(u).toMatchObject({
        role: a.role,
        role_id: ROLE_TEMPLATES[a.role].id,
        company: a.company,
        username: a.email,
      });
    }
    const root = one<{ company_id: string }>(
      db,
      "SELECT company_id FROM users WHERE email = 'root@sitecommand.test'",
    );
    expect(root.company_id).toBe(PLATFORM_COMPANY_ID);
    const hashes = all<{ password: string }>(db, 'SELECT DISTINCT password FROM users');
    expect(hashes).toHaveLength(1);
    expect(hashes[0]?.password).toMatch(/^\$argon2id\$/);
    expect(one<{ n: number }>(db, 'SELECT count(*) AS n FROM users WHERE email <> lower(email)').n).toBe(0);
    const subProjects = all<{ company_id: string }>(
      db,
      `SELECT p.company_id FROM subcontractor_assignments a JOIN users u ON u.id = a.subcontractor_id
         JOIN projects p ON p.id = a.project_id WHERE u.email = 'sub@summit.test'`,
    );
    expect(subProjects).toHaveLength(2);
  });

  it('covers every state the screens show', () => {
    const values = (sql: string) =>
      all<{ v: string }>(db, sql)
        .map((r) => r.v)
        .sort();
    expect(values('SELECT DISTINCT status AS v FROM projects')).toEqual([
      'active',
      'completed',
      'delayed',
      'on-hold',
    ]);
    expect(values('SELECT DISTINCT status AS v FROM tasks')).toEqual([
      'blocked',
      'completed',
      'in-progress',
      'pending',
    ]);
    expect(values('SELECT DISTINCT priority AS v FROM tasks')).toEqual(['critical', 'high', 'low', 'medium']);
    expect(values('SELECT DISTINCT category AS v FROM tasks')).toEqual([
      'administrative',
      'general',
      'project',
      'subcontractor',
    ]);
    expect(values('SELECT DISTINCT type AS v FROM project_logs')).toEqual([
      'general',
      'issue',
      'milestone',
      'safety',
    ]);
    expect(values('SELECT DISTINCT status AS v FROM project_logs')).toEqual([
      'closed',
      'in-progress',
      'open',
      'resolved',
    ]);
    expect(values('SELECT DISTINCT status AS v FROM schedule_changes')).toEqual([
      'approved',
      'pending',
      'rejected',
    ]);
    expect(values('SELECT DISTINCT status AS v FROM invoices')).toEqual(['draft', 'paid', 'sent']);
    expect(values('SELECT DISTINCT status AS v FROM change_orders')).toEqual([
      'approved',
      'pending',
      'rejected',
    ]);
    expect(values('SELECT DISTINCT type AS v FROM communications')).toEqual([
      'dispute',
      'invoice',
      'message',
    ]);
    expect(values('SELECT DISTINCT type AS v FROM notifications')).toEqual([
      'error',
      'info',
      'success',
      'warning',
    ]);

    const n = (sql: string, ...params: unknown[]) => one<{ n: number }>(db, sql, ...params).n;
    const open = "status <> 'completed'";
    expect(
      n(`SELECT count(*) AS n FROM tasks WHERE ${open} AND substr(due_date, 1, 10) = ?`, TODAY),
    ).toBeGreaterThan(3);
    expect(
      n(`SELECT count(*) AS n FROM tasks WHERE ${open} AND due_date < ?`, NOW.toISOString()),
    ).toBeGreaterThan(5);
    const week = new Date(NOW.getTime() + 7 * 86_400_000).toISOString();
    expect(
      n(`SELECT count(*) AS n FROM tasks WHERE due_date BETWEEN ? AND ?`, NOW.toISOString(), week),
    ).toBeGreaterThan(5);
    expect(n('SELECT count(*) AS n FROM tasks WHERE due_date IS NULL')).toBeGreaterThan(3);
    expect(n('SELECT count(*) AS n FROM tasks WHERE is_milestone = 1')).toBeGreaterThan(3);
    expect(n('SELECT count(*) AS n FROM tasks WHERE assignee_id IS NULL')).toBeGreaterThan(0);
    expect(n('SELECT count(*) AS n FROM tasks WHERE project_id IS NULL')).toBeGreaterThan(0);
    expect(
      n(`SELECT count(*) AS n FROM tasks WHERE (status = 'completed') <> (completed_at IS NOT NULL)`),
    ).toBe(0);
    expect(n('SELECT count(*) AS n FROM tasks WHERE completed_at > ?', NOW.toISOString())).toBe(0);
    expect(n('SELECT count(*) AS n FROM tasks WHERE substr(completed_at, 1, 10) = ?', TODAY)).toBeGreaterThan(
      0,
    );
    expect(n('SELECT count(*) AS n FROM photos WHERE substr(created_at, 1, 10) = ?', TODAY)).toBeGreaterThan(
      0,
    );
    expect(n('SELECT count(*) AS n FROM projects WHERE actual_cost > budget')).toBeGreaterThan(0);
    expect(
      n(`SELECT count(*) AS n FROM invoices WHERE status = 'sent' AND due_date < ?`, NOW.toISOString()),
    ).toBeGreaterThan(0);
    expect(n('SELECT count(*) AS n FROM invoices WHERE total <> amount + tax')).toBe(0);
    expect(n('SELECT count(*) AS n FROM notifications WHERE is_read = 0')).toBeGreaterThan(0);
    expect(n('SELECT count(*) AS n FROM notifications WHERE is_read = 1')).toBeGreaterThan(0);
    expect(n("SELECT count(*) AS n FROM project_logs WHERE images <> '[]'")).toBeGreaterThan(5);
    expect(n('SELECT count(*) AS n FROM time_entries WHERE end_time IS NULL')).toBe(2);

    const crewToday = n(
      `SELECT count(*) AS n FROM tasks t JOIN users u ON u.id = t.assignee_id
        WHERE u.email = 'crew@summit.test' AND substr(t.due_date, 1, 10) = ?`,
      TODAY,
    );
    expect(crewToday).toBeGreaterThan(1);

    const weights: Record<string, number> = { low: 1, medium: 3, high: 5 };
    for (const r of all<{ probability: string; impact: string; risk_score: number }>(
      db,
      'SELECT probability, impact, risk_score FROM risk_assessments',
    ))
      expect(r.risk_score).toBe((weights[r.probability] ?? 0) * (weights[r.impact] ?? 0));
  });

  it('points log images at photos of the same project', () => {
    const logs = all<{ project_id: string; images: string }>(
      db,
      'SELECT project_id, images FROM project_logs',
    );
    const photoProject = new Map(
      all<{ id: string; project_id: string }>(db, 'SELECT id, project_id FROM photos').map((p) => [
        p.id,
        p.project_id,
      ]),
    );
    for (const log of logs)
      for (const url of JSON.parse(log.images) as string[]) {
        const id = /^\/api\/photos\/([0-9a-f-]+)\/file$/.exec(url)?.[1];
        expect(id && photoProject.get(id)).toBe(log.project_id);
      }
  });

  it('gives mirrored rows distinct per-company versions up to last_version', () => {
    const mirrored = ['projects', 'tasks', 'project_logs', 'photos', 'schedule_changes'];
    const companies = all<{ id: string; last_version: number }>(db, 'SELECT id, last_version FROM companies');
    // The read-only mirrors take versions from the same counter (sync/SPEC.md L12).
    const versioned = [...mirrored, 'users', 'subcontractor_assignments'];
    for (const c of companies) {
      const versions = versioned
        .flatMap((t) => all<{ version: number }>(db, `SELECT version FROM ${t} WHERE company_id = ?`, c.id))
        .map((r) => r.version)
        .sort((a, b) => a - b);
      // Later writes (a completion, a decision, a progress report) take new versions, so the rows keep
      // distinct versions with gaps where an earlier version of the same row was.
      expect(new Set(versions).size).toBe(versions.length);
      expect(versions[0] ?? 0).toBeGreaterThanOrEqual(versions.length ? 1 : 0);
      expect(c.last_version).toBe(versions.at(-1) ?? 0);
    }
    const badUpdater = mirrored.map((t) =>
      one<{ n: number }>(
        db,
        `SELECT count(*) AS n FROM ${t} r LEFT JOIN users u ON u.id = r.updated_by
          WHERE u.id IS NULL OR u.company_id <> r.company_id`,
      ),
    );
    expect(badUpdater.map((r) => r.n)).toEqual(mirrored.map(() => 0));
  });

  it('writes the field rows through the mutators: field stamps and an activity for each', () => {
    const mirrored = [
      ['projects', 'project'],
      ['tasks', 'task'],
      ['project_logs', 'project_log'],
      ['photos', 'photo'],
      ['schedule_changes', 'schedule_change'],
    ] as const;
    for (const [table, entity] of mirrored) {
      const rows = all<{ id: string; version: number; field_meta: string; created_at: string }>(
        db,
        `SELECT id, version, field_meta, created_at FROM ${table}`,
      );
      expect(rows.length, table).toBeGreaterThan(0);
      for (const r of rows) {
        const stamps = Object.values(JSON.parse(r.field_meta) as Record<string, [number, number, string]>);
        expect(stamps.length, `${table} ${r.id} field_meta`).toBeGreaterThan(0);
        expect(Math.max(...stamps.map((f) => f[0])), `${table} ${r.id}`).toBe(r.version);
      }
      const withActivity = one<{ n: number }>(
        db,
        `SELECT count(*) AS n FROM ${table} r WHERE EXISTS
           (SELECT 1 FROM user_activities a WHERE a.entity_type = ? AND a.entity_id = r.id AND a.created_at = r.created_at)`,
        entity,
      ).n;
      expect(withActivity, table).toBe(rows.length);
    }
    // A completed task was completed by someone, at its completion time, after it was created.
    const completions = one<{ n: number; done: number }>(
      db,
      `SELECT count(*) AS done, sum(EXISTS (SELECT 1 FROM user_activities a WHERE a.entity_id = t.id
          AND a.action_type = 'task_completed' AND a.created_at = t.completed_at)) AS n
         FROM tasks t WHERE t.status = 'completed'`,
    );
    expect(completions.done).toBeGreaterThan(0);
    expect(completions.n).toBe(completions.done);
  });

  it("names an invoice's total as the app writes money (formatCents), not in whole dollars", () => {
    const notices = all<{ message: string; total: number }>(
      db,
      `SELECT n.message, i.total FROM notifications n
         JOIN invoices i ON n.related_entity_type = 'invoice' AND i.id = n.related_entity_id`,
    );
    expect(notices.length).toBeGreaterThan(0);
    for (const n of notices) expect(n.message).toContain(`(${formatCents(n.total)})`);
  });

  it('stores every photo as a real JPEG whose hash matches its row', async () => {
    const rows = all<{
      filename: string;
      sha256: string;
      size_bytes: number;
      mime_type: string;
      blob_status: string;
    }>(db, 'SELECT filename, sha256, size_bytes, mime_type, blob_status FROM photos');
    for (const r of rows) {
      const bytes = await store.get(r.filename);
      expect(bytes, r.filename).not.toBeNull();
      if (!bytes) continue;
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(r.sha256);
      expect(bytes.byteLength).toBe(r.size_bytes);
      expect(r.mime_type).toBe('image/jpeg');
      expect(r.blob_status).toBe('present');
    }
  });

  it('never lets a row reference another company', () => {
    const crossRefs: Record<string, string> = {
      'tasks -> projects':
        'SELECT count(*) AS n FROM tasks r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'tasks -> assignee':
        'SELECT count(*) AS n FROM tasks r JOIN users u ON u.id = r.assignee_id WHERE u.company_id <> r.company_id',
      'logs -> projects':
        'SELECT count(*) AS n FROM project_logs r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'logs -> users':
        'SELECT count(*) AS n FROM project_logs r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
      'photos -> projects':
        'SELECT count(*) AS n FROM photos r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'photos -> users':
        'SELECT count(*) AS n FROM photos r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
      'schedule changes -> tasks':
        'SELECT count(*) AS n FROM schedule_changes r JOIN tasks t ON t.id = r.task_id WHERE t.company_id <> r.company_id',
      'schedule changes -> users':
        'SELECT count(*) AS n FROM schedule_changes r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
      'assignments -> projects':
        'SELECT count(*) AS n FROM subcontractor_assignments r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'assignments -> subs':
        'SELECT count(*) AS n FROM subcontractor_assignments r JOIN users u ON u.id = r.subcontractor_id WHERE u.company_id <> r.company_id',
      'time entries -> projects':
        'SELECT count(*) AS n FROM time_entries r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'time entries -> tasks':
        'SELECT count(*) AS n FROM time_entries r JOIN tasks t ON t.id = r.task_id WHERE t.company_id <> r.company_id OR t.project_id <> r.project_id',
      'time entries -> users':
        'SELECT count(*) AS n FROM time_entries r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
      'invoices -> projects':
        'SELECT count(*) AS n FROM invoices r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'change orders -> projects':
        'SELECT count(*) AS n FROM change_orders r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'communications -> projects':
        'SELECT count(*) AS n FROM communications r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'communications -> users': `SELECT count(*) AS n FROM communications r LEFT JOIN users f ON f.id = r.from_user_id
          LEFT JOIN users t ON t.id = r.to_user_id WHERE f.company_id <> r.company_id OR t.company_id <> r.company_id`,
      'risks -> projects':
        'SELECT count(*) AS n FROM risk_assessments r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'health -> projects':
        'SELECT count(*) AS n FROM project_health_metrics r JOIN projects p ON p.id = r.project_id WHERE p.company_id <> r.company_id',
      'activities -> users':
        'SELECT count(*) AS n FROM user_activities r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
      'notifications -> users':
        'SELECT count(*) AS n FROM notifications r JOIN users u ON u.id = r.user_id WHERE u.company_id <> r.company_id',
    };
    const bad = Object.fromEntries(
      Object.entries(crossRefs).map(([k, sql]) => [k, one<{ n: number }>(db, sql).n]),
    );
    expect(bad).toEqual(Object.fromEntries(Object.keys(crossRefs).map((k) => [k, 0])));

    const summitSub = all<{ project: string }>(
      db,
      `SELECT DISTINCT p.name AS project FROM tasks t JOIN users u ON u.id = t.assignee_id JOIN projects p ON p.id = t.project_id
        WHERE u.email = 'sub@summit.test' AND p.id NOT IN
          (SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = u.id)`,
    );
    expect(summitSub).toEqual([]);
  });

  it('leaves a consistent database', () => {
    expect(db.$client.pragma('foreign_key_check')).toEqual([]);
    expect(db.$client.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('does nothing on a second run', async () => {
    const files = fs.readdirSync(path.join(dir, 'photos')).length;
    seedRbac(db);
    expect(await seedDemo(db, store, { now: NOW })).toEqual({ seeded: false });
    expect(counts(db)).toEqual(before);
    expect(fs.readdirSync(path.join(dir, 'photos')).length).toBe(files);
  });
});
