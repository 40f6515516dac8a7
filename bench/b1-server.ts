// B1 server under test: the real app (createApp) on a temp SQLite file with the demo seed, topped up so the
// company of admin@summit.test has exactly B1_TASKS visible tasks. Prints `READY {"port":..,"databasePath":..,
// "companyId":..}` when listening (the node-http-db comparator reads the same file).
// Started by bench/b1.ts as `taskset -c 0 node --import tsx bench/b1-server.ts`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '#api/app.ts';
import { LoginLimiter } from '#api/auth/rate-limit.ts';
import { openDb, writeTx, type Db } from '#api/db/index.ts';
import { seedDemo, seedRbac } from '#api/db/seed.ts';
import { sqliteDatabase } from '#api/db/database.ts';
import { parseEnv } from '#api/env.ts';
import { DiskBlobStore } from '#api/storage/index.ts';
import { newId } from '#shared/ids.ts';

export const B1_TASKS = 500;
export const B1_EMAIL = 'admin@summit.test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Inserts (or tombstones) tasks so the user's company has exactly `want` live tasks. */
function topUpTasks(
  db: Db,
  email: string,
  want: number,
): { tasks: number; companyId: string; userId: string } {
  const c = db.$client;
  const user = c
    .prepare<[string], { id: string; company_id: string }>('SELECT id, company_id FROM users WHERE email = ?')
    .get(email);
  if (!user) throw new Error(`no user ${email} in the demo seed`);
  const company = user.company_id;
  const count = () =>
    c
      .prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM tasks WHERE company_id = ? AND deleted_at IS NULL',
      )
      .get(company)!.n;
  const projects = c
    .prepare<[string], { id: string }>(
      'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id',
    )
    .all(company)
    .map((r) => r.id);
  const people = c
    .prepare<[string], { id: string }>(
      'SELECT id FROM users WHERE company_id = ? AND is_active = 1 ORDER BY id',
    )
    .all(company)
    .map((r) => r.id);
  if (projects.length === 0 || people.length === 0)
    throw new Error('the demo company has no projects or users');
  const statuses = ['pending', 'in-progress', 'completed', 'blocked'];
  const priorities = ['low', 'medium', 'high', 'critical'];
  writeTx(db, () => {
    const have = count();
    let version = c
      .prepare<[string], { v: number }>('SELECT last_version AS v FROM companies WHERE id = ?')
      .get(company)!.v;
    const now = Date.now();
    if (have > want) {
      const extra = c
        .prepare<[string, number], { id: string }>(
          'SELECT id FROM tasks WHERE company_id = ? AND deleted_at IS NULL ORDER BY created_at LIMIT ?',
        )
        .all(company, have - want);
      const del = c.prepare('UPDATE tasks SET deleted_at = ?, version = ? WHERE id = ?');
      for (const r of extra) del.run(new Date(now).toISOString(), ++version, r.id);
    }
    const insert = c.prepare(
      `INSERT INTO tasks (id, title, description, project_id, assignee_id, company_id, category, status, priority,
         due_date, completed_at, created_at, is_milestone, estimated_hours, version, field_meta, updated_at, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, 'project', ?, ?, ?, ?, ?, 0, ?, ?, '{}', ?, ?)`,
    );
    for (let i = have; i < want; i++) {
      const created = new Date(now - (want - i) * 3_600_000).toISOString();
      const status = statuses[i % 4]!;
      insert.run(
        newId(),
        `Site task ${i + 1}: inspect and sign off work package ${(i % 37) + 1}`,
        'Check the work against the drawings, photograph any defects and note follow-ups for the crew.',
        projects[i % projects.length],
        people[i % people.length],
        company,
        status,
        priorities[i % 4],
        new Date(now + ((i % 60) - 20) * 86_400_000).toISOString(),
        status === 'completed' ? created : null,
        created,
        (i % 16) + 0.5,
        ++version,
        created,
        people[0],
      );
    }
    c.prepare('UPDATE companies SET last_version = ? WHERE id = ?').run(version, company);
  });
  return { tasks: count(), companyId: company, userId: user.id };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-b1-'));
  const port = await freePort();
  const env = parseEnv({
    PORT: String(port),
    DATABASE_PATH: path.join(dir, 'bench.db'),
    PHOTO_DIR: path.join(dir, 'photos'),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    NODE_ENV: 'production',
  });
  const db = openDb(env.DATABASE_PATH);
  const store = new DiskBlobStore(env.PHOTO_DIR);
  seedRbac(db);
  await seedDemo(db, store);
  const seeded = topUpTasks(db, B1_EMAIL, B1_TASKS);
  const app = createApp({
    database: sqliteDatabase(db),
    env,
    store,
    now: () => new Date(),
    loginLimiter: new LoginLimiter(),
  });
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
    console.log(`READY ${JSON.stringify({ port: info.port, databasePath: env.DATABASE_PATH, ...seeded })}`);
  });
  const stop = () => {
    server.close();
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await main();
