import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { ROUTE_PERMISSIONS } from '../route-permissions.ts';
import { createTestApp, type TestApp } from '../test-utils.ts';

let t: TestApp;
let admin: string;

/**
 * GET routes without an id that are not plain lists of rows, or page by their own documented rules
 * (the activity feed's before/beforeId, the newest 200 notifications, sync pull's version cursor), or
 * belong to one record (a row's History needs its table and id).
 */
const NOT_PAGED = new Set([
  'GET /api/auth/user',
  'GET /api/dashboard/stats',
  'GET /api/activities',
  'GET /api/notifications',
  'GET /api/sync/pull',
  'GET /api/sync/events',
  'GET /api/sync/conflicts',
  'GET /api/sync/history',
]);
const LISTS = Object.keys(ROUTE_PERMISSIONS)
  .filter((k) => k.startsWith('GET ') && !k.includes(':') && !NOT_PAGED.has(k))
  .map((k) => k.slice(4));

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@summit.test');
});
afterAll(() => t?.close());

async function get(url: string) {
  const res = await t.request('GET', url, { cookie: admin });
  return { res, body: (await res.json()) as { id: string }[] & { code?: string } };
}

describe('list paging (?limit= and the next-page cursor)', () => {
  it('covers every list route of the route table', () => {
    expect(LISTS).toEqual(
      expect.arrayContaining(['/api/projects', '/api/tasks', '/api/logs', '/api/photos', '/api/invoices']),
    );
  });

  it.each(LISTS)('%s: pages of at most N rows add up to the full list, in its order', async (path) => {
    const full = await get(path);
    expect(full.res.status).toBe(200);
    expect(full.res.headers.get('link')).toBeNull();
    const ids = full.body.map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    const size = Math.max(1, Math.ceil(ids.length / 3));
    const seen: string[] = [];
    let url: string | null = `${path}?limit=${size}`;
    let pages = 0;
    while (url) {
      const page = await get(url);
      expect(page.res.status).toBe(200);
      expect(Array.isArray(page.body)).toBe(true);
      expect(page.body.length).toBeLessThanOrEqual(size);
      seen.push(...page.body.map((r) => r.id));
      const link = page.res.headers.get('link');
      const cursor = page.res.headers.get('x-next-cursor');
      expect(link === null).toBe(cursor === null);
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      if (url) expect(url).toContain(`cursor=${cursor}`);
      if (++pages > ids.length + 1) throw new Error('paging does not end');
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(Math.ceil(ids.length / size));
  });

  it.each(['crew@summit.test', 'sub@summit.test'])(
    '/api/tasks as %s: pages add up to the tasks that user may see, in order',
    async (email) => {
      const cookie = await t.login(email);
      const read = async (url: string) => {
        const res = await t.request('GET', url, { cookie });
        expect(res.status).toBe(200);
        return { res, ids: ((await res.json()) as { id: string }[]).map((r) => r.id) };
      };
      const full = (await read('/api/tasks')).ids;
      expect(full.length).toBeGreaterThan(1);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await read(`/api/tasks?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.ids.length).toBe(1);
        seen.push(...page.ids);
        cursor = page.res.headers.get('x-next-cursor');
      } while (cursor && seen.length <= full.length);
      expect(seen).toEqual(full);
    },
  );

  it('caps a page at 1,000 rows and still answers every row without limit', async () => {
    const company = t.companyId('summit.test');
    // 1,100 rows in one transaction (one statement).
    const rows = Array.from({ length: 1_100 }, (_, i) => [
      newId(),
      company,
      `2020-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
    ]);
    const inserted = await t.exec(
      `INSERT INTO time_entries (id, company_id, start_time, created_at) VALUES ${rows
        .map(() => "(?, ?, ?, '2026-01-01')")
        .join(', ')}`,
      rows.flat(),
    );
    expect(inserted).toBe(1_100);
    const all = await get('/api/time-entries');
    expect(all.body.length).toBeGreaterThan(1_100);
    expect(all.res.headers.get('x-next-cursor')).toBeNull();
    const capped = await get('/api/time-entries?limit=5000');
    expect(capped.res.status).toBe(200);
    expect(capped.body).toHaveLength(1_000);
    expect(capped.res.headers.get('x-next-cursor')).toBeTruthy();
  });

  it('refuses a bad limit or a cursor it did not hand out with 400', async () => {
    for (const query of ['limit=0', 'limit=-3', 'limit=2.5', 'limit=ten', 'limit=5&cursor=not-a-cursor']) {
      const { res, body } = await get(`/api/tasks?${query}`);
      expect(res.status, query).toBe(400);
      expect(body.code).toBeTruthy();
    }
    const wrongShape = Buffer.from(JSON.stringify(['x'])).toString('base64url');
    expect((await get(`/api/tasks?limit=5&cursor=${wrongShape}`)).res.status).toBe(400);
  });
});
