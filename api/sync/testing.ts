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
      opts: { baseVersion?: number | null; clientTime?: number } = {},
    ): Mutation {
      return {
        id: next++,
        op,
        table,
        rowId,
        data,
        baseVersion: opts.baseVersion ?? null,
        clientTime: opts.clientTime ?? t.deps.now().getTime(),
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
      const q = new URLSearchParams({ clientId, cursor: String(cursor) });
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

/** One value of one row, read straight from SQLite. */
export function cell(t: TestApp, table: SyncTable, id: string, column: string): unknown {
  const row = t.db.$client.prepare(`SELECT ${column} AS v FROM ${table} WHERE id = ?`).get(id) as
    { v: unknown } | undefined;
  return row?.v;
}

export function lastMutationId(t: TestApp, clientId: string): number | undefined {
  const row = t.db.$client
    .prepare('SELECT last_mutation_id AS v FROM sync_clients WHERE client_id = ?')
    .get(clientId) as { v: number } | undefined;
  return row?.v;
}

export function firstId(t: TestApp, sql: string, ...params: unknown[]): string {
  const row = t.db.$client.prepare(sql).get(...params) as { id: string } | undefined;
  if (!row) throw new Error(`test setup found nothing for: ${sql}`);
  return row.id;
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
