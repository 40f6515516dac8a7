import { Dexie } from 'dexie';
import { newId } from '#shared/ids.ts';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import type { MutationSchema } from '#shared/push-schemas.ts';
import { SET_FIELDS, listOf } from '#shared/set-fields.ts';
import type { MutationOp, SyncTable } from '#shared/sync-protocol.ts';
import {
  mirrorTable,
  readMeta,
  type MirrorRows,
  type OutboxEntry,
  type PhotoRow,
  type SyncDb,
} from './db.ts';
import { requestBackgroundSync } from './background.ts';
import { notifyLocalWrite } from './hub.ts';
import { applyMutation } from './rebase.ts';
import { correctedTime } from './clock.ts';
import { isStorageFull, STORAGE_FULL_MESSAGE } from './storage-full.ts';

/** A local write the sync module refuses before queueing it (bad shape, missing row, duplicate id). */
export class LocalWriteError extends Error {
  constructor(
    message: string,
    readonly code: 'INVALID' | 'NOT_FOUND' | 'EXISTS' | 'STORAGE_FULL',
  ) {
    super(message);
    this.name = 'LocalWriteError';
  }
}

/** Runs a local write's transaction, turning a full device into a `LocalWriteError` the user can act on. */
async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isStorageFull(err)) throw new LocalWriteError(STORAGE_FULL_MESSAGE, 'STORAGE_FULL');
    throw err;
  }
}

/** The fields a mutation may carry for a table: the row's fields without the sync bookkeeping. */
export type MutationData<T extends SyncTable> = Partial<Omit<MirrorRows[T], 'id' | 'version'>>;

type MutationCheck = typeof MutationSchema;
let mutationCheck: Promise<MutationCheck> | null = null;
let loadedCheck: MutationCheck | null = null;

/**
 * The push's zod schema, which every queued mutation is checked against before it is stored. Loaded on its
 * own: zod is 84 KB that the first screen of a signed-in page does not need (ADR 025). The app asks for it
 * once the sync engine starts, after the first paint, so a user's first write finds it loaded; a failed
 * load is tried again at the next write.
 */
export function loadMutationCheck(): Promise<MutationCheck> {
  mutationCheck ??= import('#shared/push-schemas.ts').then(
    (m) => (loadedCheck = m.MutationSchema),
    (error: unknown) => {
      mutationCheck = null;
      throw error;
    },
  );
  return mutationCheck;
}

/**
 * The check while it is not loaded yet (callers take `loadedCheck` without awaiting once it is). A write may
 * run inside the caller's transaction (a project deleted with its tasks), where awaiting anything but
 * IndexedDB would commit it early: `Dexie.waitFor` keeps it open while the code arrives.
 */
function waitForMutationCheck(): Promise<MutationCheck> {
  return Dexie.currentTransaction ? Dexie.waitFor(loadMutationCheck()) : loadMutationCheck();
}

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes a row locally and queues the matching mutation, in ONE Dexie transaction (DESIGN.md section 7): the
 * change counts as saved once it commits, with the next gap-free mutation id. `create` takes all the fields
 * the user gave, `patch` the changed ones (fields equal to the stored value are left out; a patch that
 * changes nothing queues nothing and returns null), `delete` removes the row from the device at once.
 * `baseVersion` is the server version this device last saw of the row (null for a row it created). A
 * patch of a set field (a log's `images`) also carries the list the edit started from (SPEC W20): `base`,
 * what the form loaded, or the row on the device when none is given. No network call happens here; the
 * engine hears of the write through the hub and pushes soon after.
 */
export async function mutate<T extends SyncTable>(
  db: SyncDb,
  table: T,
  op: MutationOp,
  rowId: string,
  data: MutationData<T> = {},
  base?: MutationData<T>,
): Promise<OutboxEntry | null> {
  const check = loadedCheck ?? (await waitForMutationCheck());
  const write = { table, op, rowId, data, base } as BatchWrite;
  const entry = await saving(() =>
    db.transaction('rw', [mirrorTable(db, table), db.outbox, db.shadows, db.meta], () =>
      writeOne(db, check, write),
    ),
  );
  if (entry) queued(db);
  return entry;
}

/** One write of a batch: the arguments `mutate` takes. */
export type BatchWrite = {
  [T in SyncTable]: {
    table: T;
    op: MutationOp;
    rowId: string;
    data?: MutationData<T>;
    /** What the form loaded, for a patch of a set field (SPEC W20). */
    base?: MutationData<T>;
  };
}[SyncTable];

/**
 * Several local writes as ONE user action (bulk edit): every row and its outbox entry commit in one Dexie
 * transaction with consecutive mutation ids, and the engine hears of them once, so they leave in one push
 * batch (SPEC C4) and a failure of any write (a row gone, a bad value) leaves the device untouched.
 * Returns the queued entries (patches that change nothing queue nothing).
 */
export async function mutateAll(db: SyncDb, writes: readonly BatchWrite[]): Promise<OutboxEntry[]> {
  if (writes.length === 0) return [];
  const tables = [...new Set(writes.map((w) => w.table))].map((t) => mirrorTable(db, t));
  const check = loadedCheck ?? (await waitForMutationCheck());
  const entries = await saving(() =>
    db.transaction('rw', [...tables, db.outbox, db.shadows, db.meta], async () => {
      const queuedEntries: OutboxEntry[] = [];
      for (const w of writes) {
        const entry = await writeOne(db, check, w);
        if (entry) queuedEntries.push(entry);
      }
      return queuedEntries;
    }),
  );
  if (entries.length > 0) queued(db);
  return entries;
}

/**
 * After a queued write commits: the engine of this tab pushes soon, and where the browser has Background
 * Sync the service worker pushes even if every page is closed before that (SPEC C14).
 */
function queued(db: SyncDb): void {
  notifyLocalWrite(db);
  requestBackgroundSync();
}

/** `writeInTransaction` of one write as `mutate` takes it. */
function writeOne(db: SyncDb, check: MutationCheck, w: BatchWrite): Promise<OutboxEntry | null> {
  const data = (w.data ?? {}) as Record<string, unknown>;
  return writeInTransaction(
    db,
    check,
    w.table,
    w.op,
    w.rowId,
    data,
    w.base as Record<string, unknown> | undefined,
  );
}

/** The body of `mutate`, for callers that already hold a rw transaction over the table, outbox, shadows and meta. */
async function writeInTransaction(
  db: SyncDb,
  check: MutationCheck,
  table: SyncTable,
  op: MutationOp,
  rowId: string,
  input: Record<string, unknown>,
  base?: Record<string, unknown>,
): Promise<OutboxEntry | null> {
  const t = mirrorTable(db, table);
  // The reads go out together and the writes go out together: each awaited request is a round trip to the
  // IndexedDB backend, and a tap's write waits for all of them before the screen can change (budget B7).
  // The state is read directly: readMeta's nested transaction would hold the other reads back until it ends.
  const [stored, row, shadow] = await Promise.all([
    db.meta.get('state'),
    t.get(rowId),
    db.shadows.get([table, rowId]),
  ]);
  const meta = stored ?? (await readMeta(db));
  if (op === 'create' && row) throw new LocalWriteError(`${table} ${rowId} already exists`, 'EXISTS');
  if (op === 'patch' && !row)
    throw new LocalWriteError(`${table} ${rowId} is not on this device`, 'NOT_FOUND');
  let data: Record<string, unknown> = {};
  if (op === 'create') data = { ...input };
  if (op === 'patch' && row) {
    for (const [k, v] of Object.entries(input)) if (v !== undefined && !sameValue(row[k], v)) data[k] = v;
    if (Object.keys(data).length === 0) return null;
  }
  const now = db.now();
  const entry: OutboxEntry = {
    id: meta.nextMutationId,
    op,
    table,
    rowId,
    data,
    baseVersion: row && row.version > 0 ? row.version : null,
    clientTime: correctedTime(now, meta.clockOffsetMs),
    createdAt: now,
  };
  if (op === 'patch' && row) {
    const baseValues = setFieldBases(table, data, base, row);
    if (baseValues) entry.baseValues = baseValues;
  }
  const { createdAt: _c, seq: _s, ...wire } = entry;
  const parsed = check.safeParse(wire);
  if (!parsed.success) {
    throw new LocalWriteError(
      `Invalid ${op} of ${table}: ${parsed.error.issues[0]?.message ?? 'bad input'}`,
      'INVALID',
    );
  }
  const next = applyMutation(row ?? null, entry);
  await Promise.all([
    // The row's server state before its first unsent change (what a rejection rolls back to).
    shadow
      ? undefined
      : db.shadows.put({ table, id: rowId, version: row?.version ?? 0, row: row ? { ...row } : null }),
    db.outbox.add(entry),
    db.meta.put({ ...meta, nextMutationId: meta.nextMutationId + 1 }),
    next ? t.put(next) : t.delete(rowId),
  ]);
  return entry;
}

/**
 * SPEC W20: for each set field the patch changes, the list the edit started from (what the form loaded,
 * `base`, else the row as the device holds it), so the server merges this device's additions and removals
 * into the list instead of replacing it. Undefined when the patch changes none.
 */
function setFieldBases(
  table: SyncTable,
  data: Record<string, unknown>,
  base: Record<string, unknown> | undefined,
  row: Record<string, unknown>,
): Record<string, string[]> | undefined {
  const fields = SET_FIELDS[table]?.filter((f) => f in data);
  if (!fields?.length) return undefined;
  return Object.fromEntries(fields.map((f) => [f, listOf(base?.[f] !== undefined ? base[f] : row[f])]));
}

/** A new row id (UUIDv7), for rows created on the device. */
export const newRowId = (): string => newId();

/** SHA-256 of bytes as lower-case hex (SubtleCrypto: browsers and Node 20). */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  // A view, never the bare buffer: Node's WebCrypto refuses an ArrayBuffer of another realm (a jsdom
  // Blob's), while a view over it is accepted.
  const digest = await crypto.subtle.digest(
    'SHA-256',
    bytes instanceof Uint8Array ? bytes.slice() : new Uint8Array(bytes),
  );
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What the photo form gives `addPhoto`: the compressed image and the row's user fields. */
export interface NewPhoto {
  projectId: string;
  /** The image, already compressed on the device (DESIGN.md section 7). */
  bytes: ArrayBuffer | Uint8Array | Blob;
  mimeType: string;
  id?: string;
  originalName?: string | null;
  description?: string | null;
  tags?: string[];
  /** When it was taken (from its EXIF, read before compression), ISO 8601 (SPEC C15). */
  capturedAt?: string | null;
  /** A small JPEG preview kept on the device only (SPEC C16), stored in the same transaction. */
  thumbnail?: ArrayBuffer | Uint8Array | Blob;
}

/**
 * The photo lane's first step: hashes the bytes (outside the transaction: a non-Dexie await inside one
 * would commit it early), then in ONE transaction stores the blob as `pending` and creates the photo row
 * with `blobStatus: 'pending'` and its sha256 through a create mutation. The row syncs with the data queue;
 * the bytes go up on their own lane (`sync/photo-lane.ts`).
 */
export async function addPhoto(db: SyncDb, photo: NewPhoto): Promise<PhotoRow> {
  const [row] = await addPhotos(db, [photo]);
  return row!;
}

/**
 * `addPhoto` for several photos as one user action: all are stored in ONE transaction, or none is. `namedBy`
 * is the write that names them (a log's create or patch), queued after them in the same transaction: a log
 * is saved with its photos or not at all, so a failed save leaves no photo behind for a second Save to
 * store again, and closing the app mid-save leaves no photo without its log.
 */
export async function addPhotos(
  db: SyncDb,
  photos: readonly NewPhoto[],
  namedBy?: BatchWrite,
): Promise<PhotoRow[]> {
  const prepared: PreparedPhoto[] = [];
  for (const photo of photos) prepared.push(await preparePhoto(db, photo));
  const tables = [db.photos, db.blobs, db.outbox, db.shadows, db.meta, db.thumbnails];
  if (namedBy) tables.push(mirrorTable(db, namedBy.table));
  const check = loadedCheck ?? (await waitForMutationCheck());
  const named = await saving(() =>
    db.transaction('rw', tables, async () => {
      for (const p of prepared) await storePhoto(db, check, p);
      return namedBy ? writeOne(db, check, namedBy) : null;
    }),
  );
  if (prepared.length || named) queued(db);
  const rows = await db.photos.bulkGet(prepared.map((p) => p.id));
  return rows.map((row) => {
    if (!row) throw new Error('The photo row vanished after its write');
    return row;
  });
}

type PreparedPhoto = Awaited<ReturnType<typeof preparePhoto>>;

/** Everything a photo's write needs that is not a Dexie call: bytes read, checked and hashed. */
async function preparePhoto(db: SyncDb, photo: NewPhoto) {
  const buffer = await toArrayBuffer(photo.bytes);
  const thumbnail = photo.thumbnail ? await toArrayBuffer(photo.thumbnail) : null;
  if (buffer.byteLength === 0) throw new LocalWriteError('The photo is empty', 'INVALID');
  if (buffer.byteLength > MAX_PHOTO_BYTES)
    throw new LocalWriteError('The photo is larger than 10 MiB', 'INVALID');
  const sha256 = await sha256Hex(buffer);
  const id = photo.id ?? newRowId();
  const data: Record<string, unknown> = {
    projectId: photo.projectId,
    filename: `${sha256}${extensionOf(photo.mimeType)}`,
    sha256,
    mimeType: photo.mimeType,
    sizeBytes: buffer.byteLength,
    blobStatus: 'pending',
    tags: photo.tags ?? [],
  };
  if (photo.originalName != null) data.originalName = photo.originalName;
  if (photo.description != null) data.description = photo.description;
  if (photo.capturedAt != null) data.capturedAt = photo.capturedAt;
  return { id, sha256, buffer, thumbnail, mimeType: photo.mimeType, data, now: db.now() };
}

/** Inside the caller's transaction: the thumbnail, the blob (or its reuse) and the row's create. */
async function storePhoto(db: SyncDb, check: MutationCheck, p: PreparedPhoto): Promise<void> {
  const { id, sha256, buffer, thumbnail, now } = p;
  if (thumbnail)
    await db.thumbnails.put({ photoId: id, bytes: thumbnail, mimeType: 'image/jpeg', createdAt: now });
  const existing = await db.blobs.get(sha256);
  if (existing) await db.blobs.update(sha256, { lastUsedAt: now });
  else {
    await db.blobs.put({
      sha256,
      bytes: buffer,
      mimeType: p.mimeType,
      size: buffer.byteLength,
      status: 'pending',
      createdAt: now,
      lastUsedAt: now,
      attempts: 0,
      nextAttemptAt: 0,
    });
  }
  await writeInTransaction(db, check, 'photos', 'create', id, p.data);
}

function extensionOf(mimeType: string): string {
  const map: Record<string, string> = {
    'image/jpeg': '.jpg',
    'image/png': '.png',
    'image/webp': '.webp',
    'image/heic': '.heic',
  };
  return map[mimeType] ?? '';
}

async function toArrayBuffer(bytes: ArrayBuffer | Uint8Array | Blob): Promise<ArrayBuffer> {
  if (bytes instanceof ArrayBuffer) return bytes;
  if (bytes instanceof Uint8Array) return bytes.slice().buffer;
  return bytes.arrayBuffer();
}
