import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgPool } from '../api/db/database.ts';
import { templateCopy } from '../api/test-global-setup.ts';
import { newId } from '#shared/ids.ts';
import {
  SCHEMA_VERSION,
  type Mutation,
  type PullResponse,
  type PushResponse,
} from '#shared/sync-protocol.ts';
import { createTestApp, type TestApp } from '../api/test-utils.ts';
import { childServer, signIn, until, type ChildServer } from './test-support.ts';

// Issue 15: two API processes on one PostgreSQL database, as behind a load balancer. A device may push to
// one and pull from the other; sessions and the sign-in throttle are the database's, not a process's; a push
// to one pokes the devices listening on the other; and a kill -9 of one in the middle of a batch loses
// nothing that was acknowledged. Runs in the vitest project "postgres" only (vite.config.ts).

let t: TestApp;
let one: ChildServer;
let two: ChildServer;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  if (t.backend !== 'postgres')
    throw new Error('Two processes share a PostgreSQL database: run in project "postgres"');
  [one, two] = [await childServer(undefined, t.databaseUrl), await childServer(undefined, t.databaseUrl)];
  await Promise.all([one.start(), two.start()]);
  const [project] = await t.query<{ id: string }>(
    'SELECT id FROM projects WHERE company_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1',
    [t.companyId('summit.test')],
  );
  projectId = project!.id;
}, 120_000);

afterAll(async () => {
  for (const server of [one, two]) {
    await server?.kill();
    server?.dispose();
  }
  await t?.close();
});

const send = (server: ChildServer, cookie: string, path: string, body?: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      cookie,
      origin: server.origin,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A device: its mutations numbered gap-free (SPEC C2), each creating a task. */
function device(cookie: string, clientId = newId()) {
  let next = 1;
  return {
    clientId,
    creates(count: number): Mutation[] {
      return Array.from({ length: count }, () => ({
        id: next++,
        op: 'create' as const,
        table: 'tasks' as const,
        rowId: newId(),
        data: { title: `Pour footing ${next}`, category: 'project', projectId },
        baseVersion: null,
        clientTime: Date.now(),
      }));
    },
    push: (server: ChildServer, mutations: Mutation[]) =>
      send(server, cookie, '/api/sync/push', { clientId, schemaVersion: SCHEMA_VERSION, mutations }),
    async pull(server: ChildServer, cursor: number): Promise<PullResponse> {
      const q = new URLSearchParams({
        clientId,
        cursor: String(cursor),
        schemaVersion: String(SCHEMA_VERSION),
      });
      return (await (await send(server, cookie, `/api/sync/pull?${q}`)).json()) as PullResponse;
    },
  };
}

const taskCount = async (ids: string[]) =>
  Number(
    (
      await t.query<{ n: number }>(
        `SELECT count(*) AS n FROM tasks WHERE id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      )
    )[0]!.n,
  );

describe('two API processes on one PostgreSQL', () => {
  it('start together on an empty database: one writes the demo, both serve it', async () => {
    const url = await templateCopy(inject('postgresCluster')!, false);
    const pair = [await childServer(undefined, url), await childServer(undefined, url)];
    try {
      await Promise.all(pair.map((server) => server.start()));
      for (const server of pair) await signIn(server.baseUrl, server.origin, 'manager@summit.test');
      const pool = pgPool(url, 1);
      const counts = await pool.query<{ users: number; companies: number }>(
        'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM companies) AS companies',
      );
      await pool.end();
      // Exactly the demo once: what the seeded template of this run holds.
      const [demo] = await t.query<{ users: number; companies: number }>(
        'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM companies) AS companies',
      );
      expect(counts.rows[0]).toEqual(demo);
    } finally {
      for (const server of pair) {
        await server.kill();
        server.dispose();
      }
    }
  }, 120_000);

  it('accept on one a session started on the other', async () => {
    const crew = await signIn(one.baseUrl, one.origin, 'crew@summit.test');
    const res = await send(two, crew.cookie, '/api/auth/user');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(crew.userId);
  });

  it('count wrong passwords sent to either process against one budget: the 11th is refused by both', async () => {
    const wrong = (server: ChildServer) =>
      fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.origin },
        body: JSON.stringify({ email: 'accountant@summit.test', password: 'not the password at all' }),
      });
    for (let i = 0; i < 10; i++) expect((await wrong(i % 2 ? one : two)).status).toBe(401);
    for (const server of [one, two]) {
      const refused = await wrong(server);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('poke a device listening on one process when another device pushes to the other, which then pulls it', async () => {
    const manager = await signIn(one.baseUrl, one.origin, 'manager@summit.test');
    const a = device(manager.cookie);
    const b = device(manager.cookie);
    const first = await b.pull(two, 0);
    const cursor = 'cursor' in first ? first.cursor : 0;
    // B's event stream, on process two.
    const events = new AbortController();
    const stream = await fetch(`${two.baseUrl}/api/sync/events`, {
      headers: { cookie: manager.cookie },
      signal: events.signal,
    });
    expect(stream.status).toBe(200);
    const versions: number[] = [];
    const reading = (async () => {
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        for (const m of text.matchAll(/event: version\ndata: (\{[^\n]*\})/g)) {
          const v = (JSON.parse(m[1]!) as { version: number }).version;
          if (!versions.includes(v)) versions.push(v);
        }
      }
    })().catch(() => undefined);
    await until(() => versions.length > 0);

    const [created] = a.creates(1);
    const pushed = await a.push(one, [created!]);
    expect(pushed.status).toBe(200);
    const { results } = (await pushed.json()) as PushResponse;
    const version = results[0]!.version!;
    await until(() => versions.includes(version));
    const page = await b.pull(two, cursor);
    expect('changes' in page && page.changes.map((c) => c.id)).toContain(created!.rowId);
    events.abort();
    await reading;
  });

  it('loses nothing acknowledged when one is killed -9 in the middle of a batch; the other takes the retry', async () => {
    const manager = await signIn(one.baseUrl, one.origin, 'manager@summit.test');
    const a = device(manager.cookie);
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const batch = a.creates(100);
      const res = await a.push(one, batch);
      expect(res.status).toBe(200);
      acknowledged.push(...batch.map((m) => m.rowId));
    }
    // The fourth batch is in flight when the process dies: it is killed once its transaction is open in
    // PostgreSQL (a batch of 100 takes tens of milliseconds there), so its answer never comes.
    const inFlight = a.creates(100);
    const answer = a.push(one, inFlight).then(
      (r) => r.status,
      () => 'no answer',
    );
    await until(
      async () =>
        (
          await t.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND xact_start IS NOT NULL AND query LIKE '%tasks%'`,
          )
        ).length > 0,
    );
    await one.kill('SIGKILL');
    expect(await answer).toBe('no answer');

    expect(await taskCount(acknowledged)).toBe(300);
    // All of the batch or none of it, never a part: it is one transaction.
    expect([0, 100]).toContain(await taskCount(inFlight.map((m) => m.rowId)));
    // The device sends it again, to the process still running: applied, or replayed, exactly once.
    const retry = await a.push(two, inFlight);
    expect(retry.status).toBe(200);
    const { results } = (await retry.json()) as PushResponse;
    expect(results.map((r) => r.status)).toEqual(inFlight.map(() => 'applied'));
    expect(await taskCount(inFlight.map((m) => m.rowId))).toBe(100);
    expect(await taskCount(acknowledged)).toBe(300);
    const [client] = await t.query<{ last: number }>(
      'SELECT last_mutation_id AS last FROM sync_clients WHERE client_id = ?',
      [a.clientId],
    );
    expect(client!.last).toBe(400);
  });
});
