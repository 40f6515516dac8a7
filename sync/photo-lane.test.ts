import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb, type BlobRecord } from './db.ts';
import { discardIssue, retryIssue } from './issues.ts';
import { addPhoto, mutate, newRowId } from './mutate.ts';
import { createSyncEngine } from './engine.ts';
import { createPhotoLane, evictUploadedBlobs, readBlob } from './photo-lane.ts';
import type { FetchLike } from './http.ts';
import {
  cookieFetch,
  manualEnvironment,
  manualTimers,
  newDevice,
  seededRandom,
  startServer,
  switchableFetch,
  tinyJpeg,
  until,
  type Device,
  type LiveServer,
} from './test-support.ts';

let s: LiveServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const serverPhoto = async (id: string): Promise<Record<string, unknown> | undefined> =>
  (await s.t.query('SELECT * FROM photos WHERE id = ?', [id]))[0];

async function synced(options: Parameters<typeof newDevice>[2] = {}): Promise<Device> {
  const d = await newDevice(s, 'crew@summit.test', options);
  await d.engine.syncNow();
  return d;
}

const projectOf = async (d: Device) => (await d.db.projects.orderBy('id').first())!.id;

describe('photo lane', () => {
  it('[C9] the photo row syncs first, its bytes follow once the create is acknowledged, and it turns present', async () => {
    const d = await synced();
    const photo = await addPhoto(d.db, {
      projectId: await projectOf(d),
      bytes: tinyJpeg(1),
      mimeType: 'image/jpeg',
      description: 'Slab edge',
    });
    await d.engine.syncNow();
    const push = d.net.log.indexOf('POST /api/sync/push');
    const put = d.net.log.indexOf(`PUT /api/sync/blobs/${photo.sha256}`);
    expect(push).toBeGreaterThanOrEqual(0);
    expect(put).toBeGreaterThan(push);
    expect(await serverPhoto(photo.id)).toMatchObject({
      blob_status: 'present',
      sha256: photo.sha256,
      mime_type: 'image/jpeg',
    });
    expect(await d.db.photos.get(photo.id)).toMatchObject({ blobStatus: 'present' });
    expect((await d.db.blobs.get(photo.sha256!))?.status).toBe('uploaded');
    expect(d.engine.status.get().blobsPending).toBe(0);
  });

  it('[C9] bytes wait while their photo create is not acknowledged', async () => {
    const d = await synced();
    d.net.failWith.set('/api/sync/push', 503);
    const photo = await addPhoto(d.db, {
      projectId: await projectOf(d),
      bytes: tinyJpeg(2),
      mimeType: 'image/jpeg',
    });
    await d.engine.syncNow();
    expect(d.net.log.some((l) => l.startsWith('PUT '))).toBe(false);
    expect(d.engine.status.get()).toMatchObject({ pending: 1, blobsPending: 1 });
    d.net.failWith.clear();
    await d.engine.syncNow();
    expect((await serverPhoto(photo.id))?.blob_status).toBe('present');
  });

  it('[C9] a failing upload never holds back task and log edits, and retries on its own timer', async () => {
    const timers = manualTimers();
    const d = await synced({ timers, now: timers.now });
    const projectId = await projectOf(d);
    d.net.failWith.set('/api/sync/blobs', 503);
    const photo = await addPhoto(d.db, { projectId, bytes: tinyJpeg(3), mimeType: 'image/jpeg' });
    const task = newRowId();
    const log = newRowId();
    await mutate(d.db, 'tasks', 'create', task, { title: 'Check rebar spacing', projectId });
    await mutate(d.db, 'project_logs', 'create', log, { title: 'Inspection passed', projectId });
    await d.engine.syncNow();
    expect(d.engine.status.get()).toMatchObject({ pending: 0, blobsPending: 1, error: null });
    expect((await s.t.query('SELECT id FROM tasks WHERE id = ?', [task]))[0]).toBeTruthy();
    expect((await s.t.query('SELECT id FROM project_logs WHERE id = ?', [log]))[0]).toBeTruthy();
    expect((await serverPhoto(photo.id))?.blob_status).toBe('pending');
    const blob = (await d.db.blobs.get(photo.sha256!))!;
    expect(blob.attempts).toBe(1);
    expect(blob.nextAttemptAt).toBeGreaterThan(timers.now());

    d.net.failWith.clear();
    timers.advance(blob.nextAttemptAt - timers.now());
    await until(async () => (await serverPhoto(photo.id))?.blob_status === 'present');
    await until(async () => (await d.db.blobs.get(photo.sha256!))?.status === 'uploaded');
  });

  it('[C9] bytes still on the device at sign-out go up when the same user signs in again on this device', async () => {
    // What Sign Out's confirm promises ("sent the next time you sign in here"). One browser profile: each
    // session opens the user's database by its name in the same IndexedDB, as the app's LocalDataProvider
    // does, with a sign-in of its own.
    const idb = new IDBFactory();
    const timers = manualTimers();
    const crew = await s.account('crew@summit.test');
    const session = async () => {
      const cookie = await s.t.login(crew.email);
      const net = switchableFetch(cookieFetch(cookie, s.t.env.PUBLIC_ORIGIN));
      const db = openSyncDb(
        { companyId: crew.companyId, userId: crew.userId },
        { indexedDB: idb, IDBKeyRange, now: timers.now },
      );
      const engine = createSyncEngine({
        db,
        baseUrl: s.baseUrl,
        fetch: net.fetch,
        random: seededRandom(41),
        locks: null,
        eventSource: null,
        environment: manualEnvironment(),
        timers,
        now: timers.now,
      });
      return { cookie, net, db, engine };
    };

    // A weak signal: the photo's row goes up, its bytes do not.
    const first = await session();
    await first.engine.syncNow();
    first.net.failWith.set('/api/sync/blobs', 503);
    const photo = await addPhoto(first.db, {
      projectId: (await first.db.projects.orderBy('id').first())!.id,
      bytes: tinyJpeg(11),
      mimeType: 'image/jpeg',
    });
    await first.engine.syncNow();
    expect(first.engine.status.get()).toMatchObject({ pending: 0, blobsPending: 1 });
    expect((await serverPhoto(photo.id))?.blob_status).toBe('pending');

    // Sign Out: the engine stops, the database closes, the session ends on the server.
    await first.engine.stop();
    const retryAt = (await first.db.blobs.get(photo.sha256!))?.nextAttemptAt ?? 0;
    first.db.close();
    expect((await s.t.request('POST', '/api/auth/logout', { cookie: first.cookie })).status).toBe(200);

    // Soon after, with signal, the same user signs in again here: starting is enough, no new write is
    // needed, and the retry time the first session set (still ahead) is not waited for.
    expect(retryAt).toBeGreaterThan(timers.now());
    const again = await session();
    again.engine.start();
    await until(async () => (await serverPhoto(photo.id))?.blob_status === 'present');
    expect(again.net.log).toContain(`PUT /api/sync/blobs/${photo.sha256}`);
    await until(async () => (await again.db.blobs.get(photo.sha256!))?.status === 'uploaded');
    await again.engine.stop();
    again.db.close();
  });

  it('[C9] coming back online sends a photo at once, not at the retry time its failures set', async () => {
    const environment = manualEnvironment();
    const timers = manualTimers();
    const d = await synced({ environment, timers, now: timers.now });
    d.net.failWith.set('/api/sync/blobs', 503);
    const photo = await addPhoto(d.db, {
      projectId: await projectOf(d),
      bytes: tinyJpeg(12),
      mimeType: 'image/jpeg',
    });
    // The signal fades: three uploads fail, each setting a later retry time.
    for (let i = 0; i < 3; i++) {
      const { nextAttemptAt } = (await d.db.blobs.get(photo.sha256!))!;
      timers.advance(Math.max(0, nextAttemptAt - timers.now()));
      await d.engine.syncNow();
    }
    const blob = (await d.db.blobs.get(photo.sha256!))!;
    expect(blob.attempts).toBe(3);
    d.engine.start();
    d.net.offline = true;
    environment.setOnline(false);

    // The signal is back: the manual clock does not move, so only the 'online' event can send the bytes.
    d.net.failWith.clear();
    d.net.offline = false;
    environment.setOnline(true);
    await until(async () => (await serverPhoto(photo.id))?.blob_status === 'present');
    expect(timers.now()).toBeLessThan(blob.nextAttemptAt);
    await d.engine.stop();
  });

  describe('on a slow link', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    /** A device whose photo create is on the server and whose bytes are due, with nothing sending them yet. */
    async function photoDue(seed: number, size?: number) {
      const d = await synced();
      d.net.failWith.set('/api/sync/blobs', 503);
      const photo = await addPhoto(d.db, {
        projectId: await projectOf(d),
        bytes: tinyJpeg(seed, size),
        mimeType: 'image/jpeg',
      });
      await d.engine.syncNow();
      await d.engine.stop();
      d.net.failWith.clear();
      expect((await serverPhoto(photo.id))?.blob_status).toBe('pending');
      return { d, photo };
    }

    /**
     * A page's upload (XHR) whose bytes trickle out in ten steps 40 ms apart (400 ms, four times the stall
     * limit), then reach the server of `d`; with `stalled`, no byte goes out and no answer comes.
     */
    const trickleXhr = (d: Device, stalled = false) =>
      class TrickleXhr {
        upload: {
          onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
        } = { onprogress: null };
        status = 0;
        responseText = '';
        withCredentials = false;
        onload: (() => void) | null = null;
        onerror: (() => void) | null = null;
        ontimeout: (() => void) | null = null;
        onabort: (() => void) | null = null;
        private method = 'GET';
        private url = '';
        private headers = new Headers();
        private aborted = false;
        open(method: string, url: string) {
          this.method = method;
          this.url = url;
        }
        setRequestHeader(key: string, value: string) {
          this.headers.set(key, value);
        }
        getAllResponseHeaders() {
          return 'content-type: application/json\r\n';
        }
        abort() {
          this.aborted = true;
          this.onabort?.();
        }
        send(body: ArrayBuffer) {
          if (stalled) return;
          const total = body.byteLength;
          let ticks = 0;
          const tick = setInterval(() => {
            if (this.aborted) return clearInterval(tick);
            ticks++;
            this.upload.onprogress?.({ lengthComputable: true, loaded: (total * ticks) / 10, total });
            if (ticks < 10) return;
            clearInterval(tick);
            void d.net
              .fetch(this.url, { method: this.method, headers: this.headers, body })
              .then(async (res) => {
                if (this.aborted) return;
                this.status = res.status;
                this.responseText = await res.text();
                this.onload?.();
              });
          }, 40);
        }
      };

    /** The lane of `d` with a 100 ms stall limit, its clock past every backoff. */
    const laneOf = (d: Device, fetch: FetchLike) =>
      createPhotoLane({
        db: d.db,
        baseUrl: s.baseUrl,
        fetch,
        now: () => Date.now() + 3_600_000,
        random: () => 0.5,
        requestTimeoutMs: 100,
        isPaused: () => false,
        onFatal: () => {},
        onChange: () => {},
      });

    it('[C20] an upload that keeps sending lands however long it takes; only a stall gives it up', async () => {
      const { d, photo } = await photoDue(6);
      vi.stubGlobal('window', globalThis);
      vi.stubGlobal('XMLHttpRequest', trickleXhr(d));
      expect(await laneOf(d, d.net.fetch).kick()).toBe(true);
      expect((await serverPhoto(photo.id))?.blob_status).toBe('present');
      expect((await d.db.blobs.get(photo.sha256!))?.status).toBe('uploaded');

      // An upload that sends nothing is given up after the stall limit, and waits for its next try.
      vi.unstubAllGlobals();
      const next = await photoDue(8);
      vi.stubGlobal('window', globalThis);
      vi.stubGlobal('XMLHttpRequest', trickleXhr(next.d, true));
      expect(await laneOf(next.d, next.d.net.fetch).kick()).toBe(false);
      expect(await next.d.db.blobs.get(next.photo.sha256!)).toMatchObject({ status: 'pending', attempts: 2 });
    });

    it('[C9] sign-out closing the database under an upload on its way ends the pass quietly; the bytes stay', async () => {
      const { d, photo } = await photoDue(8);
      let answer!: () => void;
      const held: FetchLike = async (url, init) => {
        await new Promise<void>((r) => {
          answer = r;
        });
        return d.net.fetch(url, init);
      };
      const pass = laneOf(d, held).kick();
      await until(() => answer !== undefined);
      d.db.close();
      answer();
      // Resolved, not rejected: a rejection here is an unhandled one in the app (the engine does not await it).
      expect(await pass).toBe(false);
      // Signed in again: the bytes are still waiting.
      await d.db.open();
      expect((await d.db.blobs.get(photo.sha256!))?.status).toBe('pending');
    });

    it('[C20] where progress is not reported (the service worker), a big photo gets the time its bytes take', async () => {
      // About 50 KB of noise: 25 s at the floor rate; this upload takes 300 ms, three times the stall limit.
      const { d, photo } = await photoDue(7, 128);
      expect(photo.sizeBytes).toBeGreaterThan(20_000);
      const slow: FetchLike = async (url, init) => {
        if (init?.method === 'PUT') await new Promise((r) => setTimeout(r, 300));
        init?.signal?.throwIfAborted();
        return d.net.fetch(url, init);
      };
      expect(await laneOf(d, slow).kick()).toBe(true);
      expect((await serverPhoto(photo.id))?.blob_status).toBe('present');
    });
  });

  it('[C5] bytes the server refuses (hash mismatch) are set aside as a sync issue, not retried forever', async () => {
    const d = await synced();
    const photo = await addPhoto(d.db, {
      projectId: await projectOf(d),
      bytes: tinyJpeg(4),
      mimeType: 'image/jpeg',
    });
    // Storage corruption: the kept bytes no longer match their address.
    await d.db.blobs.update(photo.sha256!, { bytes: tinyJpeg(5).slice().buffer });
    await d.engine.syncNow();
    expect((await d.db.blobs.get(photo.sha256!))?.status).toBe('rejected');
    const [issue] = await d.db.syncIssues.toArray();
    expect(issue).toMatchObject({ kind: 'blob', sha256: photo.sha256, code: 'HASH_MISMATCH' });
    const puts = d.net.log.filter((l) => l.startsWith('PUT ')).length;
    await d.engine.syncNow();
    expect(d.net.log.filter((l) => l.startsWith('PUT ')).length).toBe(puts);
    await d.db.blobs.update(photo.sha256!, { bytes: tinyJpeg(4).slice().buffer });
    await retryIssue(d.db, issue!.id!);
    await d.engine.syncNow();
    expect((await serverPhoto(photo.id))?.blob_status).toBe('present');
    expect(await d.db.syncIssues.count()).toBe(0);
  });

  it('[C5] a rejected change can be fixed and retried, or discarded', async () => {
    const d = await synced();
    const task = (await d.db.tasks.orderBy('id').first())!;
    await mutate(d.db, 'tasks', 'patch', task.id, { status: 'nearly' as never, title: 'Fixed later' });
    await d.engine.syncNow();
    const [issue] = await d.db.syncIssues.toArray();
    expect(issue?.code).toBe('VALIDATION_FAILED');
    await retryIssue(d.db, issue!.id!, { status: 'completed', title: 'Fixed later' });
    await d.engine.syncNow();
    expect((await s.t.query('SELECT status, title FROM tasks WHERE id = ?', [task.id]))[0]).toEqual({
      status: 'completed',
      title: 'Fixed later',
    });
    await mutate(d.db, 'tasks', 'patch', task.id, { priority: 'urgent' as never });
    await d.engine.syncNow();
    const [again] = await d.db.syncIssues.toArray();
    await discardIssue(d.db, again!.id!);
    expect(await d.db.syncIssues.count()).toBe(0);
  });

  it('[C9] uploaded bytes are evicted least recently used first under the cap; unsent bytes never', async () => {
    const db = openSyncDb(
      { companyId: newRowId(), userId: newRowId() },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    );
    const blob = (sha: string, status: BlobRecord['status'], lastUsedAt: number): BlobRecord => ({
      sha256: sha.repeat(64),
      bytes: new ArrayBuffer(100),
      mimeType: 'image/jpeg',
      size: 100,
      status,
      createdAt: 0,
      lastUsedAt,
      attempts: 0,
      nextAttemptAt: 0,
    });
    await db.blobs.bulkPut([
      blob('a', 'uploaded', 10),
      blob('b', 'uploaded', 30),
      blob('c', 'pending', 1),
      blob('d', 'uploaded', 20),
      blob('e', 'pending', 2),
    ]);
    await readBlob(db, 'a'.repeat(64)); // viewed now: the most recently used
    expect(await evictUploadedBlobs(db, 300)).toBe(2);
    expect((await db.blobs.toCollection().primaryKeys()).map((k) => String(k)[0]).sort()).toEqual([
      'a',
      'c',
      'e',
    ]);
    expect(await evictUploadedBlobs(db, 0)).toBe(1);
    expect((await db.blobs.toArray()).map((b) => b.status)).toEqual(['pending', 'pending']);
  });
});
