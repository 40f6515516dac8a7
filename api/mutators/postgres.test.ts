import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import { permissionsOf } from '../auth/session.ts';
import { copyCompany } from '../db/copy.ts';
import { connOf, pgPool, postgresDatabase, type Conn, type Database } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, runSync, type Op } from '../db/op.ts';
import { postgresAvailable, startTempCluster, type TempCluster } from '../db/pg/cluster.ts';
import { rowsStmt } from '../db/sql.ts';
import { writeTx } from '../db/index.ts';
import { HttpError } from '../http.ts';
import { pullRead } from '../sync/pull.ts';
import { pushBatch, type PushRequest } from '../sync/push.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';
import { mutationContext, type MutationContext } from './core.ts';
import { createTask, deleteTask, updateTask } from './tasks.ts';

// ADR 027: the mutators and the push batch are written once and run on either database. Both start from
// the same company (PostgreSQL gets a copy of SQLite's, `db:copy`), the same changes are made on both at
// the same moment with the same ids, and both must answer and store the same.

const NOW = new Date('2026-11-27T09:30:00.000Z');
const TASK = '0b6f1d8e-1c1e-4c55-9a33-5a0f0c1d2e31';
const PUSHED = '0b6f1d8e-1c1e-4c55-9a33-5a0f0c1d2e32';
const STORED = rowsStmt<{ mutation_id: number; result: string }>(
  'SELECT mutation_id, result FROM sync_mutations WHERE client_id = ? ORDER BY mutation_id',
);

describe.runIf(postgresAvailable())('the same mutators on SQLite and PostgreSQL', () => {
  let t: TestApp;
  let cluster: TempCluster;
  let pg: Database;
  let admin: SessionUser;
  let projectId: string;
  let crewId: string;
  let foreignUserId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const sqlite = t.db.$client;
    const row = sqlite
      .prepare<[], { id: string; roleId: number; companyId: string }>(
        "SELECT id, role_id AS roleId, company_id AS companyId FROM users WHERE email = 'admin@summit.test'",
      )
      .get()!;
    admin = {
      id: row.id,
      email: 'admin@summit.test',
      firstName: 'Summit',
      lastName: 'Admin',
      name: null,
      role: 'admin',
      roleId: row.roleId,
      companyId: row.companyId,
      companyName: 'Summit',
      companyTimeZone: 'UTC',
      mustChangePassword: false,
      permissions: await permissionsOf(t.deps, row.roleId, 'admin'),
      sessionId: 'test',
    };
    const first = (sql: string) => sqlite.prepare<[string], string>(sql).pluck().get(admin.companyId)!;
    projectId = first('SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id');
    crewId = first("SELECT id FROM users WHERE company_id = ? AND role = 'crew' ORDER BY id");
    foreignUserId = first('SELECT id FROM users WHERE company_id <> ? ORDER BY id');
    cluster = startTempCluster();
    const url = cluster.createDatabase('mutators');
    pg = await postgresDatabase(url);
    const pool = pgPool(url);
    await copyCompany(sqlite, pool, admin.companyId, { dryRun: false });
    await pool.end();
  });

  afterAll(async () => {
    await pg?.close();
    cluster?.stop();
    await t?.close();
  });

  const contextOn = (c: Conn): MutationContext =>
    mutationContext({ ...c, user: admin, now: NOW, clientId: 'server', clientTime: NOW.getTime() });

  /** Runs one mutation on both databases; answers what each returned or threw. */
  async function onBoth<T>(mutation: (ctx: MutationContext) => Op<T>) {
    const settle = async (run: () => T | Promise<T>) => {
      try {
        return { ok: await run() };
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        return { status: err.status, code: err.code, message: err.message };
      }
    };
    const onSqlite = await settle(() => writeTx(t.db, () => runSync(mutation(contextOn(connOf(t.db))))));
    const onPg = await settle(() => pg.writeTx(admin.companyId, (c) => mutation(contextOn(c))));
    return { onSqlite, onPg };
  }

  const tasksOf = (id: string) =>
    function* ({ db }: Conn) {
      return yield* io(
        db
          .select()
          .from(schema.tasks)
          .where(eq(schema.tasks.projectId, id))
          .orderBy(asc(schema.tasks.id))
          .all(),
      );
    };

  it('creates, updates and deletes a task with the same answers and the same stored rows', async () => {
    const created = await onBoth((ctx) =>
      createTask(ctx, {
        id: TASK,
        title: 'Pour the east slab',
        projectId,
        assigneeId: crewId,
        priority: 'high',
      }),
    );
    expect(created.onPg).toEqual(created.onSqlite);
    expect(created.onSqlite).toEqual({
      ok: expect.objectContaining({ id: TASK, version: expect.any(Number) }),
    });

    const updated = await onBoth((ctx) => updateTask(ctx, TASK, { status: 'completed' }));
    expect(updated.onPg).toEqual(updated.onSqlite);
    expect(updated.onSqlite).toEqual({
      ok: expect.objectContaining({ status: 'completed', completedAt: NOW.toISOString() }),
    });

    // A rule that refuses: an assignee of another company is not found, on both, and nothing is written.
    const refused = await onBoth((ctx) => updateTask(ctx, TASK, { assigneeId: foreignUserId }));
    expect(refused.onSqlite).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Assignee not found' });
    expect(refused.onPg).toEqual(refused.onSqlite);

    const deleted = await onBoth((ctx) => deleteTask(ctx, TASK));
    expect(deleted.onPg).toEqual(deleted.onSqlite);

    const onSqlite = runSync(tasksOf(projectId)(connOf(t.db)));
    const onPg = await pg.read(tasksOf(projectId));
    expect(onPg).toEqual(onSqlite);
    expect(onPg.find((r) => r.id === TASK)).toEqual(
      expect.objectContaining({ deletedAt: NOW.toISOString(), status: 'completed' }),
    );
  });

  it('applies a pushed batch the same way: per-field results, a rejection in its savepoint, stored answers', async () => {
    const request: PushRequest = {
      clientId: '6a1c0f9e-2b7d-4e1a-9c3b-1d2e3f4a5b6c',
      schemaVersion: SCHEMA_VERSION,
      mutations: [
        {
          id: 1,
          op: 'create',
          table: 'tasks',
          rowId: PUSHED,
          data: { title: 'Check the formwork', projectId, status: 'pending', priority: 'medium' },
          baseVersion: null,
          clientTime: NOW.getTime() - 60_000,
        },
        {
          id: 2,
          op: 'patch',
          table: 'tasks',
          rowId: PUSHED,
          data: { assigneeId: foreignUserId },
          baseVersion: null,
          clientTime: NOW.getTime() - 30_000,
        },
        {
          id: 3,
          op: 'patch',
          table: 'tasks',
          rowId: PUSHED,
          data: { priority: 'high' },
          baseVersion: null,
          clientTime: NOW.getTime() - 10_000,
        },
      ],
    } as PushRequest;
    const onSqlite = writeTx(t.db, () => runSync(pushBatch(connOf(t.db), admin, request, NOW)));
    const onPg = await pg.writeTx(admin.companyId, (c) => pushBatch(c, admin, request, NOW));
    expect(onPg).toEqual(onSqlite);
    expect(onSqlite.status).toBe(200);
    const results = onSqlite.status === 200 ? onSqlite.body.results : [];
    expect(results.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);

    const stored = ({ sql }: Conn) => io(sql.all(STORED, [request.clientId]));
    expect(await pg.read(stored)).toEqual(runSync(stored(connOf(t.db))));
    expect(await pg.read(tasksOf(projectId))).toEqual(runSync(tasksOf(projectId)(connOf(t.db))));
  });

  it('pulls the same pages from both: every scope, tombstones, mirrors, and where a page ends', async () => {
    const asUser = async (email: string): Promise<SessionUser> => {
      const row = t.db.$client
        .prepare<[string], { id: string; roleId: number; role: SessionUser['role'] }>(
          'SELECT id, role_id AS roleId, role FROM users WHERE email = ?',
        )
        .get(email)!;
      return {
        ...admin,
        id: row.id,
        email,
        role: row.role,
        roleId: row.roleId,
        permissions: await permissionsOf(t.deps, row.roleId, row.role),
      };
    };
    const people = [admin, await asUser('crew@summit.test'), await asUser('sub@summit.test')];
    expect(people.map((p) => p.role)).toEqual(['admin', 'crew', 'subcontractor']);
    for (const user of people) {
      for (const [cursor, limit] of [
        [0, 5000],
        [0, 40],
        [40, 40],
      ] as const) {
        const query = { cursor, limit, schemaVersion: SCHEMA_VERSION };
        const onSqlite = runSync(pullRead(connOf(t.db).sql, user, query, NOW));
        const onPg = await pg.readTx((c) => pullRead(c.sql, user, query, NOW));
        expect({ user: user.role, cursor, limit, answer: onPg.answer }).toEqual({
          user: user.role,
          cursor,
          limit,
          answer: onSqlite.answer,
        });
        if (cursor === 0 && limit === 5000) {
          const page = onSqlite.answer as { changes: { deleted: boolean }[] };
          expect(page.changes.length).toBeGreaterThan(user.role === 'subcontractor' ? 10 : 100);
          expect(page.changes.some((c) => c.deleted)).toBe(true);
        }
      }
    }
  });
});
