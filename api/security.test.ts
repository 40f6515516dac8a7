import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './test-utils.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login('admin@summit.test');
});
afterAll(() => t.close());

const newProject = { name: 'Depot extension', location: 'Denver, CO' };

describe('security headers', () => {
  it('sends CSP, one-year HSTS, nosniff and frame-ancestors none on every response', async () => {
    for (const url of ['/api/auth/user', '/api/nope', '/']) {
      const res = await t.request('GET', url, { cookie });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('marks every API answer Cache-Control: no-store', async () => {
    expect((await t.request('GET', '/api/projects', { cookie })).headers.get('cache-control')).toBe(
      'no-store',
    );
    expect((await t.request('GET', '/api/auth/user')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('request checks', () => {
  it('answers a body the client aborted with 400 ABORTED and writes no stack to the log', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"email":'));
          controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
        },
      });
      const res = await t.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('ABORTED');
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it('refuses a write from another origin (403) and changes nothing', async () => {
    const before = (await t.query('SELECT count(*) AS n FROM projects'))[0];
    const res = await t.request('POST', '/api/projects', {
      cookie,
      body: newProject,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('BAD_ORIGIN');
    const cross = await t.request('POST', '/api/projects', {
      cookie,
      body: newProject,
      headers: { origin: '', 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(403);
    expect((await t.query('SELECT count(*) AS n FROM projects'))[0]).toEqual(before);
  });

  it('refuses an Origin that only matches the Host header the sender chose (403), creating nothing', async () => {
    const before = (await t.query('SELECT count(*) AS n FROM tasks'))[0];
    const res = await t.app.request(
      'http://evil.test/api/tasks',
      {
        method: 'POST',
        headers: {
          host: 'evil.test',
          origin: 'http://evil.test',
          cookie,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ title: 'Planted', category: 'general' }),
      },
      { incoming: { socket: { remoteAddress: '127.0.0.1', remotePort: 50000 } } },
    );
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('BAD_ORIGIN');
    expect((await t.query('SELECT count(*) AS n FROM tasks'))[0]).toEqual(before);
  });

  it('accepts the same write from the app origin', async () => {
    const res = await t.request('POST', '/api/projects', { cookie, body: newProject });
    expect(res.status).toBe(201);
  });

  it('answers 415 to a form or text body on a JSON route', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await t.request('POST', '/api/projects', {
        cookie,
        body: 'name=x&location=y',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect((await res.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('rejects unknown keys with a 400 naming them', async () => {
    const res = await t.request('POST', '/api/projects', {
      cookie,
      body: { ...newProject, companyId: 'x', isAdmin: true },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(/companyId|isAdmin/);
  });

  it('answers malformed JSON with a 400 JSON error, not a crash', async () => {
    const res = await t.request('POST', '/api/projects', {
      cookie,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Body is not valid JSON', code: 'BAD_REQUEST' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request('GET', '/api/does-not-exist', { cookie });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('never puts a stack trace in an error answer', async () => {
    const broken = await createTestApp({ seed: false });
    await broken.database.close();
    const res = await broken.request('POST', '/api/auth/login', {
      body: { email: 'a@b.test', password: 'x' },
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ message: 'Something went wrong on the server', code: 'INTERNAL' });
    expect(text).not.toMatch(/at \w+ \(|\.ts:\d+/);
  });
});
