import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRouteRule } from './route-permissions.ts';
import { createTestApp, type TestApp } from './test-utils.ts';

/**
 * Contract: every call listed in section 7 of both specs exists. The list is kept here so the test runs
 * anywhere; when the spec documents sit beside the repository (../shared/spec, as in CI), the test also
 * re-reads them and fails if they name a call this list lacks.
 */
const SPEC_CALLS = [
  // spec 01 section 7
  'GET /api/auth/user',
  'POST /api/auth/login',
  'GET /api/dashboard/stats',
  'GET /api/activities',
  'GET /api/projects',
  'GET /api/tasks',
  'PATCH /api/tasks/{id}',
  'GET /api/communications',
  'GET /api/change-orders',
  'POST /api/communications',
  'POST /api/change-orders',
  'PATCH /api/change-orders/{id}',
  'GET /api/invoices',
  'GET /api/time-entries',
  'POST /api/projects',
  'PATCH /api/projects/{id}',
  'DELETE /api/projects/{id}',
  'GET /api/users/managers',
  'GET /api/photos?projectId={id}',
  'POST /api/photos',
  'DELETE /api/photos/{id}',
  'GET /api/photos/{id}/file',
  // spec 02 section 7
  'POST /api/tasks',
  'DELETE /api/tasks/{id}',
  'GET /api/users/',
  'GET /api/subcontractor-assignments/',
  'GET /api/schedule-changes',
  'POST /api/schedule-changes',
  'PATCH /api/schedule-changes/{id}',
  'GET /api/photos',
  'GET /api/photos/{id}',
  'POST /api/objects/upload',
  'GET /api/objects/image/{lastPathSegment}',
  'GET /api/logs',
  'POST /api/logs',
  'PATCH /api/logs/{id}',
  'DELETE /api/logs/{id}',
  'POST /api/auth/logout',
  'GET /api/rbac/permissions',
  'GET /api/rbac/roles',
  'POST /api/rbac/roles',
  'PATCH /api/rbac/roles/{id}',
  'DELETE /api/rbac/roles/{id}',
  'GET /api/companies',
  'POST /api/companies',
  'DELETE /api/companies/{id}',
  'PATCH /api/rbac/companies/{id}',
  'GET /api/rbac/companies/{id}/users',
  'GET /api/rbac/users',
  'POST /api/rbac/users',
  'PATCH /api/rbac/users/{id}',
  'DELETE /api/rbac/users/{id}',
  'GET /api/project-health-metrics',
  'POST /api/project-health-metrics/{projectId}/calculate',
  'GET /api/risk-assessments',
  'POST /api/risk-assessments',
  'GET /api/notifications?userId=...',
  'PATCH /api/notifications/mark-all-read',
  'PATCH /api/notifications/{id}/read',
  // the PUT to the pre-signed address returned by POST /api/objects/upload
  'PUT /api/objects/upload/{key}',
];

/** Spec placeholder -> our route parameter name. */
const PARAM_NAMES: Record<string, string> = { lastPathSegment: 'key', key: 'key', projectId: 'projectId' };

/** 'GET /api/photos?projectId={id}' -> ['GET', '/api/photos'], 'PATCH /api/tasks/{id}' -> ['PATCH', '/api/tasks/{id}']. */
function normalise(call: string): [string, string] {
  const [method = '', raw = ''] = call.split(' ');
  const pathOnly = raw.split('?')[0]!.replace(/[.:]$/, '').replace(/\/$/, '');
  return [method, pathOnly];
}

function callsInSpec(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const section = text.slice(text.indexOf('## 7.'), text.indexOf('## 8.'));
  return [...section.matchAll(/\b(GET|POST|PATCH|DELETE|PUT) (\/api\/[^\s|,;)]*)/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('spec contract', () => {
  const specDir = path.resolve(import.meta.dirname, '../../shared/spec');
  it.runIf(fs.existsSync(specDir))('lists every call named in section 7 of both specs', () => {
    const listed = new Set(SPEC_CALLS.map((c) => normalise(c).join(' ')));
    const named = fs
      .readdirSync(specDir)
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => callsInSpec(path.join(specDir, f)))
      .map((c) => normalise(c).join(' '));
    expect(named.length).toBeGreaterThan(40);
    expect([...new Set(named)].filter((c) => !listed.has(c))).toEqual([]);
  });

  it('serves every call of both specs', async () => {
    const root = await t.login('root@sitecommand.test');
    const served = new Set(t.app.routes.map((r) => `${r.method} ${r.path}`));
    const missing: string[] = [];
    for (const call of SPEC_CALLS) {
      const [method, specPath] = normalise(call);
      const routePath = specPath.replace(/\{(\w+)\}/g, (_m, name: string) => `:${PARAM_NAMES[name] ?? 'id'}`);
      const entry = findRouteRule(method, specPath.replace(/\{\w+\}/g, 'x'));
      if (!entry || !served.has(`${method} ${routePath}`)) {
        missing.push(call);
        continue;
      }
      const url = specPath.replace(/\{\w+\}/g, '0190d3a0-0000-7000-8000-000000000000');
      const res = await t.request(method, url, { cookie: root, body: method === 'GET' ? undefined : {} });
      const body = await res.text();
      if (res.status === 404 && body.includes('No such API route')) missing.push(call);
    }
    expect(missing).toEqual([]);
  });
});
