import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN } from './test-utils.ts';
import { staticApp, startServer } from './serve.ts';

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
    expect(server.db.$client.open).toBe(false);
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
    expect(server.db.$client.open).toBe(false);
    await ended;
  });
});

describe('static files', () => {
  const dist = fs.mkdtempSync(path.join(fs.realpathSync(process.cwd()), '.tmp-dist-'));
  cleanups.push(() => fs.rmSync(dist, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  const web = staticApp(dist);

  it('serves a built asset with a one-year immutable cache', async () => {
    const res = await web.request('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
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
