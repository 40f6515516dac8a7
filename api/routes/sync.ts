import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { VersionEvent } from '#shared/sync-protocol.ts';
import type { AppEnv } from '../context.ts';
import { jsonWithLength, parseWith, readJson } from '../http.ts';
import { putBlob } from '../sync/blobs.ts';
import { ConflictQuerySchema, listConflicts } from '../sync/conflicts.ts';
import { eventStreams, syncNotifier } from '../sync/events.ts';
import { readSession } from '../auth/session.ts';
import { HistoryQuerySchema, rowHistory } from '../sync/history.ts';
import { PullQuerySchema, pull } from '../sync/pull.ts';
import { checkSchemaVersion, push } from '../sync/push.ts';
import { claimNamedUploads } from '../storage/uploads.ts';
import { inSyncTurn } from '../sync/turns.ts';
import { read, sessionUser } from './helpers.ts';

/** Heartbeat of the event stream: a comment line keeps proxies from closing an idle connection. */
export const eventStreamOptions = { heartbeatMs: 25_000 };

/** The offline sync protocol (sync/SPEC.md): push, pull, photo bytes, pokes, the conflict history and
 * each record's History. */
export const syncRoutes = new Hono<AppEnv>()
  .post('/push', async (c) => {
    const { database, now } = c.var.deps;
    const body = await readJson(c);
    // A log pushed from a device may be the first use of a presigned upload (ADR 024).
    await claimNamedUploads(c.var.deps, sessionUser(c), body, 'skip');
    const answer = await inSyncTurn(() => push(database, sessionUser(c), body, now()));
    return c.json(answer.body, answer.status);
  })
  .get('/pull', async (c) => {
    const { database, now } = c.var.deps;
    const query = parseWith(PullQuerySchema, c.req.query());
    // SPEC P15: an app too old for the tables the server mirrors is told to update, as on push (P2); one
    // that sends no version predates the parameter, so it is version 1.
    const refusal = checkSchemaVersion({ schemaVersion: query.schemaVersion ?? 1 });
    if (refusal) return c.json(refusal.body, refusal.status);
    return jsonWithLength(c, await inSyncTurn(() => pull(database, sessionUser(c), query, now())));
  })
  .put('/blobs/:sha256', async (c) => {
    const { database, store, now } = c.var.deps;
    const answer = await putBlob(database, store, sessionUser(c), c.req.param('sha256'), c.req.raw, now());
    return c.json(answer.body, answer.status);
  })
  .get('/events', (c) => {
    const user = sessionUser(c);
    const deps = c.var.deps;
    const notifier = syncNotifier(deps.database);
    const slot = eventStreams(deps.database).open(user);
    return streamSSE(c, async (stream) => {
      let sent = -1;
      let wake: (() => void) | undefined;
      let latest = -1;
      const unsubscribe = await notifier.subscribe(user.companyId, (version) => {
        latest = version;
        wake?.();
      });
      latest = Math.max(latest, await notifier.current(user.companyId));
      stream.onAbort(() => wake?.());
      slot.onClose(() => wake?.());
      // Checked before every write: a signed-out, expired or deactivated session hears nothing more.
      const stillSignedIn = async () =>
        !slot.closed && (await readSession(deps, user.sessionId, { touch: false })) !== null;
      try {
        while (!stream.aborted && !stream.closed && !slot.closed) {
          if (latest !== sent) {
            if (!(await stillSignedIn())) break;
            sent = latest;
            const event: VersionEvent = { version: latest };
            await stream.writeSSE({ event: 'version', data: JSON.stringify(event), id: String(latest) });
            continue;
          }
          const idle = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), eventStreamOptions.heartbeatMs);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
            if (slot.closed || stream.aborted) wake();
          });
          wake = undefined;
          if (idle && !stream.aborted) {
            if (!(await stillSignedIn())) break;
            await stream.write(': ping\n\n');
          }
        }
      } finally {
        unsubscribe();
        slot.release();
      }
    });
  })
  .get('/conflicts', async (c) => {
    const query = parseWith(ConflictQuerySchema, c.req.query());
    return c.json(await read(c, (conn) => listConflicts(conn, sessionUser(c), query)));
  })
  .get('/history', async (c) => {
    const query = parseWith(HistoryQuerySchema, c.req.query());
    return c.json(await read(c, (conn) => rowHistory(conn, sessionUser(c), query)));
  });
