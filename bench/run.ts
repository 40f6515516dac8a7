// npm run bench: runs every budget of DESIGN.md section 11 (B1, B2, B4-B14), in Node and
// in Chromium, prints one summary table (each row a same-run ratio to its comparator, the 1-minute load
// average while its budget ran, PASS / MISSED / info) and saves the raw rounds as JSON in bench/results/. It
// only reports: the exit code is 0 even when a budget is missed (timing assertions do not belong in unit
// tests). `npm run bench -- B1 B2 B4` runs a subset. B3 (validation alone) is retired: B2 times it.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runB1 } from './b1.ts';
import { runB2 } from './b2-push.ts';
import { runB4 } from './b4.ts';
import { runB12 } from './b12-drain.ts';
import { runB14 } from './b14-signin.ts';
import { runB9 } from './b9-photos.ts';
import { runPullPage } from './pull-page.ts';
import { runB11 } from './web-bundle.ts';
import { runB10 } from './web-lighthouse.ts';
import { runB5, runB8 } from './web-local.ts';
import { runB6, runB12 as runB12Browser } from './web-sync.ts';
import { runB7 } from './web-ui.ts';
import { runB13 } from './web-tasks.ts';
import { clkTck, cpuCount, fmt, pinSelf, printTable, type SummaryRow } from './lib.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LOAD_CORE = 1;
const BENCHES: Record<string, () => Promise<{ rows: SummaryRow[]; raw: unknown }>> = {
  B1: runB1,
  B2: runB2,
  B4: runB4,
  B12: runB12,
  B14: runB14,
  PULL: runPullPage,
  // In Debian Chromium (bench/web-*.ts, bench/README.md "Browser budgets").
  B5: runB5,
  B6: runB6,
  B7: runB7,
  B8: runB8,
  B9: runB9,
  B10: runB10,
  B11: runB11,
  /** B12 again, in Chromium against the real server (B12 above is the Node run on fake-indexeddb). */
  B12W: runB12Browser,
  /** B13 (issue 10): the Task Management screen with 10,000 tasks in the mirror (bench/web-tasks.ts). */
  B13: runB13,
};

const wanted = process.argv.slice(2).map((a) => a.toUpperCase());
const selected = Object.keys(BENCHES).filter((k) => wanted.length === 0 || wanted.includes(k));
if (selected.length === 0) {
  console.error(`Unknown benchmark(s) ${wanted.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(1);
}

// This process is the load generator of B1 (and runs B2/B4): core 1; the servers of B1 run on core 0.
const pinned = pinSelf(LOAD_CORE);
if (!pinned)
  console.log(
    'Only one CPU: server and load generator cannot be pinned apart; B1 figures are less reliable.',
  );

const started = Date.now();
const loadBefore = os.loadavg();
const rows: SummaryRow[] = [];
const raw: Record<string, unknown> = {};
const failures: string[] = [];
for (const name of selected) {
  const t0 = Date.now();
  console.log(`${name}...`);
  const busyBefore = os.loadavg()[0]!;
  try {
    const result = await BENCHES[name]!();
    // Other work on the machine skews every figure: each row says how busy it was while measured.
    const load = `${fmt(busyBefore, 1)}-${fmt(os.loadavg()[0]!, 1)}`;
    rows.push(...result.rows.map((r) => ({ ...r, load })));
    raw[name] = result.raw;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    failures.push(`${name}: ${message}`);
    raw[name] = { error: message };
    rows.push({
      budget: name,
      what: `ERROR: ${message}`,
      measured: '-',
      comparator: '-',
      ratio: '-',
      limit: '-',
      pass: false,
      load: '-',
    });
  }
  console.log(`${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const git = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
})();
const environment = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cpus: cpuCount(),
  clkTck: clkTck(),
  pinned: pinned ? { loadGenerator: LOAD_CORE, servers: 0 } : null,
  platform: `${os.platform()} ${os.release()}`,
  /** 1-minute load average before and after: other work on the machine skews every figure. */
  loadAverage: { before: loadBefore[0], after: os.loadavg()[0] },
  git,
};
const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
const dir = path.join(HERE, 'results');
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `bench-${stamp}.json`);
const durationSeconds = (Date.now() - started) / 1000;
fs.writeFileSync(
  file,
  `${JSON.stringify({ startedAt: new Date(started).toISOString(), durationSeconds, environment, summary: rows, results: raw }, null, 2)}\n`,
);

console.log('');
printTable(rows);
console.log('');
const missed = rows.filter((r) => r.pass === false);
if (missed.length) console.log(`MISSED: ${missed.map((r) => r.budget).join(', ')}`);
else console.log('All measured budgets met.');
for (const f of failures) console.log(`ERROR ${f}`);
const load = environment.loadAverage;
if (Math.max(load.before ?? 0, load.after ?? 0) > environment.cpus) {
  console.log(
    `Note: the machine was busy (load average ${load.before?.toFixed(1)} -> ${load.after?.toFixed(1)} on ${environment.cpus} CPUs).`,
  );
}
console.log(`Raw results: ${path.relative(process.cwd(), file)} (${durationSeconds.toFixed(0)} s)`);
