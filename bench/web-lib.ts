// Shared set-up of the browser budgets (B5-B8, B10-B12; DESIGN.md section 11): builds the app, the bench page
// and the floor page into one temp directory (once per process), starts the real server with that directory
// as its `dist/`, and launches Debian Chromium through playwright-core.
//
// Layout of the temp directory (the server's working directory, so `path.resolve('dist')` lands here):
//   dist/            the app, `vite build` of web/ (the current sources, not a stale dist/)
//   dist/__bench/    bench/web-page.ts bundled with the real sync/ code, and an index.html loading it
//   dist/__floor/    bench/floor/: React + react-router-dom + @tanstack/react-query + dexie, nothing else
// Every page is served by the app's own server (same origin, same headers, same CSP), so the bench page
// reaches /api with the session cookie and the floor is served exactly like the app.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '#api/db/seed.ts';
import { affinity, cpuCount } from './lib.ts';
import type { BenchApi } from './web-page.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * The api server runs on core 0 (like B1 and B12). Chromium either inherits this process's core (1 under
 * run.ts: the load-generator side, for the budgets that time the device and the server together) or gets
 * every core (`allCores`, for the budgets that time the device alone: a phone's browser runs its renderer,
 * IndexedDB backend and network service on several cores, and one shared core would be an artificial handicap).
 */
const SERVER_CORE = 0;

/** Runs `launch` with this process's main thread (which spawns children) allowed on every core. */
export async function onAllCores<T>(launch: () => Promise<T>): Promise<T> {
  if (cpuCount() < 2) return launch();
  const before = affinity(process.pid);
  execFileSync('taskset', ['-cp', `0-${cpuCount() - 1}`, String(process.pid)], { stdio: 'ignore' });
  try {
    return await launch();
  } finally {
    execFileSync('taskset', ['-cp', before, String(process.pid)], { stdio: 'ignore' });
  }
}

/** Calls a function of the bench page (`window.bench`, bench/web-page.ts) and returns its result. */
export const call = <K extends keyof BenchApi>(page: Page, name: K, ...args: Parameters<BenchApi[K]>) =>
  page.evaluate(
    ([n, a]) => ((window as unknown as { bench: BenchApi }).bench[n] as (...x: unknown[]) => unknown)(...a),
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<BenchApi[K]>>>;

export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let tmpRoot: string | null = null;
process.once('exit', () => {
  if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
});

/** A directory removed when the process exits. */
export function tempDir(name: string): string {
  tmpRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-bench-web-'));
  const dir = path.join(tmpRoot, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export interface WebBuild {
  /** The server's working directory (holds dist/). */
  cwd: string;
  dist: string;
}

let builds: Promise<WebBuild> | null = null;

/** Builds the app, the bench page and the floor once per process. */
export function buildWeb(): Promise<WebBuild> {
  builds ??= (async () => {
    const cwd = tempDir('site');
    const dist = path.join(cwd, 'dist');
    const t0 = performance.now();
    // The app exactly as `npm run build` makes it (its own vite.config.ts), into the temp directory.
    execFileSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const { build } = await import('vite');
    // The bench page: bench/web-page.ts with sync/ bundled in, no HTML entry (the page is written below).
    await build({
      configFile: false,
      logLevel: 'warn',
      root: HERE,
      base: '/__bench/',
      build: {
        outDir: path.join(dist, '__bench'),
        emptyOutDir: true,
        rollupOptions: {
          input: { page: path.join(HERE, 'web-page.ts') },
          output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    });
    fs.writeFileSync(
      path.join(dist, '__bench', 'index.html'),
      '<!doctype html>\n<html lang="en"><head><meta charset="UTF-8"><title>bench</title>' +
        '<script type="module" src="/__bench/page.js"></script></head><body><p id="ready">bench</p></body></html>\n',
    );
    // The floor: React + router + query + dexie, built with the same vite and the same React plugin.
    const react = (await import('@vitejs/plugin-react')).default;
    await build({
      configFile: false,
      logLevel: 'warn',
      root: path.join(HERE, 'floor'),
      base: '/__floor/',
      plugins: [react()],
      build: { outDir: path.join(dist, '__floor'), emptyOutDir: true },
    });
    console.log(`  web builds (app, bench page, floor) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { cwd, dist };
  })();
  return builds;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface WebServer {
  /** http://localhost:PORT (also PUBLIC_ORIGIN, so the Origin checks pass). */
  base: string;
  /** The server's SQLite file (a bench may add data to it while the server runs: WAL, busy timeout). */
  dbPath: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The real server (`node --import tsx api/server.ts`) on a fresh demo database in a temp directory, serving
 * the temp build as its dist/, pinned to core 0 when the machine has two cores.
 */
export async function startWebServer(): Promise<WebServer> {
  const { cwd } = await buildWeb();
  const data = fs.mkdtempSync(path.join(tempDir('data'), 'db-'));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const args = ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'api/server.ts')];
  const env = {
    ...process.env,
    PORT: String(port),
    DATABASE_PATH: path.join(data, 'bench.db'),
    PHOTO_DIR: path.join(data, 'photos'),
    PUBLIC_ORIGIN: base,
    SEED_DEMO: 'on',
    NODE_ENV: 'production',
    TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
  };
  const proc =
    cpuCount() >= 2
      ? spawn('taskset', ['-c', String(SERVER_CORE), process.execPath, ...args], {
          cwd,
          env,
          stdio: ['ignore', 'pipe', 'inherit'],
        })
      : spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 120 s')), 120_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${out}`));
    });
  });
  return {
    base,
    dbPath: env.DATABASE_PATH,
    proc,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
      fs.rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A browser for pages that need no disk storage (an incognito-like context keeps IndexedDB in memory). */
export function launchBrowser(options: { allCores?: boolean } = {}): Promise<Browser> {
  const launch = () => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return options.allCores ? onAllCores(launch) : launch();
}

/**
 * One "device": Chromium with its own profile directory, so IndexedDB lives on disk as on a phone (the
 * contexts of `browser.newContext()` are off-the-record and keep IndexedDB in memory).
 */
export async function launchDevice(
  name: string,
  options: { allCores?: boolean } = {},
): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(tempDir('profiles'), `${name}-`));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 412, height: 823 },
    });
  return options.allCores ? onAllCores(launch) : launch();
}

/** Signs a context in (the session cookie lands in the context's cookie jar). */
export async function signIn(context: BrowserContext, base: string, email: string): Promise<string> {
  const res = await context.request.post(`${base}/api/auth/login`, {
    data: { email, password: DEMO_PASSWORD },
    headers: { origin: base },
  });
  if (res.status() !== 200)
    throw new Error(`sign-in of ${email} failed: ${res.status()} ${await res.text()}`);
  const cookie = (await context.cookies(base)).find((c) => c.name === 'sc_session');
  if (!cookie) throw new Error('sign-in returned no session cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** Opens the bench page and waits for `window.bench`. Console errors of the page are printed. */
export async function openBenchPage(context: BrowserContext, base: string): Promise<Page> {
  const page = context.pages()[0] ?? (await context.newPage());
  watchConsole(page);
  await gotoBench(page, base);
  return page;
}

export async function gotoBench(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/__bench/index.html`);
  await page.waitForFunction(() => 'bench' in window);
}

const watched = new WeakSet<Page>();
export function watchConsole(page: Page): void {
  if (watched.has(page)) return;
  watched.add(page);
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.log(`  [page error] ${msg.text()}`);
  });
  page.on('pageerror', (err) => console.log(`  [page exception] ${err.message}`));
}
