import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_PERMISSIONS, isAllowed, type RouteRule } from './route-permissions.ts';
import { ROLE_TEMPLATES } from '#shared/permissions.ts';
import { createTestApp, type TestApp } from './test-utils.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every handler Hono knows, as 'METHOD /path' (middleware entries are registered as ALL). */
export function appRoutes(app: TestApp['app']): string[] {
  return [...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
}

describe('route permission table', () => {
  it('has an entry for every route the app serves', () => {
    const missing = appRoutes(t.app).filter((key) => !(key in ROUTE_PERMISSIONS));
    expect(missing).toEqual([]);
  });

  it('names no route the app does not serve', () => {
    const served = new Set(appRoutes(t.app));
    expect(Object.keys(ROUTE_PERMISSIONS).filter((key) => !served.has(key))).toEqual([]);
  });

  const users = {
    crew: 'crew@summit.test',
    subcontractor: 'sub@summit.test',
    manager: 'manager@summit.test',
    admin: 'admin@summit.test',
  } as const;

  it('refuses, with 403, every role whose permissions lack what a route needs', async () => {
    let refusals = 0;
    for (const [kind, email] of Object.entries(users) as [keyof typeof users, string][]) {
      const cookie = await t.login(email);
      const granted = new Set<string>(ROLE_TEMPLATES[kind].permissions);
      for (const [key, rule] of Object.entries(ROUTE_PERMISSIONS) as [string, RouteRule][]) {
        if (rule === 'public' || rule === 'user' || isAllowed(rule, granted)) continue;
        const [method = 'GET', path = '/'] = key.split(' ');
        const url = path.replace(/:[A-Za-z]+/g, '0190d3a0-0000-7000-8000-000000000000');
        const res = await t.request(method, url, { cookie, body: method === 'GET' ? undefined : {} });
        expect.soft(res.status, `${kind} ${key}`).toBe(403);
        refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(50);
  });

  it('answers 401 on every non-public route when signed out', async () => {
    for (const [key, rule] of Object.entries(ROUTE_PERMISSIONS) as [string, RouteRule][]) {
      if (rule === 'public') continue;
      const [method = 'GET', path = '/'] = key.split(' ');
      const res = await t.request(method, path.replace(/:[A-Za-z]+/g, 'x'), {
        body: method === 'GET' ? undefined : {},
      });
      expect.soft(res.status, key).toBe(401);
    }
  });
});
