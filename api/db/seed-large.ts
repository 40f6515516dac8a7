// npm run seed:large: a large tenant for benchmarks (10k tasks, 50k project logs) in its own company.
import { newId } from '#shared/ids.ts';
import { ConfigError, loadEnv } from '../env.ts';
import { openDb, writeTx } from './index.ts';
import { seedRbac } from './seed.ts';

export function seedLarge(
  db: ReturnType<typeof openDb>,
  counts = { projects: 50, tasks: 10_000, logs: 50_000 },
) {
  const now = new Date().toISOString();
  const company = newId();
  const user = newId();
  const c = db.$client;
  writeTx(db, () => {
    c.prepare(
      `INSERT INTO companies (id, name, domain, settings, created_at, updated_at) VALUES (?, 'Large Tenant Co', ?, '{}', ?, ?)`,
    ).run(company, `large-${company.slice(-8)}.test`, now, now);
    c.prepare(
      `INSERT INTO users (id, email, first_name, last_name, name, role, role_id, company_id, created_at, updated_at)
       VALUES (?, ?, 'Bench', 'User', 'Bench User', 'manager', 2, ?, ?, ?)`,
    ).run(user, `bench-${company.slice(-8)}@large.test`, company, now, now);
    let version = 0;
    const projectIds: string[] = [];
    const insertProject = c.prepare(
      `INSERT INTO projects (id, name, location, status, progress, company_id, created_at, updated_at, version, field_meta)
       VALUES (?, ?, 'Benchmark City', 'active', ?, ?, ?, ?, ?, '{}')`,
    );
    for (let i = 0; i < counts.projects; i++) {
      const id = newId();
      projectIds.push(id);
      insertProject.run(id, `Project ${i + 1}`, i % 101, company, now, now, ++version);
    }
    const insertTask = c.prepare(
      `INSERT INTO tasks (id, title, project_id, assignee_id, company_id, status, priority, due_date, created_at, updated_at, version, field_meta)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')`,
    );
    const statuses = ['pending', 'in-progress', 'completed', 'blocked'];
    const priorities = ['low', 'medium', 'high', 'critical'];
    for (let i = 0; i < counts.tasks; i++) {
      const due = new Date(Date.now() + ((i % 60) - 20) * 86_400_000).toISOString();
      insertTask.run(
        newId(),
        `Task ${i + 1}`,
        projectIds[i % projectIds.length],
        user,
        company,
        statuses[i % 4],
        priorities[i % 4],
        due,
        now,
        now,
        ++version,
      );
    }
    const insertLog = c.prepare(
      `INSERT INTO project_logs (id, project_id, user_id, company_id, title, content, type, status, images, created_at, updated_at, version, field_meta)
       VALUES (?, ?, ?, ?, ?, ?, 'general', 'open', '[]', ?, ?, ?, '{}')`,
    );
    for (let i = 0; i < counts.logs; i++) {
      insertLog.run(
        newId(),
        projectIds[i % projectIds.length],
        user,
        company,
        `Daily log ${i + 1}`,
        'Crew on site, work progressing.',
        now,
        now,
        ++version,
      );
    }
    c.prepare('UPDATE companies SET last_version = ? WHERE id = ?').run(version, company);
  });
  return { companyId: company, userId: user };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const env = loadEnv();
    const db = openDb(env.DATABASE_PATH);
    seedRbac(db);
    const { companyId } = seedLarge(db);
    console.log(`Large tenant ${companyId} written to ${env.DATABASE_PATH}`);
    db.$client.close();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : (err as Error).message);
    process.exit(1);
  }
}
