import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN } from './test-utils.ts';
import { createApp } from './app.ts';
import { ConfigError } from './env.ts';
import { staticApp, startServer } from './serve.ts';
import { io } from './db/op.ts';
import { valueStmt } from './db/sql.ts';

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((f) => f()));

describe('shutdown', () => {
  it('ends open event streams so the server finishes closing and closes the database', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    t.db.$client.close();
    const server = await startServer({ ...t.env, PORT: 0, PUBLIC_ORIGIN: ORIGIN }, { log: () => {} });
    const base = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ email: 'crew@summit.test', password: 'sitecommand-demo' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const readers = await Promise.all(
      [0, 1].map(async () => {
        const res = await fetch(`${base}/api/sync/events`, { headers: { cookie } });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^event: version/);
        return reader;
      }),
    );
    await server.close();
    expect(server.database.open).toBe(false);
    // Each stream ended cleanly (not cut off), so an EventSource reconnects to the next server.
    for (const reader of readers) expect((await reader.read()).done).toBe(true);
  });

  it('cuts a request whose body never finishes after the grace period, and still closes the database', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    t.db.$client.close();
    const server = await startServer(
      { ...t.env, PORT: 0, PUBLIC_ORIGIN: ORIGIN },
      { log: () => {}, shutdownGraceMs: 100 },
    );
    // A sign-in whose chunked body trickles and never ends (found by attack: shutdown waited on it forever).
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Origin: ${ORIGIN}\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n`,
    );
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await server.close();
    expect(server.database.open).toBe(false);
    await ended;
  });
});

describe('the start-up repair', () => {
  it('[W21] a start deletes the communications and change orders a deleted project left behind', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    // A database from before e1a245c: a project deleted, its requests live.
    const [project] = await t.query<{ id: string }>(
      `SELECT project_id AS id FROM change_orders WHERE deleted_at IS NULL AND status = 'pending' LIMIT 1`,
    );
    await t.exec('UPDATE projects SET deleted_at = ? WHERE id = ?', [new Date().toISOString(), project!.id]);
    t.db.$client.close();
    const server = await startServer({ ...t.env, PORT: 0, PUBLIC_ORIGIN: ORIGIN }, { log: () => {} });
    const live = valueStmt<number>(
      `SELECT (SELECT count(*) FROM communications WHERE project_id = ? AND deleted_at IS NULL)
        + (SELECT count(*) FROM change_orders WHERE project_id = ? AND deleted_at IS NULL)`,
    );
    const left = await server.database.read((c) => io(c.sql.get(live, [project!.id, project!.id])));
    await server.close();
    expect(left).toBe(0);
  });
});

describe('a database that cannot be used at start', () => {
  it('stops the start with one line naming DATABASE_URL and the reason, not a stack trace', async () => {
    // A port nothing listens on: the connection is refused.
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const started = startServer(
      { ...t.env, PORT: 0, PUBLIC_ORIGIN: ORIGIN, DATABASE_URL: `postgres://app:pw@127.0.0.1:${port}/site` },
      { log: () => {} },
    );
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(
      new RegExp(
        `^Invalid configuration: DATABASE_URL: cannot use the database \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
      ),
    );
  });
});

describe('static files', () => {
  const dist = fs.mkdtempSync(path.join(fs.realpathSync(process.cwd()), '.tmp-dist-'));
  cleanups.push(() => fs.rmSync(dist, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // A chunk as the build leaves it: the script and its brotli and gzip copies.
  const chunk = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;
  fs.writeFileSync(path.join(dist, 'assets', 'big-def456.js'), chunk);
  fs.writeFileSync(path.join(dist, 'assets', 'big-def456.js.br'), zlib.brotliCompressSync(chunk));
  fs.writeFileSync(path.join(dist, 'assets', 'big-def456.js.gz'), zlib.gzipSync(chunk));
  const web = staticApp(dist);

  it('serves a built asset with a one-year immutable cache', async () => {
    const res = await web.request('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('sends a built chunk brotli-compressed as the build wrote it, as a script cached for a year', async () => {
    const res = await web.request('/assets/big-def456.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeLessThan(chunk.length / 3);
    expect(zlib.brotliDecompressSync(body).toString()).toBe(chunk);
  });

  it('sends the gzip copy to a browser without brotli, and the plain file to one that takes neither', async () => {
    const gz = await web.request('/assets/big-def456.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(chunk);
    const plain = await web.request('/assets/big-def456.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(chunk);
  });

  it('compresses the app shell on the way out and has it revalidated', async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>shell</title>${' '.repeat(2048)}`);
    const res = await web.request('/tasks', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(zlib.gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toContain(
      '<title>shell</title>',
    );
  });

  it('answers a missing asset 404, never the app shell, and never immutable', async () => {
    const res = await web.request('/assets/app-gone999.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    expect(await res.text()).not.toContain('<title>shell</title>');
  });

  it('still answers an app route with the shell', async () => {
    const res = await web.request('/projects/123');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>shell</title>');
  });
});

describe('the page for a signed-in navigation (first screen without a round trip)', () => {
  const dist = fs.mkdtempSync(path.join(fs.realpathSync(process.cwd()), '.tmp-dist-'));
  cleanups.push(() => fs.rmSync(dist, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>shell</title></head><body><div id="root"></div></body></html>',
  );
  const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  const blockOf = (html: string) =>
    /<script type="application\/json" id="session-user">(.*?)<\/script><\/head>/s.exec(html)?.[1] ?? null;

  async function setUp() {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const app = createApp(t.deps, { staticApp: staticApp(dist) });
    const get = (url: string, headers: Record<string, string>) => app.request(url, { headers });
    return { t, get, cookie: await t.login('manager@summit.test') };
  }

  it('carries the same user GET /api/auth/user answers, on every app address, for this user only', async () => {
    const { t, get, cookie } = await setUp();
    const expected = await (await t.request('GET', '/api/auth/user', { cookie })).json();
    for (const url of ['/dashboard', '/', '/tasks?view=list']) {
      const res = await get(url, { ...NAVIGATION, cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('vary')).toMatch(/cookie/i);
      const block = blockOf(await res.text());
      expect(block, url).not.toBeNull();
      expect(JSON.parse(block!)).toEqual(expected);
    }
  });

  it('is the page as built for a fetch (the service worker caching it)', async () => {
    const { get, cookie } = await setUp();
    for (const url of ['/index.html', '/dashboard']) {
      const res = await get(url, { cookie, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<title>shell</title>');
      expect(blockOf(html)).toBeNull();
      expect(html).not.toContain('manager@summit.test');
      // The same for everyone: the service worker may keep it for offline starts.
      expect(res.headers.get('cache-control') ?? '').not.toMatch(/private|no-store/);
    }
  });

  it('says null, as GET /api/auth/user says 401, for a visitor or an ended session', async () => {
    const { t, get, cookie } = await setUp();
    const visitor = await get('/login', NAVIGATION);
    await t.request('POST', '/api/auth/logout', { cookie });
    expect((await t.request('GET', '/api/auth/user', { cookie })).status).toBe(401);
    const ended = await get('/dashboard', { ...NAVIGATION, cookie });
    for (const res of [visitor, ended]) {
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(blockOf(html)).toBe('null');
      expect(html).not.toContain('manager@summit.test');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('vary')).toMatch(/cookie/i);
    }
  });

  it('keeps a name with markup in it as data: nothing in the block can end it', async () => {
    const { t, get, cookie } = await setUp();
    const name = '</script><script>alert(1)</script><!--';
    t.db.$client.prepare("UPDATE users SET first_name = ? WHERE email = 'manager@summit.test'").run(name);
    const html = await (await get('/dashboard', { ...NAVIGATION, cookie })).text();
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<!--');
    expect(JSON.parse(blockOf(html)!).firstName).toBe(name);
  });
});

describe("a visitor's sign-in page comes with the sign-in card painted in it (ADR 029)", () => {
  const INDEX =
    '<!doctype html><html><head><title>shell</title></head><body><div id="root"></div></body></html>';
  const CARD = '<main><h1>Sign in to SiteCommand</h1><form inert=""></form></main>';
  const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  const rootOf = (html: string) => /<div id="root">(.*?)<\/div><\/body>/s.exec(html)?.[1] ?? null;

  function build(withCard: boolean) {
    const dist = fs.mkdtempSync(path.join(fs.realpathSync(process.cwd()), '.tmp-dist-'));
    cleanups.push(() => fs.rmSync(dist, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    if (withCard) {
      fs.mkdirSync(path.join(dist, 'prepaint'));
      fs.writeFileSync(path.join(dist, 'prepaint', 'sign-in.html'), CARD);
    }
    return dist;
  }

  async function setUp(withCard = true) {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const app = createApp(t.deps, { staticApp: staticApp(build(withCard)) });
    const get = async (url: string, headers: Record<string, string>) =>
      (await app.request(url, { headers })).text();
    return { get, cookie: await t.login('crew@summit.test') };
  }

  it('puts the card inside the root of a visitor navigating to /login, with a return address or not', async () => {
    const { get } = await setUp();
    for (const url of ['/login', '/login?from=%2Ftasks']) {
      const html = await get(url, NAVIGATION);
      expect(rootOf(html), url).toBe(CARD);
      expect(html).toContain('<title>shell</title>');
    }
  });

  it('leaves the root empty for a signed-in user, a fetch, and every other address', async () => {
    const { get, cookie } = await setUp();
    const empty = [
      await get('/login', { ...NAVIGATION, cookie }), // the app sends a signed-in user on from /login
      await get('/login', { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }), // the offline copy
      await get('/', NAVIGATION),
      await get('/dashboard', NAVIGATION),
      await get('/login/extra', NAVIGATION),
    ];
    for (const html of empty) expect(rootOf(html)).toBe('');
  });

  it('serves the page without it when the build has no card', async () => {
    const { get } = await setUp(false);
    const html = await get('/login', NAVIGATION);
    expect(rootOf(html)).toBe('');
    expect(html).toContain('<title>shell</title>');
  });
});
