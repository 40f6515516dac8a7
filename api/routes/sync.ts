import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';
import { CARRIED_CHANGES_MAX, type ChangesEvent, type VersionEvent } from '#shared/sync-protocol.ts';
import type { AppDeps, AppEnv, SessionUser } from '../context.ts';
import { jsonWithLength, parseWith, readJson } from '../http.ts';
import { putBlob } from '../sync/blobs.ts';
import { ConflictQuerySchema, listConflicts } from '../sync/conflicts.ts';
import { eventStreams, syncNotifier } from '../sync/events.ts';
import { readSession } from '../auth/session.ts';
import { HistoryQuerySchema, rowHistory } from '../sync/history.ts';
import { PullQuerySchema, pull } from '../sync/pull.ts';
import { checkSchemaVersion, push } from '../sync/push.ts';
import { claimNamedUploads } from '../storage/uploads.ts';
import { inSyncTurn, syncTurnsHalfFull } from '../sync/turns.ts';
import { read, sessionUser } from './helpers.ts';

/** Heartbeat of the event stream: a comment line keeps proxies from closing an idle connection. */
export const eventStreamOptions = { heartbeatMs: 25_000 };

/**
 * GET /api/sync/events query (SPEC L16): a device that gives its client id, cursor and sync schema gets the
 * changes themselves when they fit in one event. Without them (older apps) the stream only pokes.
 */
const EventsQuerySchema = PullQuerySchema.pick({ clientId: true, schemaVersion: true }).extend({
  cursor: PullQuerySchema.shape.cursor.removeDefault().optional(),
});
type EventsQuery = z.infer<typeof EventsQuerySchema>;

/** Whether a stream may carry changes: the device said where it is, and its app is not too old to sync. */
const carriesChanges = (query: EventsQuery) =>
  query.clientId !== undefined &&
  query.cursor !== undefined &&
  !checkSchemaVersion({ schemaVersion: query.schemaVersion ?? 1 });

/**
 * SPEC L16: the pull the device would make after a poke, made here with the same function, scope and
 * checks as GET /api/sync/pull. Null when that pull would not be one complete page (a reset, more than
 * CARRIED_CHANGES_MAX changes) or should not run now (the sync turns half full): the stream pokes instead, and
 * the device pulls as it always has.
 */
async function carriedChanges(
  deps: AppDeps,
  user: SessionUser,
  query: EventsQuery,
  from: number,
): Promise<ChangesEvent | null> {
  const { database, now } = deps;
  if (syncTurnsHalfFull()) return null;
  const pulled = await inSyncTurn(() =>
    pull(database, user, { ...query, cursor: from, limit: CARRIED_CHANGES_MAX }, now()),
  ).catch(() => null);
  // Nothing new since `from` (a stream's first event, for a device already up to date): a poke says as much.
  if (!pulled || 'reset' in pulled || pulled.hasMore || pulled.cursor <= from) return null;
  return { from, cursor: pulled.cursor, changes: pulled.changes };
}

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
    const query = parseWith(EventsQuerySchema, c.req.query());
    const notifier = syncNotifier(deps.database);
    const slot = eventStreams(deps.database).open(user);
    return streamSSE(c, async (stream) => {
      let sent = -1;
      // SPEC L16: where the device is, as far as this stream knows (its cursor at connect, then each version
      // announced, which the device pulls up to); null for a device that did not say (it is only poked).
      let from = carriesChanges(query) ? query.cursor! : null;
      let wake: (() => void) | undefined;
      let latest = -1;
      const unsubscribe = await notifier.subscribe(user.companyId, (version) => {
        latest = version;
        wake?.();
      });
      latest = Math.max(latest, await notifier.current(user.companyId));
      stream.onAbort(() => wake?.());
      slot.onClose(() => wake?.());
      // Checked before every write: a signed-out, expired or deactivated session hears nothing more. The
      // session's user as it is now (role, permissions) is the one whose changes a `changes` event carries.
      const signedInUser = async () =>
        slot.closed ? null : readSession(deps, user.sessionId, { touch: false });
      try {
        while (!stream.aborted && !stream.closed && !slot.closed) {
          if (latest !== sent) {
            const current = await signedInUser();
            if (!current) break;
            // From 0 it would be a first download, which the device makes with its own pulls.
            const carried = from ? await carriedChanges(deps, current, query, from) : null;
            if (carried) {
              // The pull may have seen a commit whose notification has not come yet: this event announces it.
              sent = latest = Math.max(latest, carried.cursor);
              await stream.writeSSE({ event: 'changes', data: JSON.stringify(carried), id: String(sent) });
            } else {
              sent = latest;
              const event: VersionEvent = { version: latest };
              await stream.writeSSE({ event: 'version', data: JSON.stringify(event), id: String(latest) });
            }
            if (from !== null) from = Math.max(from, sent);
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
            if (!(await signedInUser())) break;
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
