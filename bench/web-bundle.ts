// B11 (DESIGN.md section 11): JavaScript for the first route, gzip. Chromium opens /login (signed out, a
// first visit) and every script the page itself loads until its heading shows (and 1 s more) is recorded (the service
// worker's precache fetches are not the page's and are not counted); the sum of their gzip sizes (level 9,
// computed here: the server sends them uncompressed) is compared with the same sum for the floor page
// (bench/floor/: React + react-router-dom + @tanstack/react-query + dexie, one chunk). Also listed: the
// app's other chunks, which /login must not load (everything else lazy).
// Budget: <= 1.15x the floor.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fmt, type SummaryRow } from './lib.ts';
import { buildWeb, launchBrowser, sleep, startWebServer, type WebServer } from './web-lib.ts';
import type { Browser } from '@playwright/test';

const RATIO = 1.15;

interface Script {
  path: string;
  bytes: number;
  gzip: number;
}

const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;

async function scriptsOf(browser: Browser, server: WebServer, route: string): Promise<Script[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const seen = new Map<string, Promise<Script>>();
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script' || !res.ok()) return;
      const url = new URL(res.url());
      if (seen.has(url.pathname)) return;
      seen.set(
        url.pathname,
        res.body().then((body) => ({ path: url.pathname, bytes: body.length, gzip: gzipSize(body) })),
      );
    });
    // Not 'networkidle': on /login the app leaves its 401 answer to GET /api/auth/user unread, and Chromium
    // counts that request as loading until the page goes away. The form showing is the first route done.
    await page.goto(`${server.base}${route}`, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await sleep(1_000);
    return await Promise.all(seen.values());
  } finally {
    await context.close();
  }
}

export async function runB11(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const { dist } = await buildWeb();
  const server = await startWebServer();
  const browser = await launchBrowser({ allCores: true });
  try {
    const login = await scriptsOf(browser, server, '/login');
    const floor = await scriptsOf(browser, server, '/__floor/');
    // Deterministic (the same bytes every time): one load each is the measurement; a second checks it.
    const again = await scriptsOf(browser, server, '/login');
    const sum = (xs: Script[], k: 'bytes' | 'gzip') => xs.reduce((n, x) => n + x[k], 0);
    if (sum(again, 'gzip') !== sum(login, 'gzip'))
      console.log('  B11: /login loaded different scripts twice');
    const appGzip = sum(login, 'gzip');
    const floorGzip = sum(floor, 'gzip');
    const ratio = appGzip / floorGzip;
    const chunks = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
    const loaded = new Set(login.map((s) => path.basename(s.path)));
    const lazy = chunks.filter((c) => !loaded.has(c));
    const lazyGzip = lazy.reduce((n, c) => n + gzipSize(fs.readFileSync(path.join(dist, 'assets', c))), 0);
    console.log(
      `  B11: /login loads ${login.length} scripts: ` +
        login
          .sort((a, b) => b.gzip - a.gzip)
          .map((s) => `${path.basename(s.path)} ${fmt(s.gzip / 1024, 1)}`)
          .join(', ') +
        ` (KiB gzip); floor ${floor.length} script(s)`,
    );
    const rows: SummaryRow[] = [
      {
        budget: 'B11',
        what: `JS loaded by /login (${login.length} scripts), KiB gzip`,
        measured: fmt(appGzip / 1024, 1),
        comparator: fmt(floorGzip / 1024, 1),
        ratio: `${fmt(ratio, 2)}x`,
        limit: `<= ${RATIO}x`,
        pass: ratio <= RATIO,
      },
      {
        budget: 'B11',
        what: `other chunks, not loaded by /login (${lazy.length} of ${chunks.length}), KiB gzip`,
        measured: fmt(lazyGzip / 1024, 1),
        comparator: '-',
        ratio: '-',
        limit: '-',
        pass: null,
      },
      {
        budget: 'B11',
        what: 'JS loaded by /login uncompressed, KiB',
        measured: fmt(sum(login, 'bytes') / 1024, 1),
        comparator: fmt(sum(floor, 'bytes') / 1024, 1),
        ratio: `${fmt(sum(login, 'bytes') / sum(floor, 'bytes'), 2)}x`,
        limit: '-',
        pass: null,
      },
    ];
    return { rows, raw: { login, floor, lazy, appGzip, floorGzip, ratio } };
  } finally {
    await browser.close();
    await server.stop();
  }
}
