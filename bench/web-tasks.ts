// B13 (DESIGN.md section 11; issue 10 "Scale and speed"): the real app's Task Management screen (/tasks) with 10,000 tasks in
// the device's mirror, CPU throttled 4x over CDP, in a Chromium profile on disk.
//
// Data: `seedLarge` (npm run seed:large: 50 projects, 10,000 tasks; no logs here) written into the running
// server's database, its manager given the demo password, then the app's own first download pulls it all.
// Timed in the page, each from the input event's timestamp to the first frame after the change
// (requestAnimationFrame + a message-channel task), as B7 does:
// - route: a tap on the sidebar's "Tasks" link (from /projects) until the list shows rows and the result
//   line reads 'Showing 10000 of 10000 tasks';
// - keystroke: one key in 'Search tasks...' until the result line shows the new count;
// - scroll: `longtask` entries (PerformanceObserver) while the list is scrolled by wheel for ~4 s.
// Comparator: a tap on the page heading (no handler). Budgets: p75 <= 50 ms for route and keystroke; no
// main-thread task over 50 ms while scrolling. Lighthouse mobile (as B10) on /tasks, demo admin: >= 95.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD } from '#api/db/seed.ts';
import { openDb } from '#api/db/index.ts';
import { seedLarge } from '#api/db/seed-large.ts';
import { hashPassword } from '#api/auth/password.ts';
import { fmt, median, type SummaryRow } from './lib.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  launchBrowser,
  launchDevice,
  onAllCores,
  percentile,
  signIn,
  sleep,
  startWebServer,
  watchConsole,
} from './web-lib.ts';

const THROTTLE = 4;
const TASKS = 10_000;
const WARMUP = 2;
const ROUTE_SAMPLES = 10;
const P75_MS = 50;
const LONG_TASK_MS = 50;
const LIGHTHOUSE_ROUNDS = 3;
const MIN_SCORE = 95;
/** Keys typed into the search: each changes the result count ('7' -> '77' -> '777' and back). */
const KEYS = ['7', '7', '7', 'Backspace', 'Backspace', 'Backspace'];
const KEY_ROUNDS = 3;

const PROBE = `(() => {
  const now = () => performance.now();
  const frameAfter = (resolve, at) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve(now() - at);
    ch.port2.postMessage(0);
  });
  const line = () => [...document.querySelectorAll('main [role=status]')].map((e) => e.textContent).find((t) => t && t.startsWith('Showing')) ?? null;
  window.__tasks = {
    pending: null,
    longTasks: [],
    line,
    arm(kind, eventType) {
      const before = line();
      this.pending = new Promise((resolve, reject) => {
        let at = null;
        const timer = setTimeout(() => reject(new Error('B13: no repaint within 15 s (' + kind + ')')), 15000);
        const done = (ms) => { clearTimeout(timer); resolve(ms); };
        window.addEventListener(eventType, (e) => { at = e.timeStamp; }, { capture: true, once: true });
        if (kind === 'noop') {
          window.addEventListener('click', () => frameAfter(done, at), { once: true });
          return;
        }
        const ready = () => {
          const text = line();
          if (kind === 'route') return location.pathname === '/tasks' && document.querySelector('main article') && text === 'Showing ${TASKS} of ${TASKS} tasks';
          return text !== null && text !== before;
        };
        const mo = new MutationObserver(() => {
          if (at === null || !ready()) return;
          mo.disconnect();
          frameAfter(done, at);
        });
        mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      return true;
    },
    watchLongTasks() {
      this.longTasks = [];
      const po = new PerformanceObserver((list) => { for (const e of list.getEntries()) this.longTasks.push(e.duration); });
      po.observe({ type: 'longtask' });
      this.stopLongTasks = () => { po.disconnect(); return this.longTasks; };
      return true;
    },
  };
  return true;
})()`;

async function centre(page: Page, locator: ReturnType<Page['locator']>) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('B13: target not visible');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function timed(page: Page, kind: string, event: string, act: () => Promise<void>): Promise<number> {
  await page.evaluate(`window.__tasks.arm(${JSON.stringify(kind)}, ${JSON.stringify(event)})`);
  await act();
  return (await page.evaluate('window.__tasks.pending')) as number;
}

/** The large tenant in the server's database, with a manager who can sign in. */
async function seedServer(dbPath: string): Promise<string> {
  const db = openDb(dbPath);
  try {
    const { userId } = seedLarge(db, { projects: 50, tasks: TASKS, logs: 0 });
    const hash = await hashPassword(DEMO_PASSWORD);
    db.$client.prepare('UPDATE users SET password = ? WHERE id = ?').run(hash, userId);
    const row = db.$client.prepare('SELECT email FROM users WHERE id = ?').get(userId) as { email: string };
    return row.email;
  } finally {
    db.$client.close();
  }
}

interface LighthouseRuns {
  scores: number[];
  lcp: number[];
  tbt: number[];
}

/** Lighthouse mobile (as B10) on /tasks, with /projects in the same rounds as the comparator. */
async function lighthouseTasks(base: string): Promise<Record<'tasks' | 'projects', LighthouseRuns>> {
  const browser = await launchBrowser();
  const cookie = await signIn(await browser.newContext(), base, 'admin@summit.test');
  await browser.close();
  const chrome = await onAllCores(() =>
    chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] }),
  );
  const out = {
    tasks: { scores: [] as number[], lcp: [] as number[], tbt: [] as number[] },
    projects: { scores: [] as number[], lcp: [] as number[], tbt: [] as number[] },
  };
  try {
    for (let r = 0; r <= LIGHTHOUSE_ROUNDS; r++) {
      const order = r % 2 === 0 ? (['tasks', 'projects'] as const) : (['projects', 'tasks'] as const);
      for (const target of order) {
        // Lighthouse sometimes records no navigation start (NO_NAVSTART, see B10): run it again, twice at most.
        let lhr = null;
        for (let attempt = 0; attempt < 3 && !lhr; attempt++) {
          const result = await lighthouse(`${base}/${target}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            disableFullPageScreenshot: true,
            maxWaitForLoad: 6_000,
            extraHeaders: { Cookie: cookie },
          });
          if (result?.lhr && !result.lhr.runtimeError) lhr = result.lhr;
          else console.log(`  B13: Lighthouse on /${target}: ${result?.lhr.runtimeError?.message}; again`);
        }
        if (!lhr) throw new Error(`Lighthouse on /${target} failed three times`);
        if (!lhr.finalDisplayedUrl.endsWith(`/${target}`))
          throw new Error(`/${target} ended on ${lhr.finalDisplayedUrl}`);
        if (r === 0) continue; // warm-up
        out[target].scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        out[target].lcp.push(lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN);
        out[target].tbt.push(lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN);
        console.log(
          `  B13 Lighthouse round ${r} /${target}: ${out[target].scores.at(-1)} (LCP ${fmt(out[target].lcp.at(-1)!, 0)} ms)`,
        );
      }
    }
  } finally {
    await chrome.kill();
  }
  return out;
}

export async function runB13(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const server = await startWebServer();
  const context = await launchDevice('tasks', { allCores: true });
  try {
    const email = await seedServer(server.dbPath);
    await signIn(context, server.base, email);
    const page = context.pages()[0] ?? (await context.newPage());
    watchConsole(page);
    // Desktop width: the sidebar's links are the navigation being timed.
    await page.setViewportSize({ width: 1280, height: 800 });
    const t0 = Date.now();
    await page.goto(`${server.base}/tasks`);
    await page.getByText(`Showing ${TASKS} of ${TASKS} tasks`).waitFor({ timeout: 300_000 });
    const downloadMs = Date.now() - t0;
    console.log(
      `  B13: first download of ${TASKS} tasks and first render took ${fmt(downloadMs / 1000, 1)} s`,
    );
    await sleep(1_000);
    await page.evaluate(PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });

    const nav = page.getByRole('navigation', { name: 'Main' });
    const route = async () => {
      await nav.getByRole('link', { name: 'Projects' }).click();
      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      await sleep(500);
      const at = await centre(page, nav.getByRole('link', { name: 'Tasks' }));
      const ms = await timed(page, 'route', 'pointerdown', () => page.mouse.click(at.x, at.y));
      await sleep(300);
      return ms;
    };
    const noop = async () => {
      const at = await centre(page, page.getByRole('heading', { level: 1 }));
      const ms = await timed(page, 'noop', 'pointerdown', () => page.mouse.click(at.x, at.y));
      await sleep(200);
      return ms;
    };
    for (let i = 0; i < WARMUP; i++) {
      await route();
      await noop();
    }
    const routes: number[] = [];
    const noops: number[] = [];
    for (let i = 0; i < ROUTE_SAMPLES; i++) {
      routes.push(await route());
      noops.push(await noop());
    }

    const search = page.getByPlaceholder('Search tasks...');
    await search.click();
    const keys: number[] = [];
    for (let r = 0; r < KEY_ROUNDS + 1; r++) {
      for (const key of KEYS) {
        const ms = await timed(page, 'key', 'keydown', () => page.keyboard.press(key));
        if (r > 0) keys.push(ms);
        await sleep(150);
      }
    }

    await page.getByRole('heading', { level: 1 }).click();
    await page.evaluate('window.scrollTo(0, 0)');
    await sleep(300);
    await page.evaluate('window.__tasks.watchLongTasks()');
    await page.mouse.move(640, 600);
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, 600);
      await sleep(100);
    }
    await sleep(300);
    const longTasks = (await page.evaluate('window.__tasks.stopLongTasks()')) as number[];
    const scrolledRows = await page.getByRole('main').getByRole('article').count();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    console.log(
      `  B13 (${THROTTLE}x CPU): route p75 ${fmt(percentile(routes, 75), 1)} ms, keystroke p75 ` +
        `${fmt(percentile(keys, 75), 1)} ms, scroll long tasks ${longTasks.length}`,
    );
    const lh = await lighthouseTasks(server.base);

    const r75 = percentile(routes, 75);
    const k75 = percentile(keys, 75);
    const n75 = percentile(noops, 75);
    const longest = longTasks.length ? Math.max(...longTasks) : 0;
    const score = median(lh.tasks.scores);
    console.log(
      `  B13 (${THROTTLE}x CPU): route p75 ${fmt(r75, 1)} ms, keystroke p75 ${fmt(k75, 1)} ms, ` +
        `scroll long tasks ${longTasks.length} (max ${fmt(longest, 0)} ms), Lighthouse ${score}`,
    );
    const rows: SummaryRow[] = [
      {
        budget: 'B13',
        what: `tap 'Tasks' (from /projects) -> list of ${TASKS} painted, ${THROTTLE}x CPU, p75 ms`,
        measured: fmt(r75, 1),
        comparator: fmt(n75, 1),
        ratio: `${fmt(r75 / n75, 1)}x`,
        limit: `<= ${P75_MS}`,
        pass: r75 <= P75_MS,
      },
      {
        budget: 'B13',
        what: `search keystroke -> filtered list painted, ${TASKS} tasks, ${THROTTLE}x CPU, p75 ms`,
        measured: fmt(k75, 1),
        comparator: fmt(n75, 1),
        ratio: `${fmt(k75 / n75, 1)}x`,
        limit: `<= ${P75_MS}`,
        pass: k75 <= P75_MS,
      },
      {
        budget: 'B13',
        what: `longest main-thread task while scrolling the list (${longTasks.length} over 50 ms), ms`,
        measured: fmt(longest, 0),
        comparator: '-',
        ratio: '-',
        limit: `<= ${LONG_TASK_MS}`,
        pass: longest <= LONG_TASK_MS,
      },
      {
        budget: 'B13',
        what: 'Lighthouse mobile performance score, /tasks vs /projects (demo admin)',
        measured: fmt(score, 0),
        comparator: fmt(median(lh.projects.scores), 0),
        ratio: '-',
        limit: `>= ${MIN_SCORE}`,
        pass: score >= MIN_SCORE,
      },
      {
        budget: 'B13',
        what: 'median ms: route p50 / keystroke p50 / Lighthouse LCP / TBT; DOM rows after scroll',
        measured: [percentile(routes, 50), percentile(keys, 50), median(lh.tasks.lcp), median(lh.tasks.tbt)]
          .map((v) => fmt(v, 0))
          .join(' / ')
          .concat(`; ${scrolledRows}`),
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      },
    ];
    return {
      rows,
      raw: { throttle: THROTTLE, tasks: TASKS, downloadMs, routes, noops, keys, longTasks, lighthouse: lh },
    };
  } finally {
    await context.close();
    await server.stop();
  }
}
