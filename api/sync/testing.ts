import crypto from 'node:crypto';
import { newId } from '#shared/ids.ts';
import {
  SCHEMA_VERSION,
  type Mutation,
  type MutationOp,
  type PullResponse,
  type PushResponse,
  type SyncTable,
} from '#shared/sync-protocol.ts';
import { schema } from '../db/index.ts';
import type { TestApp } from '../test-utils.ts';

/** A simulated device for the sync tests: numbers its mutations gap-free, as the client does (SPEC C2). */
export function device(t: TestApp, cookie: string, clientId: string = newId()) {
  let next = 1;
  return {
    clientId,
    /** The next mutation of this device (ids 1, 2, 3...). `clientTime` defaults to the server's clock. */
    mutation(
      op: MutationOp,
      table: SyncTable,
      rowId: string,
      data: Record<string, unknown> = {},
      opts: { baseVersion?: number | null; clientTime?: number; baseValues?: Record<string, unknown> } = {},
    ): Mutation {
      return {
        id: next++,
        op,
        table,
        rowId,
        data,
        baseVersion: opts.baseVersion ?? null,
        clientTime: opts.clientTime ?? t.deps.now().getTime(),
        ...(opts.baseValues === undefined ? {} : { baseValues: opts.baseValues }),
      };
    },
    async push(mutations: Mutation[], schemaVersion: number = SCHEMA_VERSION, acknowledged?: number) {
      const res = await t.request('POST', '/api/sync/push', {
        cookie,
        body: { clientId, schemaVersion, mutations, ...(acknowledged === undefined ? {} : { acknowledged }) },
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as PushResponse & Record<string, unknown>,
      };
    },
    async pull(cursor = 0, limit?: number) {
      const q = new URLSearchParams({
        clientId,
        cursor: String(cursor),
        schemaVersion: String(SCHEMA_VERSION),
      });
      if (limit !== undefined) q.set('limit', String(limit));
      const res = await t.request('GET', `/api/sync/pull?${q}`, { cookie });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as PullResponse & Record<string, unknown>,
      };
    },
  };
}

export type Device = ReturnType<typeof device>;

/** One value of one row, read straight from the app's database (SQLite or PostgreSQL). */
export async function cell(t: TestApp, table: SyncTable, id: string, column: string): Promise<unknown> {
  const [row] = await t.query<{ v: unknown }>(`SELECT ${column} AS v FROM ${table} WHERE id = ?`, [id]);
  return row?.v;
}

export async function lastMutationId(t: TestApp, clientId: string): Promise<number | undefined> {
  const [row] = await t.query<{ v: number }>(
    'SELECT last_mutation_id AS v FROM sync_clients WHERE client_id = ?',
    [clientId],
  );
  return row?.v;
}

export async function firstId(t: TestApp, sql: string, ...params: unknown[]): Promise<string> {
  const [row] = await t.query<{ id: string }>(sql, params);
  if (!row) throw new Error(`test setup found nothing for: ${sql}`);
  return row.id;
}

/** Assigns a subcontractor to a project of the company, as an active assignment, straight in the database. */
export async function assignSubcontractor(
  t: TestApp,
  subcontractorId: string,
  projectId: string,
  companyDomain = 'summit.test',
): Promise<void> {
  const companyId = t.companyId(companyDomain);
  await t.orm((db) =>
    db
      .insert(schema.subcontractorAssignments)
      .values({ id: newId(), subcontractorId, projectId, companyId, status: 'active' })
      .run(),
  );
}

/** A small valid PNG (1x1) followed by random bytes, so every call has its own hash. */
export function uniquePng(): Uint8Array {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  return new Uint8Array(Buffer.concat([png, crypto.randomBytes(16)]));
}

export const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * A new project (created by `adminCookie`) with a communication and a pending change order raised on it
 * from a device of `requesterCookie` (the change order notifies its approvers): their ids.
 */
export async function projectWithRequests(
  t: TestApp,
  adminCookie: string,
  requesterCookie: string,
  name: string,
) {
  const created = await t.request('POST', '/api/projects', {
    cookie: adminCookie,
    body: { name, location: 'Lot 9' },
  });
  const project = ((await created.json()) as { id: string }).id;
  const requester = device(t, requesterCookie);
  const comm = newId();
  const order = newId();
  await requester.push([
    requester.mutation('create', 'communications', comm, { projectId: project, subject: 'S', message: 'M' }),
    requester.mutation('create', 'change_orders', order, {
      projectId: project,
      title: 'Extra piles',
      description: 'Soft ground',
      costImpact: 500000,
    }),
  ]);
  return { project, comm, order };
}
