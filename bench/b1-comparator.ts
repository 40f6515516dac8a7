// B1 comparators: servers answering the same mix as the app, on the same database file, with the work the
// app's route cannot skip and nothing else:
//   GET /api/tasks         the session lookup (token hash, one SELECT joining user and company, expiry
//                          checks), the same list SQL as `listVisibleTasks` (prepared once) and JSON.stringify
//   PATCH /api/tasks/:id   the session lookup, JSON.parse of the body, one IMMEDIATE transaction with the two
//                          statements every write needs (bump the company's version, UPDATE ... RETURNING the
//                          row) and JSON.stringify of the row
// as plain node:http (the budget's baseline), Fastify 5 and Express 5 (informative; ETag off, as the app).
// Usage: node --import tsx bench/b1-comparator.ts <node-http|fastify|express> <database>; prints
// `READY {"port":..}`.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';

const [kind, databasePath] = process.argv.slice(2);
if (!kind || !databasePath) throw new Error('usage: b1-comparator.ts <kind> <database>');

const sqlite = new Database(databasePath);
// The app's pragmas (DESIGN.md section 4): the write's commit waits for the same fsync.
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = FULL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');

interface Viewer {
  userId: string;
  companyId: string;
}
const session = sqlite.prepare<
  [string],
  {
    user_id: string;
    company_id: string;
    expire: string;
    sess: string;
    is_active: number;
    company_active: number;
  }
>(
  `SELECT s.expire, s.sess, u.id AS user_id, u.company_id, u.is_active, c.is_active AS company_active
   FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id WHERE s.sid = ?`,
);
function viewer(cookie: string | undefined): Viewer | undefined {
  const token = /(?:^|;\s*)sc_session=([^;]+)/.exec(cookie ?? '')?.[1];
  if (!token) return undefined;
  const row = session.get(crypto.createHash('sha256').update(token).digest('hex'));
  if (!row || !row.is_active || !row.company_active) return undefined;
  const sess = JSON.parse(row.sess) as { lastSeenAt: string; idleMs: number };
  const now = Date.now();
  if (now >= Date.parse(row.expire) || now >= Date.parse(sess.lastSeenAt) + sess.idleMs) return undefined;
  return { userId: row.user_id, companyId: row.company_id };
}

// The SQL of `listVisibleTasks` for a role that sees the whole company (api/mutators/tasks.ts).
const COLUMNS = `id, title, description, project_id AS projectId, assignee_id AS assigneeId,
  company_id AS companyId, category, status, priority, due_date AS dueDate, completed_at AS completedAt,
  created_at AS createdAt, is_milestone AS isMilestone, estimated_hours AS estimatedHours, version,
  updated_at AS updatedAt, updated_by AS updatedBy`;
const list = sqlite.prepare<[string], { isMilestone: number | boolean }>(
  `SELECT ${COLUMNS} FROM tasks WHERE tasks.company_id = ? AND tasks.deleted_at IS NULL ORDER BY created_at DESC, id DESC`,
);
const bump = sqlite
  .prepare<[string], number>(
    'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version',
  )
  .pluck();
const update = sqlite.prepare<
  [string, number, string, string, string, string],
  { isMilestone: number | boolean }
>(
  `UPDATE tasks SET status = ?, version = ?, updated_at = ?, updated_by = ? WHERE id = ? AND company_id = ?
   AND deleted_at IS NULL RETURNING ${COLUMNS}`,
);
const write = sqlite.transaction((v: Viewer, id: string, status: string) => {
  const version = bump.get(v.companyId)!;
  return update.get(status, version, new Date().toISOString(), v.userId, id, v.companyId);
});

type Answer = { status: number; body: string };
const denied: Answer = { status: 401, body: '{"message":"Sign in","code":"UNAUTHENTICATED"}' };

function getTasks(cookie: string | undefined): Answer {
  const v = viewer(cookie);
  if (!v) return denied;
  const rows = list.all(v.companyId);
  for (const r of rows) r.isMilestone = r.isMilestone === 1;
  return { status: 200, body: JSON.stringify(rows) };
}

function patchTask(cookie: string | undefined, id: string, text: string): Answer {
  const v = viewer(cookie);
  if (!v) return denied;
  const { status } = JSON.parse(text) as { status: string };
  const row = write.immediate(v, id, status);
  if (!row) return { status: 404, body: '{"message":"Task not found","code":"NOT_FOUND"}' };
  row.isMilestone = row.isMilestone === 1;
  return { status: 200, body: JSON.stringify(row) };
}

const TYPE = 'application/json; charset=UTF-8';
const PATCH = /^\/api\/tasks\/([^/?]+)$/;
const ready = (port: number) => console.log(`READY ${JSON.stringify({ port })}`);
process.on('SIGTERM', () => {
  sqlite.close();
  process.exit(0);
});

function nodeHttp(): void {
  const server = http.createServer((req, res) => {
    const send = (a: Answer) => {
      const bytes = Buffer.from(a.body);
      res.writeHead(a.status, { 'content-type': TYPE, 'content-length': bytes.length });
      res.end(bytes);
    };
    if (req.method === 'GET' && req.url === '/api/tasks') return send(getTasks(req.headers.cookie));
    const id = req.method === 'PATCH' ? PATCH.exec(req.url ?? '')?.[1] : undefined;
    if (!id) return res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => send(patchTask(req.headers.cookie, id, Buffer.concat(chunks).toString('utf8'))));
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
}

async function fastifyServer(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  // The body as text, parsed in the handler as node:http does.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.get('/api/tasks', (req, reply) => {
    const a = getTasks(req.headers.cookie);
    void reply.code(a.status).header('content-type', TYPE).send(a.body);
  });
  app.patch<{ Params: { id: string } }>('/api/tasks/:id', (req, reply) => {
    const a = patchTask(req.headers.cookie, req.params.id, req.body as string);
    void reply.code(a.status).header('content-type', TYPE).send(a.body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready((app.server.address() as AddressInfo).port);
}

interface ExpressRequest {
  headers: http.IncomingHttpHeaders;
  params: Record<string, string>;
  body: string;
}
interface ExpressResponse {
  status(code: number): ExpressResponse;
  type(t: string): ExpressResponse;
  send(b: string): void;
}
type Handler = (req: ExpressRequest, res: ExpressResponse) => void;
interface ExpressApp {
  set(name: string, value: unknown): void;
  get(path: string, handler: Handler): void;
  patch(path: string, parser: unknown, handler: Handler): void;
  listen(port: number, host: string, cb: () => void): http.Server;
}
type Express = (() => ExpressApp) & { text(opts: { type: string }): unknown };

function expressServer(): void {
  // Express ships no types and @types/express is not a dependency: a minimal local shape is enough here.
  const express = createRequire(import.meta.url)('express') as Express;
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  const send = (res: ExpressResponse, a: Answer) => res.status(a.status).type(TYPE).send(a.body);
  app.get('/api/tasks', (req, res) => send(res, getTasks(req.headers.cookie)));
  app.patch('/api/tasks/:id', express.text({ type: 'application/json' }), (req, res) =>
    send(res, patchTask(req.headers.cookie, req.params.id!, req.body)),
  );
  const server = app.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
}

switch (kind) {
  case 'node-http':
    nodeHttp();
    break;
  case 'fastify':
    await fastifyServer();
    break;
  case 'express':
    expressServer();
    break;
  default:
    throw new Error(`unknown comparator ${kind}`);
}
