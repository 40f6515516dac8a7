// Shared helpers of the benchmarks: statistics, the summary table, CPU time from /proc, child processes.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import type { SessionUser } from '#api/context.ts';
import type { Db } from '#api/db/index.ts';

export const median = (values: number[]): number => {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** One line of the summary table. `pass` is null for informative rows (no budget). */
export interface SummaryRow {
  budget: string;
  what: string;
  measured: string;
  comparator: string;
  ratio: string;
  limit: string;
  pass: boolean | null;
  /** The 1-minute load average before and after the budget ran (filled in by run.ts). */
  load?: string;
}

export function printTable(rows: SummaryRow[]): void {
  const head = ['budget', 'what', 'measured', 'comparator', 'ratio', 'limit', 'result', 'load'];
  const cells = rows.map((r) => [
    r.budget,
    r.what,
    r.measured,
    r.comparator,
    r.ratio,
    r.limit,
    r.pass === null ? 'info' : r.pass ? 'PASS' : 'MISSED',
    r.load ?? '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

let clockTicks: number | undefined;
/** Kernel clock ticks per second (the unit of utime/stime in /proc/<pid>/stat). */
export function clkTck(): number {
  clockTicks ??= Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
  return clockTicks;
}

/** User + system CPU time of a process (all its threads), in microseconds, from /proc/<pid>/stat. */
export function processCpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces; fields after the closing parenthesis are fixed.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]); // field 14
  const stime = Number(rest[12]); // field 15
  return ((utime + stime) * 1e6) / clkTck();
}

/** CPUs of the machine (not of this process's affinity mask, which pinSelf narrows to one). */
const CPUS = os.cpus().length || 1;
export const cpuCount = (): number => CPUS;

/** The CPUs a process may run on, as the kernel reports them (e.g. "0" or "0-1"). */
export function affinity(pid: number): string {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? 'unknown';
}

/** Pins every thread of this process to one core (the load generator side of B1). */
export function pinSelf(core: number): boolean {
  if (cpuCount() < 2) return false;
  execSync(`taskset -a -cp ${core} ${process.pid}`, { stdio: 'ignore' });
  return true;
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** The JSON object the child printed on its first `READY ` line. */
  ready: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <file> ...args` pinned to `core` (taskset execs node, so the pid is node's) and
 * waits for it to print `READY {json}` on stdout.
 */
export function startPinned(core: number, file: string, args: string[], timeoutMs = 60_000): Promise<Child> {
  const nodeArgs = ['--import', 'tsx', file, ...args];
  const proc =
    cpuCount() >= 2
      ? spawn('taskset', ['-c', String(core), process.execPath, ...nodeArgs], {
          stdio: ['ignore', 'pipe', 'inherit'],
        })
      : spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${file} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with code ${code} before it was ready`));
    });
    const lines = readline.createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('READY ')) {
        console.log(`  [${file}] ${line}`);
        return;
      }
      clearTimeout(timer);
      resolve({ proc, pid: proc.pid!, ready: JSON.parse(line.slice(6)) as Record<string, unknown>, stop });
    });
  });
}

export interface OpsMeasure {
  ops: number;
  wallMs: number;
  /** User + system CPU time of this process over the same calls (excludes time spent descheduled or waiting on fsync). */
  cpuMs: number;
  opsPerSecond: number;
  opsPerCpuSecond: number;
}

/**
 * Runs `fn` repeatedly for about `ms` milliseconds of wall time, reading the clock every `batch` calls.
 * Reports both wall-clock and CPU-time rates: on a shared machine the CPU rate is the steadier one.
 */
export function measureOps(fn: (i: number) => unknown, ms: number, batch = 16): OpsMeasure {
  let n = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let now = start;
  while (now < end) {
    for (let k = 0; k < batch; k++) fn(n++);
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpu0);
  const wallMs = now - start;
  const cpuMs = Math.max((cpu.user + cpu.system) / 1000, 1e-3);
  return { ops: n, wallMs, cpuMs, opsPerSecond: (n * 1000) / wallMs, opsPerCpuSecond: (n * 1000) / cpuMs };
}

/** The session user of a `seedLarge` tenant's manager, as the permission middleware would build it. */
export function benchUser(db: Db, userId: string, companyId: string): SessionUser {
  const c = db.$client;
  const u = c
    .prepare<[string], { email: string; roleId: number }>(
      'SELECT email, role_id AS roleId FROM users WHERE id = ?',
    )
    .get(userId)!;
  const permissions = new Set(
    c
      .prepare<[number], string>(
        'SELECT p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = ?',
      )
      .pluck()
      .all(u.roleId),
  );
  return {
    id: userId,
    email: u.email,
    firstName: 'Bench',
    lastName: 'User',
    name: 'Bench User',
    role: 'manager',
    roleId: u.roleId,
    companyId,
    companyName: 'Large Tenant Co',
    companyTimeZone: 'UTC',
    mustChangePassword: false,
    permissions,
    sessionId: 'bench',
  };
}
