// B1 comparators: servers that answer GET /api/tasks with the same JSON bytes the real app returned.
//   node-http            bare node:http, the bytes fetched once (the budget's baseline)
//   node-http-stringify  bare node:http, JSON.stringify of the parsed list on every request (informative)
//   node-http-db         bare node:http running the app's own list query (listVisibleTasks, prepared) on the
//                        same database file and JSON.stringify: the data cost without Hono, session and headers
//   fastify              Fastify 5, the same bytes
//   express              Express 5, the same bytes (ETag off: the app computes none either)
// Usage: node --import tsx bench/b1-comparator.ts <kind> <body.json> [<database> <companyId>];
// prints `READY {"port":..}`.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const [kind, bodyFile, databasePath, companyId] = process.argv.slice(2);
if (!kind || !bodyFile) throw new Error('usage: b1-comparator.ts <kind> <body.json>');
const body = fs.readFileSync(bodyFile);
const parsed: unknown = JSON.parse(body.toString('utf8'));
const TYPE = 'application/json; charset=UTF-8';
const PATH = '/api/tasks';

const ready = (port: number) => console.log(`READY ${JSON.stringify({ port })}`);

function nodeHttp(produce: () => Buffer): void {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== PATH) {
      res.writeHead(404).end();
      return;
    }
    const bytes = produce();
    res.writeHead(200, { 'content-type': TYPE, 'content-length': bytes.length });
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
  process.on('SIGTERM', () => process.exit(0));
}

async function fastifyServer(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get(PATH, (_req, reply) => {
    void reply.header('content-type', TYPE).send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready((app.server.address() as AddressInfo).port);
  process.on('SIGTERM', () => process.exit(0));
}

interface ExpressResponse {
  type(t: string): ExpressResponse;
  send(b: Buffer): void;
}
interface ExpressApp {
  set(name: string, value: unknown): void;
  get(path: string, handler: (req: unknown, res: ExpressResponse) => void): void;
  listen(port: number, host: string, cb: () => void): http.Server;
}

function expressServer(): void {
  // Express ships no types and @types/express is not a dependency: a minimal local shape is enough here.
  const express = createRequire(import.meta.url)('express') as () => ExpressApp;
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.get(PATH, (_req, res) => res.type(TYPE).send(body));
  const server = app.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
  process.on('SIGTERM', () => process.exit(0));
}

async function nodeHttpDb(): Promise<void> {
  if (!databasePath || !companyId) throw new Error('node-http-db needs <database> <companyId>');
  const { openDb } = await import('#api/db/index.ts');
  const { listVisibleTasks } = await import('#api/mutators/tasks.ts');
  const db = openDb(databasePath);
  // Only what listVisibleTasks reads: the company and a role that is not scoped to assignments.
  const user = { companyId, role: 'admin' } as Parameters<typeof listVisibleTasks>[1];
  nodeHttp(() => Buffer.from(JSON.stringify(listVisibleTasks(db, user))));
}

switch (kind) {
  case 'node-http':
    nodeHttp(() => body);
    break;
  case 'node-http-stringify':
    nodeHttp(() => Buffer.from(JSON.stringify(parsed)));
    break;
  case 'node-http-db':
    await nodeHttpDb();
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
