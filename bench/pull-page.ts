// Pull page: one page of 1,000 changes out of 1,000,000 stored rows of one company, at random cursors, through
// the real pull code path (one read transaction, prepared statements, camelCase rows) plus the JSON encoding
// the route does. Budget (issue 4): p95 < 50 ms. The rows are spread over the five mirrored tables with
// interleaved versions and 5% tombstones, so every page merges several tables.
// Run alone: npx tsx bench/pull-page.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newId } from '#shared/ids.ts';
import type { SessionUser } from '#api/context.ts';
import { openDb, writeTx } from '#api/db/index.ts';
import { seedLarge } from '#api/db/seed-large.ts';
import { seedRbac } from '#api/db/seed.ts';
import { sqliteDatabase } from '#api/db/database.ts';
import { pull } from '#api/sync/pull.ts';
import { fmt, median, printTable, type SummaryRow } from './lib.ts';

const ROWS = 1_000_000;
const PAGE = 1000;
const WARMUP = 30;
const SAMPLES = 300;
const BUDGET_P95_MS = 50;

const percentile = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Deterministic pseudo-random numbers (mulberry32), so every run visits the same cursors. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runPullPage(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-pull-'));
  const db = openDb(path.join(dir, 'bench.db'));
  try {
    seedRbac(db);
    const { companyId, userId } = seedLarge(db, { projects: 200, tasks: 0, logs: 0 });
    const c = db.$client;
    const rand = random(42);
    const buildStart = performance.now();
    writeTx(db, () => {
      let version = c
        .prepare<[string], number>('SELECT last_version FROM companies WHERE id = ?')
        .pluck()
        .get(companyId)!;
      const projects = c
        .prepare<[string], string>('SELECT id FROM projects WHERE company_id = ?')
        .pluck()
        .all(companyId);
      const at = new Date().toISOString();
      const meta = JSON.stringify({ title: [1, Date.now(), 'bench'] });
      const task = c.prepare(
        `INSERT INTO tasks (id, title, description, project_id, company_id, status, priority, due_date, created_at,
           updated_at, updated_by, version, deleted_at, field_meta) VALUES (?, ?, 'Check anchors before the inspection', ?, ?, 'pending', 'high', ?, ?, ?, ?, ?, ?, ?)`,
      );
      const log = c.prepare(
        `INSERT INTO project_logs (id, project_id, user_id, company_id, title, content, type, status, images, created_at,
           updated_at, updated_by, version, deleted_at, field_meta) VALUES (?, ?, ?, ?, ?, 'Crew on site, forms stripped on level 2.', 'general', 'open', '[]', ?, ?, ?, ?, ?, ?)`,
      );
      const photo = c.prepare(
        `INSERT INTO photos (id, project_id, user_id, company_id, filename, original_name, tags, sha256, mime_type,
           size_bytes, blob_status, created_at, updated_at, updated_by, version, deleted_at, field_meta)
         VALUES (?, ?, ?, ?, ?, 'IMG_1.jpg', '["footing","east"]', ?, 'image/jpeg', 812345, 'present', ?, ?, ?, ?, ?, ?)`,
      );
      const taskIds: string[] = [];
      for (let i = 0; i < ROWS; i++) {
        const id = newId();
        const project = projects[i % projects.length]!;
        const deleted = rand() < 0.05 ? at : null;
        const r = rand();
        version++;
        if (r < 0.55) {
          task.run(id, `Task ${i}`, project, companyId, at, at, at, userId, version, deleted, meta);
          if (taskIds.length < 1000) taskIds.push(id);
        } else if (r < 0.9) {
          log.run(id, project, userId, companyId, `Daily log ${i}`, at, at, userId, version, deleted, meta);
        } else {
          photo.run(
            id,
            project,
            userId,
            companyId,
            `${id}.jpg`,
            id.replace(/-/g, '').padEnd(64, '0'),
            at,
            at,
            userId,
            version,
            deleted,
            meta,
          );
        }
      }
      c.prepare('UPDATE companies SET last_version = ? WHERE id = ?').run(version, companyId);
    });
    const buildSeconds = (performance.now() - buildStart) / 1000;
    c.pragma('wal_checkpoint(TRUNCATE)');
    const lastVersion = c
      .prepare<[string], number>('SELECT last_version FROM companies WHERE id = ?')
      .pluck()
      .get(companyId)!;
    const permissions = new Set(
      c
        .prepare<[], string>(
          `SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
           JOIN users u ON u.role_id = rp.role_id WHERE u.id = '${userId}'`,
        )
        .pluck()
        .all(),
    );
    const user: SessionUser = {
      id: userId,
      email: 'bench@large.test',
      firstName: 'Bench',
      lastName: 'User',
      name: 'Bench User',
      role: 'manager',
      roleId: 2,
      companyId,
      companyName: 'Large Tenant Co',
      companyTimeZone: 'UTC',
      mustChangePassword: false,
      permissions,
      sessionId: 'bench',
    };
    const database = sqliteDatabase(db);
    const cursorRand = random(7);
    const page = async () => {
      const cursor = Math.floor(cursorRand() * (lastVersion - PAGE));
      const t0 = performance.now();
      const answer = await pull(database, user, { cursor, limit: PAGE }, new Date());
      const t1 = performance.now();
      const json = JSON.stringify(answer);
      const t2 = performance.now();
      if (!('changes' in answer) || answer.changes.length !== PAGE) throw new Error('short page');
      return { pullMs: t1 - t0, totalMs: t2 - t0, bytes: json.length };
    };
    for (let i = 0; i < WARMUP; i++) await page();
    const samples: Awaited<ReturnType<typeof page>>[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push(await page());
    const total = samples.map((s) => s.totalMs);
    const pullOnly = samples.map((s) => s.pullMs);
    const p95 = percentile(total, 95);
    const rows: SummaryRow[] = [
      {
        budget: 'pull',
        what: `pull page of ${PAGE} of ${ROWS.toLocaleString('en')} rows, p95 ms (with JSON)`,
        measured: fmt(p95),
        comparator: `p50 ${fmt(median(total))}`,
        ratio: '-',
        limit: `< ${BUDGET_P95_MS} ms`,
        pass: p95 < BUDGET_P95_MS,
      },
      {
        budget: 'pull',
        what: 'pull page without JSON encoding, p50 / p95 ms',
        measured: `${fmt(median(pullOnly))} / ${fmt(percentile(pullOnly, 95))}`,
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      },
    ];
    return {
      rows,
      raw: {
        rows: ROWS,
        page: PAGE,
        samples: SAMPLES,
        buildSeconds,
        p50Ms: median(total),
        p95Ms: p95,
        p99Ms: percentile(total, 99),
        pullOnlyP50Ms: median(pullOnly),
        pullOnlyP95Ms: percentile(pullOnly, 95),
        pageBytesMedian: median(samples.map((s) => s.bytes)),
      },
    };
  } finally {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runPullPage();
  printTable(result.rows);
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `pull-page-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result.raw, null, 2)}\n`);
  console.log(`raw results: ${path.relative(process.cwd(), file)}`);
}
