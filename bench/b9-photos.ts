// B9 (issue 11): photo compression on the device, in Chromium, on a 12 MP JPEG. The app's own worker
// (web/features/photos/pipeline/compress.worker.ts, as `vite build` bundles it: createImageBitmap +
// OffscreenCanvas to a 2560 px long edge, one JPEG encode, a second only when over 1 MB, plus the
// thumbnail) vs browser-image-compression on the same file in the same page (its own worker, the UMD
// build the app precaches as its libURL), and vs sharp (native libvips + libjpeg-turbo) decoding, resizing
// and encoding the same file in Node. Budgets: >= 5x faster than browser-image-compression, <= 3.5x sharp,
// and no main-thread task over 50 ms while a batch of 10 compresses. Offline: the page makes no request
// while it compresses (the files are already in memory).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { fmt, median, type SummaryRow } from './lib.ts';
import { launchBrowser, ROOT, tempDir } from './web-lib.ts';

const WARMUP = 1;
const ROUNDS = 5;
const BATCH = 10;
const WIDTH = 4000;
const HEIGHT = 3000;

/** A 12 MP photo-like JPEG (gradients and grain, ~4 MB), as a phone camera makes. */
async function twelveMegapixels(): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 9;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = ((seed >> 16) % 24) - 12;
      const i = (y * WIDTH + x) * 3;
      raw[i] = ((x * 255) / WIDTH + grain) & 255;
      raw[i + 1] = ((y * 255) / HEIGHT + grain) & 255;
      raw[i + 2] = ((x + y) / 16 + grain) & 255;
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** `vite build` of the app into a temp directory; the worker and the UMD library are among its assets. */
function buildApp(): { dist: string; worker: string; umd: string } {
  const dist = path.join(tempDir('b9'), 'dist');
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const assets = fs.readdirSync(path.join(dist, 'assets'));
  const worker = assets.find((f) => /^compress\.worker-.*\.js$/.test(f));
  const umd = assets.find(
    (f) =>
      f.startsWith('browser-image-compression-') &&
      /typeof exports/.test(fs.readFileSync(path.join(dist, 'assets', f), 'utf8').slice(0, 400)),
  );
  if (!worker || !umd) throw new Error('B9: the build has no compression worker or fallback library');
  return { dist, worker: `/assets/${worker}`, umd: `/assets/${umd}` };
}

/** Serves dist/ and a bench page (no CSP: the library's own worker starts from a blob: URL). */
function serve(dist: string, photo: Buffer): Promise<{ base: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/__b9/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<!doctype html><html><head><meta charset="utf-8"><title>b9</title></head><body>b9</body></html>',
      );
      return;
    }
    if (url.pathname === '/__b9/photo.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(photo);
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
    });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ base: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

async function sharpOnce(photo: Buffer): Promise<number> {
  const t0 = performance.now();
  await sharp(photo)
    .rotate()
    .resize({ width: 2560, height: 2560, fit: 'inside' })
    .jpeg({ quality: 82 })
    .toBuffer();
  return performance.now() - t0;
}

/** The bench page's code: loads the photo, starts the app's worker and the library, watches long tasks. */
function pageScript(worker: string, umd: string): string {
  return `
(async () => {
  window.photo = await (await fetch('/__b9/photo.jpg')).blob();
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const compressor = new Worker(${JSON.stringify(worker)}, { type: 'module' });
  let next = 1;
  window.ours = (file) => new Promise((resolve, reject) => {
    const id = next++;
    const t0 = performance.now();
    const onMessage = (e) => {
      if (e.data.id !== id) return;
      compressor.removeEventListener('message', onMessage);
      if (e.data.ok) resolve({ ms: performance.now() - t0, bytes: e.data.image.size });
      else reject(new Error(e.data.message));
    };
    compressor.addEventListener('message', onMessage);
    compressor.postMessage({ id, file });
  });
  await new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = ${JSON.stringify(umd)};
    s.onload = resolve;
    s.onerror = () => reject(new Error('the fallback library did not load'));
    document.head.append(s);
  });
  const libURL = new URL(${JSON.stringify(umd)}, location.href).href;
  window.theirs = async (file) => {
    const t0 = performance.now();
    const out = await window.imageCompression(new File([file], 'photo.jpg', { type: 'image/jpeg' }), {
      maxWidthOrHeight: 2560,
      maxSizeMB: 1000000 / 1048576,
      useWebWorker: true,
      libURL,
      fileType: 'image/jpeg',
    });
    return { ms: performance.now() - t0, bytes: out.size };
  };
  window.batch = async (n) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await window.ours(window.photo);
    const t1 = performance.now();
    await new Promise((r) => setTimeout(r, 100));
    const during = window.longTasks.filter((t) => t.start + t.duration > t0 && t.start < t1);
    return { ms: t1 - t0, longest: Math.max(0, ...during.map((t) => t.duration)), count: during.length };
  };
  window.b9Ready = true;
})();
`;
}

export async function runB9(): Promise<{ rows: SummaryRow[]; raw: unknown }> {
  const photo = await twelveMegapixels();
  const { dist, worker, umd } = buildApp();
  const site = await serve(dist, photo);
  const browser = await launchBrowser({ allCores: true });
  try {
    const page = await browser.newPage();
    await page.goto(`${site.base}/__b9/`);
    // Plain JavaScript text: functions passed to page.evaluate would carry tsx's `__name` helper.
    await page.addScriptTag({ content: pageScript(worker, umd) });
    await page.waitForFunction('window.b9Ready === true', undefined, { timeout: 60_000 });
    type One = { ms: number; bytes: number };
    const ours = () => page.evaluate('window.ours(window.photo)') as Promise<One>;
    const theirs = () => page.evaluate('window.theirs(window.photo)') as Promise<One>;

    for (let i = 0; i < WARMUP; i++) {
      await ours();
      await theirs();
      await sharpOnce(photo);
    }
    const a: One[] = [];
    const b: One[] = [];
    const c: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      a.push(await ours());
      b.push(await theirs());
      c.push(await sharpOnce(photo));
    }
    // A batch of 10, as the gallery sends them (one after the other through the one worker), watching the
    // main thread for long tasks meanwhile.
    const batch = (await page.evaluate(`window.batch(${BATCH})`)) as {
      ms: number;
      longest: number;
      count: number;
    };

    const oursMs = median(a.map((x) => x.ms));
    const theirsMs = median(b.map((x) => x.ms));
    const sharpMs = median(c);
    const faster = theirsMs / oursMs;
    const vsSharp = oursMs / sharpMs;
    const rows: SummaryRow[] = [
      {
        budget: 'B9',
        what: `12 MP JPEG -> 2560 px JPEG (+ thumb), app worker vs browser-image-compression (ms, median of ${ROUNDS})`,
        measured: fmt(oursMs, 0),
        comparator: fmt(theirsMs, 0),
        ratio: `${fmt(faster, 1)}x faster`,
        limit: '>= 5x faster',
        pass: faster >= 5,
      },
      {
        budget: 'B9',
        what: 'app worker vs sharp decode-resize-encode of the same file (ms)',
        measured: fmt(oursMs, 0),
        comparator: fmt(sharpMs, 0),
        ratio: fmt(vsSharp, 2),
        limit: '<= 3.5',
        pass: vsSharp <= 3.5,
      },
      {
        budget: 'B9',
        what: `info: per photo in a batch of ${BATCH} through the worker vs sharp (ms)`,
        measured: fmt(batch.ms / BATCH, 0),
        comparator: fmt(sharpMs, 0),
        ratio: fmt(batch.ms / BATCH / sharpMs, 2),
        limit: '-',
        pass: null,
      },
      {
        budget: 'B9',
        what: `longest main-thread task while a batch of ${BATCH} compresses (ms; batch took ${fmt(batch.ms / 1000, 1)} s)`,
        measured: fmt(batch.longest, 0),
        comparator: '-',
        ratio: '-',
        limit: '<= 50',
        pass: batch.longest <= 50,
      },
    ];
    return {
      rows,
      raw: {
        input: { width: WIDTH, height: HEIGHT, bytes: photo.byteLength },
        ours: a,
        browserImageCompression: b,
        sharp: c,
        batch,
      },
    };
  } finally {
    await browser.close();
    site.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./lib.ts');
  const { rows, raw } = await runB9();
  printTable(rows);
  console.log(JSON.stringify(raw, null, 2));
}
