import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { ROLE_TEMPLATES } from '#shared/permissions.ts';
import { SCHEMA_VERSION } from '#shared/sync-protocol.ts';
import { ROUTE_PERMISSIONS, isAllowed, type RouteRule } from './route-permissions.ts';
import { createTestApp, type TestApp } from './test-utils.ts';

/**
 * Company isolation matrix (DESIGN.md section 4): for every route Hono serves, for each role of company A
 * (Summit), call it with company B's (Harbor's) ids in the path, the query and the body, and check that the
 * answer is a refusal, that it carries none of B's data, and that B's rows are unchanged. Routes come from
 * the app itself, so a new route is covered (or fails here for want of a fixture) without anyone asking.
 */

type Kind =
  | 'project'
  | 'task'
  | 'log'
  | 'photo'
  | 'scheduleChange'
  | 'notification'
  | 'changeOrder'
  | 'user'
  | 'subcontractor'
  | 'assignment'
  | 'role'
  | 'company'
  | 'objectKey'
  | 'blobHash';
type Ids = Record<Kind, string>;

/** Which kind of id a path parameter takes, from the path segment in front of it. */
const PARAM_KIND: Record<string, Kind> = {
  projects: 'project',
  tasks: 'task',
  logs: 'log',
  photos: 'photo',
  'schedule-changes': 'scheduleChange',
  notifications: 'notification',
  'change-orders': 'changeOrder',
  users: 'user',
  roles: 'role',
  companies: 'company',
  'project-health-metrics': 'project',
  'subcontractor-assignments': 'assignment',
  upload: 'objectKey',
  image: 'objectKey',
  blobs: 'blobHash',
};

interface BodyFixture {
  body: (own: Ids) => Record<string, unknown>;
  /** Body fields that reference another row: each gets a variant with company B's id. A dotted name
   *  ('mutations.0.rowId') reaches into nested objects and arrays. */
  refs: Partial<Record<string, Kind>>;
  /** For routes that answer 200 with per-item outcomes (sync push): whether the answer refused B's id. */
  refusedIn?: (answer: string, field: string) => boolean;
}

/** A copy of `body` with the value at a dotted path replaced. */
function withRef(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node = copy;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
  return copy;
}

const day = (n: number) => new Date(Date.UTC(2027, 0, n)).toISOString();

/** Bodies for every write route. A write route missing here fails the matrix: add its fixture. */
const BODIES: Record<string, BodyFixture | 'no-body' | 'no-refs'> = {
  'POST /api/projects': 'no-refs',
  'PATCH /api/projects/:id': 'no-refs',
  'DELETE /api/projects/:id': 'no-body',
  'POST /api/tasks': {
    body: (a) => ({
      title: 'Isolation check',
      category: 'project',
      projectId: a.project,
      assigneeId: a.user,
    }),
    refs: { projectId: 'project', assigneeId: 'user' },
  },
  'PATCH /api/tasks/:id': {
    body: (a) => ({ projectId: a.project, assigneeId: a.user }),
    refs: { projectId: 'project', assigneeId: 'user' },
  },
  'DELETE /api/tasks/:id': 'no-body',
  'POST /api/schedule-changes': {
    body: (a) => ({
      taskId: a.task,
      reason: 'Concrete delivery slipped',
      originalDate: day(5),
      newDate: day(9),
    }),
    refs: { taskId: 'task' },
  },
  'PATCH /api/schedule-changes/:id': 'no-refs',
  'POST /api/logs': {
    body: (a) => ({ projectId: a.project, title: 'Isolation check', content: 'Checked', images: [] }),
    refs: { projectId: 'project' },
  },
  'PATCH /api/logs/:id': 'no-refs',
  'DELETE /api/logs/:id': 'no-body',
  'POST /api/photos': {
    body: (a) => ({
      projectId: a.project,
      filename: a.objectKey,
      originalName: 'x.jpg',
      description: 'x',
      tags: [],
    }),
    refs: { projectId: 'project', filename: 'objectKey' },
  },
  'DELETE /api/photos/:id': 'no-body',
  'POST /api/objects/upload': 'no-refs',
  'PUT /api/objects/upload/:key': 'no-body',
  'PATCH /api/notifications/mark-all-read': 'no-refs',
  'PATCH /api/notifications/:id/read': 'no-body',
  'POST /api/communications': {
    body: (a) => ({
      subject: 'Isolation',
      message: 'Check',
      type: 'message',
      priority: 'normal',
      projectId: a.project,
    }),
    refs: { projectId: 'project' },
  },
  'POST /api/change-orders': {
    body: (a) => ({
      title: 'Isolation',
      description: 'Check',
      costImpact: 0,
      timeImpact: 0,
      projectId: a.project,
    }),
    refs: { projectId: 'project' },
  },
  'POST /api/subcontractor-assignments': {
    body: (a) => ({ subcontractorId: a.subcontractor, projectId: a.project }),
    // A subcontractor id is a user id: company B's user must be refused like any other.
    refs: { subcontractorId: 'user', projectId: 'project' },
  },
  'DELETE /api/subcontractor-assignments/:id': 'no-body',
  'PATCH /api/change-orders/:id': { body: () => ({ status: 'approved' }), refs: {} },
  'POST /api/project-health-metrics/:projectId/calculate': 'no-body',
  'POST /api/risk-assessments': {
    body: (a) => ({ projectId: a.project, riskTitle: 'Isolation', assignedTo: a.user }),
    refs: { projectId: 'project', assignedTo: 'user' },
  },
  'POST /api/rbac/roles': {
    body: (a) => ({
      name: 'Isolation role',
      description: 'x',
      company_id: a.company,
      is_template: false,
      permissions: [],
    }),
    refs: { company_id: 'company' },
  },
  'PATCH /api/rbac/roles/:id': 'no-refs',
  'DELETE /api/rbac/roles/:id': 'no-body',
  'POST /api/rbac/users': {
    body: (a) => ({
      email: `iso-${newId()}@summit.test`,
      first_name: 'Iso',
      last_name: 'Lation',
      company_id: a.company,
      role_id: Number(a.role),
    }),
    refs: { company_id: 'company', role_id: 'role' },
  },
  'PATCH /api/rbac/users/:id': 'no-refs',
  'DELETE /api/rbac/users/:id': 'no-body',
  'PATCH /api/rbac/companies/:id': 'no-refs',
  'POST /api/companies': 'no-refs',
  'DELETE /api/companies/:id': 'no-body',
  // A fresh device per call, so every variant's mutation ids start at 1; a huge baseVersion so field
  // conflicts never decide the outcome (sync/SPEC.md W1): only the ids do.
  'POST /api/sync/push': {
    body: (a) => ({
      clientId: newId(),
      schemaVersion: SCHEMA_VERSION,
      mutations: [
        {
          id: 1,
          op: 'patch',
          table: 'tasks',
          rowId: a.task,
          data: { projectId: a.project, assigneeId: a.user },
          baseVersion: 1_000_000_000,
          clientTime: Date.now(),
        },
        {
          id: 2,
          op: 'create',
          table: 'project_logs',
          rowId: newId(),
          data: { projectId: a.project, title: 'Isolation check' },
          baseVersion: null,
          clientTime: Date.now(),
        },
        // The mirrored communications and change orders (sync/SPEC.md W15-W17).
        {
          id: 3,
          op: 'create',
          table: 'communications',
          rowId: newId(),
          data: { projectId: a.project, subject: 'Isolation', message: 'check', type: 'dispute' },
          baseVersion: null,
          clientTime: Date.now(),
        },
        {
          id: 4,
          op: 'create',
          table: 'change_orders',
          rowId: newId(),
          data: { projectId: a.project, title: 'Isolation', description: 'check', costImpact: 1999 },
          baseVersion: null,
          clientTime: Date.now(),
        },
        {
          id: 5,
          op: 'patch',
          table: 'change_orders',
          rowId: a.changeOrder,
          data: { status: 'rejected' },
          baseVersion: 1_000_000_000,
          clientTime: Date.now(),
        },
      ],
    }),
    refs: {
      'mutations.0.rowId': 'task',
      'mutations.0.data.projectId': 'project',
      'mutations.0.data.assigneeId': 'user',
      'mutations.1.data.projectId': 'project',
      'mutations.2.data.projectId': 'project',
      'mutations.3.data.projectId': 'project',
      'mutations.4.rowId': 'changeOrder',
    },
    // Push answers 200 with one result per mutation (sync/SPEC.md P8, P13): the mutation carrying B's id
    // must come back rejected; the others may apply.
    refusedIn: (answer, field) => {
      const index = Number(field.split('.')[1]);
      const results = (JSON.parse(answer) as { results?: { status: string }[] }).results;
      return results?.[index]?.status === 'rejected';
    },
  },
  'PUT /api/sync/blobs/:sha256': 'no-body',
};

/** Routes that carry no ids of anyone else by design: the session's own sign-in and sign-out. */
const EXEMPT = new Set([
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/auth/user',
  'POST /api/auth/change-password',
  // A never-ending event stream that carries only the caller's own company version (sync/SPEC.md L10);
  // its isolation is tested in api/sync/pull.test.ts.
  'GET /api/sync/events',
]);

const COMPANY_TABLES = [
  'projects',
  'tasks',
  'project_logs',
  'photos',
  'schedule_changes',
  'user_activities',
  'notifications',
  'subcontractor_assignments',
  'project_health_metrics',
  'risk_assessments',
  'health_check_templates',
  'communications',
  'change_orders',
  'time_entries',
  'invoices',
  'users',
  'roles',
];

let t: TestApp;
let A: Ids;
let B: Ids;
let bSecrets: string[];

async function one(sql: string, ...params: string[]): Promise<string> {
  const [row] = await t.query(sql, params);
  const value = row && Object.values(row)[0];
  if (value === undefined || value === null) throw new Error(`matrix setup found nothing for: ${sql}`);
  return String(value);
}

async function idsOf(domain: string): Promise<Ids> {
  const company = await one('SELECT id FROM companies WHERE domain = ?', domain);
  // A company-specific role and a pending schedule change, so every path parameter has a target.
  await t.exec(`INSERT INTO roles (name, company_id, kind, created_at) VALUES (?, ?, 'crew', '2026-01-01')`, [
    `Foreman ${domain}`,
    company,
  ]);
  const task = await one(
    'SELECT id FROM tasks WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    company,
  );
  const user = await one(`SELECT id FROM users WHERE company_id = ? AND role = 'admin'`, company);
  await t.exec(
    `INSERT INTO schedule_changes (id, task_id, user_id, company_id, reason, new_date, status, created_at, updated_at, version)
     VALUES (?, ?, ?, ?, 'Weather', '2027-02-01T00:00:00.000Z', 'pending', '2026-01-01', '2026-01-01', 999999)`,
    [newId(), task, user, company],
  );
  const project = await one(
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    company,
  );
  return {
    company,
    project,
    // A subcontractor not yet on that project (and not the demo account the assignment matrix signs in
    // with), so the control call of POST /api/subcontractor-assignments can succeed; company B only
    // needs some subcontractor.
    subcontractor: String(
      (
        await t.query<{ id: string }>(
          `SELECT id FROM users WHERE company_id = ? AND role = 'subcontractor' AND is_active = 1
           ORDER BY (email = 'sub@summit.test'),
             (id IN (SELECT subcontractor_id FROM subcontractor_assignments WHERE project_id = ? AND status = 'active')),
             id
           LIMIT 1`,
          [company, project],
        )
      )[0]!.id,
    ),
    task,
    log: await one(
      'SELECT id FROM project_logs WHERE company_id = ? AND deleted_at IS NULL LIMIT 1',
      company,
    ),
    photo: await one('SELECT id FROM photos WHERE company_id = ? AND deleted_at IS NULL LIMIT 1', company),
    objectKey: await one(
      'SELECT filename FROM photos WHERE company_id = ? AND deleted_at IS NULL LIMIT 1',
      company,
    ),
    // Photo bytes are content-addressed: a hash only this company's photos carry.
    blobHash: await one(
      `SELECT sha256 FROM photos WHERE company_id = ? AND sha256 NOT IN
         (SELECT sha256 FROM photos WHERE company_id != ? AND sha256 IS NOT NULL) LIMIT 1`,
      company,
      company,
    ),
    scheduleChange: await one(
      `SELECT id FROM schedule_changes WHERE company_id = ? AND status = 'pending' LIMIT 1`,
      company,
    ),
    notification: await one('SELECT id FROM notifications WHERE company_id = ? LIMIT 1', company),
    changeOrder: await one(
      `SELECT id FROM change_orders WHERE company_id = ? AND status = 'pending' LIMIT 1`,
      company,
    ),
    user,
    assignment: await one(
      'SELECT id FROM subcontractor_assignments WHERE company_id = ? ORDER BY id LIMIT 1',
      company,
    ),
    role: await one('SELECT id FROM roles WHERE company_id = ? LIMIT 1', company),
  };
}

/** Everything company B owns, as one string: it must be identical before and after the matrix. */
async function snapshotB(): Promise<string> {
  const parts: unknown[][] = [];
  for (const table of COMPANY_TABLES) {
    parts.push(await t.query(`SELECT * FROM ${table} WHERE company_id = ? ORDER BY 1`, [B.company]));
  }
  parts.push(await t.query('SELECT * FROM companies WHERE id = ?', [B.company]));
  parts.push(
    await t.query(
      'SELECT s.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.company_id = ? ORDER BY 1',
      [B.company],
    ),
  );
  return JSON.stringify(parts);
}

beforeAll(async () => {
  t = await createTestApp();
  A = await idsOf('summit.test');
  B = await idsOf('harbor.test');
  // Ids (other than the ones the matrix itself sends), names and emails that only company B has.
  const bIds: string[] = [];
  for (const table of COMPANY_TABLES) {
    const rows = await t.query<{ id: unknown }>(`SELECT id FROM ${table} WHERE company_id = ?`, [B.company]);
    bIds.push(...rows.map((r) => String(r.id)));
  }
  // Names and titles only B has (the seed may reuse a title in both companies: that is not a leak).
  const texts = async (sql: string, company: string) =>
    new Set((await t.query(sql, [company])).map((r) => String(Object.values(r)[0])));
  const onlyB = async (sql: string) => {
    const mine = await texts(sql, A.company);
    return [...(await texts(sql, B.company))].filter((s) => s.length > 8 && !mine.has(s));
  };
  bSecrets = [
    ...new Set([
      ...bIds.filter((id) => id.length > 8),
      ...(await onlyB('SELECT name FROM projects WHERE company_id = ?')),
      ...(await onlyB('SELECT title FROM tasks WHERE company_id = ?')),
      ...(await onlyB('SELECT title FROM project_logs WHERE company_id = ?')),
      '@harbor.test',
      'Harbor Construction',
    ]),
  ];
}, 60_000);
afterAll(() => t.close());

const ROLES = {
  admin: 'admin@summit.test',
  manager: 'manager@summit.test',
  crew: 'crew@summit.test',
  subcontractor: 'sub@summit.test',
} as const;

function fillPath(path: string, ids: Ids): string {
  const segments = path.split('/');
  return segments
    .map((seg, i) => {
      if (!seg.startsWith(':')) return seg;
      const kind = PARAM_KIND[segments[i - 1] ?? ''];
      if (!kind) throw new Error(`No id kind for parameter ${seg} of ${path}: add it to PARAM_KIND`);
      return ids[kind];
    })
    .join('/');
}

function leaks(secrets: readonly string[], text: string, sent: string[]): string[] {
  return secrets.filter((s) => !sent.includes(s) && text.includes(s));
}

interface Sweep {
  /** Who calls, by role template kind. */
  roles: Partial<Record<keyof typeof ROLES, string>>;
  /** Ids the caller may use (the base of every body). */
  own: (kind: keyof typeof ROLES) => Ids;
  /** The ids that must be refused, put in paths, queries and body references. */
  target: Ids;
  /** Body references of these kinds get a variant with the target id (the others are not under test). */
  refKinds: ReadonlySet<Kind>;
  /** Texts and ids no answer may contain. */
  secrets: readonly string[];
  /** Admin control calls (the same body with own ids is accepted). */
  controls: boolean;
}

/** Calls every route Hono serves for each role, with the target's ids; returns the failures and cells. */
async function sweep(opts: Sweep) {
  const routes = [
    ...new Set(t.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
  ];
  const cells: string[] = [];
  const failures: string[] = [];
  const controlsDone = new Set<string>();
  const X = opts.target;

  for (const [kind, email] of Object.entries(opts.roles) as [keyof typeof ROLES, string][]) {
    const cookie = await t.login(email);
    const granted = new Set<string>(ROLE_TEMPLATES[kind].permissions);
    const own = opts.own(kind);
    for (const key of routes) {
      if (EXEMPT.has(key)) continue;
      const [method = 'GET', path = '/'] = key.split(' ');
      const fixture = BODIES[key];
      if (method !== 'GET' && fixture === undefined) {
        failures.push(`${key}: no body fixture in BODIES`);
        continue;
      }
      const check = async (
        variant: string,
        url: string,
        body: unknown,
        expected: number[],
        sent: string[],
        refusedIn?: (answer: string) => boolean,
      ) => {
        const res = await t.request(method, url, { cookie, body });
        const text = await res.text();
        cells.push(`${kind} ${key} ${variant}`);
        if (!expected.includes(res.status))
          failures.push(`${kind} ${key} [${variant}] -> ${res.status} ${text.slice(0, 120)}`);
        else if (res.status === 200 && refusedIn && !refusedIn(text))
          failures.push(`${kind} ${key} [${variant}] accepted the target id: ${text.slice(0, 160)}`);
        const leaked = leaks(opts.secrets, text, sent);
        if (leaked.length)
          failures.push(`${kind} ${key} [${variant}] leaked ${leaked.slice(0, 3).join(', ')}`);
      };
      const plainBody =
        fixture && typeof fixture === 'object'
          ? fixture.body(own)
          : method === 'GET' || fixture === 'no-body'
            ? undefined
            : {};

      if (path.includes(':')) {
        const url = fillPath(path, X);
        await check('path', url, plainBody, [403, 404], url.split('/'));
      } else if (method === 'GET') {
        // table/rowId: the History route (api/sync/history.ts) takes a row by table and id; schemaVersion:
        // the pull refuses an app that sends none (SPEC P15) before it reads anything.
        const q = `?projectId=${X.project}&userId=${X.user}&companyId=${X.company}&taskId=${X.task}&table=projects&rowId=${X.project}&schemaVersion=${SCHEMA_VERSION}`;
        await check(
          'query',
          `${path}${q}`,
          undefined,
          [200, 403, 404],
          [X.project, X.user, X.company, X.task],
        );
      }
      if (fixture && typeof fixture === 'object') {
        const ownPath = fillPath(path, own);
        const rule = ROUTE_PERMISSIONS[key as keyof typeof ROUTE_PERMISSIONS] as RouteRule;
        if (
          opts.controls &&
          kind === 'admin' &&
          isAllowed(rule, granted) &&
          !controlsDone.has(key) &&
          key !== 'POST /api/photos'
        ) {
          // Control: the same body with the caller's own ids is accepted, so a refusal below is about X's id.
          controlsDone.add(key);
          const res = await t.request(method, ownPath, { cookie, body: fixture.body(own) });
          if (res.status >= 300)
            failures.push(`control ${key} with own ids -> ${res.status} ${(await res.text()).slice(0, 160)}`);
        }
        for (const [field, refKind] of Object.entries(fixture.refs) as [string, Kind][]) {
          if (!opts.refKinds.has(refKind)) continue;
          const body = withRef(fixture.body(own), field, refKind === 'role' ? Number(X.role) : X[refKind]);
          const { refusedIn } = fixture;
          // Routes with per-item outcomes may answer 200; `refusedIn` then checks X's item was refused.
          const expected = refusedIn ? [200, 400, 403, 404] : [400, 403, 404];
          await check(
            `body.${field}`,
            ownPath,
            body,
            expected,
            [X[refKind]],
            refusedIn && ((a) => refusedIn(a, field)),
          );
        }
      } else if (!path.includes(':') && method !== 'GET') {
        await check('plain', path, plainBody, [200, 201, 400, 403, 404], []);
      }
    }
  }
  return { routes, cells, failures };
}

const ALL_KINDS = new Set(Object.values(PARAM_KIND));

describe('company isolation matrix', () => {
  it('refuses company B ids in path, query and body for every route and role of company A', async () => {
    const before = await snapshotB();
    const started = performance.now();
    const { routes, cells, failures } = await sweep({
      roles: ROLES,
      own: () => A,
      target: B,
      refKinds: ALL_KINDS,
      secrets: bSecrets,
      controls: true,
    });
    const elapsed = performance.now() - started;
    console.log(
      `isolation matrix: ${routes.length} routes x ${Object.keys(ROLES).length} roles = ${cells.length} calls in ${elapsed.toFixed(0)} ms`,
    );
    expect(failures).toEqual([]);
    expect(await snapshotB()).toBe(before);
    expect(cells.length).toBeGreaterThan(200);
  });
});

/**
 * Second axis (DESIGN.md section 6): the subcontractor of company A against every route with the ids of a
 * project of its own company it is not assigned to, and of that project's rows (task, log, photo and its
 * bytes, schedule change, change order). Every answer is a refusal or carries none of those rows, the
 * activity feed included, and the rows are unchanged. Ids that are company-wide by design (users, roles,
 * the company, own notifications) are not under test here.
 */
describe('assignment isolation matrix', () => {
  it('refuses a subcontractor the rows of an unassigned project on every route', async () => {
    const subId = await one(`SELECT id FROM users WHERE email = ?`, ROLES.subcontractor);
    const assignedSql = `SELECT project_id FROM subcontractor_assignments WHERE subcontractor_id = ? AND status = 'active'`;
    // A project with rows of every kind, none of them assigned to the subcontractor.
    const u = await one(
      `SELECT p.id FROM projects p WHERE p.company_id = ? AND p.deleted_at IS NULL AND p.id NOT IN (${assignedSql})
         AND NOT EXISTS (SELECT 1 FROM tasks WHERE project_id = p.id AND assignee_id = ?)
         AND EXISTS (SELECT 1 FROM change_orders WHERE project_id = p.id)
         AND EXISTS (SELECT 1 FROM photos WHERE project_id = p.id AND deleted_at IS NULL)
         AND EXISTS (SELECT 1 FROM project_logs WHERE project_id = p.id AND deleted_at IS NULL)
       ORDER BY p.id LIMIT 1`,
      A.company,
      subId,
      subId,
    );
    const uTask = await one(
      `SELECT id FROM tasks WHERE project_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1`,
      u,
    );
    await t.exec(
      `INSERT INTO schedule_changes (id, task_id, user_id, company_id, reason, new_date, status, created_at, updated_at, version)
       VALUES (?, ?, ?, ?, 'Crane down', '2027-03-01T00:00:00.000Z', 'pending', '2026-01-01', '2026-01-01', 999998)`,
      [newId(), uTask, A.user, A.company],
    );
    const U: Ids = {
      ...A,
      project: u,
      task: uTask,
      log: await one(`SELECT id FROM project_logs WHERE project_id = ? AND deleted_at IS NULL LIMIT 1`, u),
      photo: await one(`SELECT id FROM photos WHERE project_id = ? AND deleted_at IS NULL LIMIT 1`, u),
      objectKey: await one(
        `SELECT filename FROM photos WHERE project_id = ? AND deleted_at IS NULL LIMIT 1`,
        u,
      ),
      blobHash: await one(`SELECT sha256 FROM photos WHERE project_id = ? AND sha256 IS NOT NULL LIMIT 1`, u),
      scheduleChange: await one(`SELECT id FROM schedule_changes WHERE task_id = ? LIMIT 1`, uTask),
      changeOrder: await one(`SELECT id FROM change_orders WHERE project_id = ? LIMIT 1`, u),
    };
    const assigned = await one(`${assignedSql} ORDER BY project_id LIMIT 1`, subId);
    const S: Ids = {
      ...A,
      project: assigned,
      task: await one(`SELECT id FROM tasks WHERE project_id = ? AND deleted_at IS NULL LIMIT 1`, assigned),
      user: subId,
    };
    // U's rows: ids, and texts that occur nowhere else in the company (a shared title is not a leak).
    const uRows = `
      SELECT id, name AS text FROM projects WHERE id = @u
      UNION ALL SELECT id, title FROM tasks WHERE project_id = @u
      UNION ALL SELECT id, title FROM project_logs WHERE project_id = @u
      UNION ALL SELECT id, original_name FROM photos WHERE project_id = @u
      UNION ALL SELECT id, title FROM change_orders WHERE project_id = @u
      UNION ALL SELECT id, subject FROM communications WHERE project_id = @u
      UNION ALL SELECT id, risk_title FROM risk_assessments WHERE project_id = @u
      UNION ALL SELECT s.id, s.reason FROM schedule_changes s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = @u
      UNION ALL SELECT id, NULL FROM project_health_metrics WHERE project_id = @u`;
    const rows = await t.query<{ id: string; text: string | null }>(uRows, { u });
    const elsewhere = new Set(
      (
        await t.query<{ text: string | null }>(
          `SELECT name AS text FROM projects WHERE company_id = @c AND id != @u
           UNION ALL SELECT title FROM tasks WHERE company_id = @c AND (project_id IS NULL OR project_id != @u)
           UNION ALL SELECT title FROM project_logs WHERE company_id = @c AND project_id != @u
           UNION ALL SELECT original_name FROM photos WHERE company_id = @c AND project_id != @u
           UNION ALL SELECT title FROM change_orders WHERE company_id = @c AND project_id != @u
           UNION ALL SELECT subject FROM communications WHERE company_id = @c AND project_id != @u
           UNION ALL SELECT reason FROM schedule_changes s WHERE company_id = @c
             AND task_id NOT IN (SELECT id FROM tasks WHERE project_id = @u)`,
          { c: A.company, u },
        )
      ).map((r) => r.text),
    );
    const secrets = [
      ...new Set([
        ...rows.map((r) => r.id),
        ...rows.flatMap((r) => (r.text && r.text.length > 8 && !elsewhere.has(r.text) ? [r.text] : [])),
      ]),
    ];
    const snapshot = async () => {
      const parts: unknown[][] = [];
      for (const sql of [
        'SELECT * FROM projects WHERE id = @u',
        ...['tasks', 'project_logs', 'photos', 'change_orders', 'communications', 'risk_assessments'].map(
          (table) => `SELECT * FROM ${table} WHERE project_id = @u ORDER BY id`,
        ),
        'SELECT * FROM schedule_changes WHERE task_id IN (SELECT id FROM tasks WHERE project_id = @u) ORDER BY id',
      ]) {
        parts.push(await t.query(sql, { u }));
      }
      return JSON.stringify(parts);
    };
    const before = await snapshot();
    const started = performance.now();
    const { routes, cells, failures } = await sweep({
      roles: { subcontractor: ROLES.subcontractor },
      own: () => S,
      target: U,
      refKinds: new Set<Kind>([
        'project',
        'task',
        'log',
        'photo',
        'scheduleChange',
        'changeOrder',
        'objectKey',
        'blobHash',
      ]),
      secrets,
      controls: false,
    });
    console.log(
      `assignment matrix: ${routes.length} routes, ${cells.length} calls, ${secrets.length} secrets in ${(performance.now() - started).toFixed(0)} ms`,
    );
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
    expect(cells.some((cell) => cell.includes('GET /api/objects/image/:key'))).toBe(true);
    expect(cells.some((cell) => cell.includes('GET /api/activities'))).toBe(true);
    expect(secrets.length).toBeGreaterThan(30);
  });
});
