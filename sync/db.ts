import { Dexie, type Table } from 'dexie';
import type { Mutation, SyncTable } from '#shared/sync-protocol.ts';
import type {
  ChangeOrderWire,
  CommunicationWire,
  PhotoWire,
  ProjectLogWire,
  ProjectWire,
  ScheduleChangeWire,
  SubcontractorAssignmentWire,
  TaskWire,
  UserWire,
} from '#shared/schemas/wire.ts';

/**
 * A mirrored row as the device holds it: the server's camelCase fields (all of them once pulled, only
 * those the user gave for a row created offline) plus `version`, the server version this row's server
 * state was last seen at (0 for a row created on this device and not yet acknowledged).
 */
export type LocalRow<T> = { id: string; version: number } & Partial<Omit<T, 'id' | 'version'>>;

export type ProjectRow = LocalRow<ProjectWire>;
export type TaskRow = LocalRow<TaskWire>;
export type ProjectLogRow = LocalRow<ProjectLogWire>;
export type PhotoRow = LocalRow<PhotoWire>;
export type ScheduleChangeRow = LocalRow<ScheduleChangeWire>;
export type CommunicationRow = LocalRow<CommunicationWire>;
export type ChangeOrderRow = LocalRow<ChangeOrderWire>;
/** Read-only mirrors (sync/SPEC.md L12): the company's people and the subcontractor assignments, pull only. */
export type UserRow = LocalRow<UserWire>;
export type SubcontractorAssignmentRow = LocalRow<SubcontractorAssignmentWire>;

/** The row type of each mirrored table, by its wire name. */
export interface MirrorRows {
  projects: ProjectRow;
  tasks: TaskRow;
  project_logs: ProjectLogRow;
  photos: PhotoRow;
  schedule_changes: ScheduleChangeRow;
  communications: CommunicationRow;
  change_orders: ChangeOrderRow;
}

/** Any mirrored row, seen generically (the engine copies fields it does not interpret). */
export type AnyRow = { id: string; version: number } & Record<string, unknown>;

/** One queued local write: the wire mutation plus its place in the queue and when it was made. */
export interface OutboxEntry extends Mutation {
  /** Queue order (auto-increment); the same order as `id`. */
  seq?: number;
  /** Device time (epoch ms, uncorrected) the user made the change: drives "oldest unsent change". */
  createdAt: number;
}

/**
 * The last server state of a row that has unsent local changes (`row: null`: absent on the server as far
 * as this device knows). The visible row is always `shadow + pending mutations in order`, so a rejected
 * mutation is undone by recomputing from the shadow without it, and a pulled row is rebased the same way.
 */
export interface ShadowRow {
  table: SyncTable;
  id: string;
  /** Server version of `row` (or of its tombstone); 0 when the server has never had the row. */
  version: number;
  row: AnyRow | null;
}

export const BLOB_STATUSES = ['pending', 'uploaded', 'rejected'] as const;
export type BlobStatus = (typeof BLOB_STATUSES)[number];

/** Photo bytes kept on the device, addressed by their SHA-256 (lower-case hex). */
export interface BlobRecord {
  sha256: string;
  bytes: ArrayBuffer;
  mimeType: string;
  size: number;
  /** pending: not on the server yet (never evicted); uploaded: may be evicted; rejected: the server refused it. */
  status: BlobStatus;
  createdAt: number;
  lastUsedAt: number;
  /** Failed upload attempts in a row, and when the photo lane may try again (epoch ms). */
  attempts: number;
  nextAttemptAt: number;
}

/**
 * A photo's small preview kept on the device (SPEC C16), by photo id: galleries show it at once, offline,
 * and after the photo's bytes were evicted. Never sent.
 */
export interface ThumbnailRecord {
  photoId: string;
  bytes: ArrayBuffer;
  mimeType: string;
  createdAt: number;
}

/**
 * Something the user should see in "Sync issues" (SPEC C5): a change the server refused ('mutation'), a
 * change whose fields partly lost to later edits ('conflict'), or photo bytes the server would not store
 * ('blob'), each kept with everything needed to fix and retry it.
 */
export interface SyncIssue {
  id?: number;
  kind: 'mutation' | 'conflict' | 'blob';
  /** The full mutation as it was sent (kinds 'mutation' and 'conflict'). */
  mutation?: OutboxEntry;
  sha256?: string;
  code: string;
  message: string;
  conflicts?: { field: string; kept: unknown; yours: unknown }[];
  /**
   * The record's name on this device when the answer arrived: a record someone else deleted is soon gone
   * from the device, and a patch carries only the fields the user changed, so the entry could not say
   * which one it was.
   */
  recordName?: string | null;
  /**
   * The names on this device, when the answer arrived, of the project and task the change points at (by
   * id): a refusal because a project was deleted or an assignment ended is followed by a pull that takes
   * them off the device, and the entry must still say which project it was.
   */
  refNames?: Record<string, string>;
  /** Device time (epoch ms) the server's answer arrived. */
  createdAt: number;
}

/** Sync bookkeeping of this device, one record under the key 'state'. */
export interface SyncMeta {
  key: 'state';
  /** This browser profile's id towards the server, bound to one user and company. */
  clientId: string;
  /** Pull position: every change with a version <= cursor is applied. */
  cursor: number;
  /** The id the next local mutation gets (gap-free, from 1). */
  nextMutationId: number;
  /** Estimated server clock minus device clock, in ms, from the last pull. */
  clockOffsetMs: number;
  /** Device time (epoch ms) of the last complete cycle, or null. */
  lastSyncedAt: number | null;
  /**
   * Changes the pulls have brought since the mirror was last emptied (SPEC C10): an unfinished download's
   * progress, kept with the cursor so a restarted app goes on counting from it. Absent before any pull.
   */
  downloadedRows?: number;
  /** Who this mirror belongs to: an outbox is never replayed under another session. */
  scope: { companyId: string; userId: string };
}

/** Wire names of the mirrored tables, as stored in Dexie. */
export const MIRROR_TABLES = [
  'projects',
  'tasks',
  'project_logs',
  'photos',
  'schedule_changes',
  'communications',
  'change_orders',
] as const satisfies readonly SyncTable[];

/** Read-only mirrors: filled by pull only, never written through `mutate`. */
export const READONLY_MIRRORS = ['users', 'subcontractor_assignments'] as const;

/**
 * The Dexie version of the device database. History (each kept working by the upgrade test): 1 the first
 * mirror; 3 photo thumbnails (issue 11, SPEC C16); 4 `tasks.category`: the Subcontractors board reads the
 * subcontractor tasks by category, an index, not a scan (issue 13); 5 communications and change orders
 * (issue 12, SPEC W15); 6 the indexes no screen or sync step queried are dropped (issue 14, below).
 */
const SYNC_DB_VERSION = 6;

/**
 * Every store at `SYNC_DB_VERSION`: what a new device creates and an older database is upgraded to. An
 * index is here only because something queries by it (`where`/`orderBy`): every pulled row is written
 * once per index, and Dexie reads every index's definition at each open. Version 6 dropped 29 unused
 * ones (every mirror's `updatedAt` and `version`, tasks' `priority` and `[projectId+status]`, ...): each
 * pulled task was written with 9 index entries, now 5. The feed reads its tabs (by type) and its
 * project filter newest first from the communications' compound indexes, a page at a time.
 */
const SYNC_DB_STORES = {
  projects: 'id',
  tasks: 'id, projectId, status, dueDate, assigneeId, category',
  project_logs: 'id, createdAt',
  photos: 'id, projectId, sha256, createdAt',
  schedule_changes: 'id, createdAt',
  users: 'id',
  subcontractor_assignments: 'id',
  // `&id` is never queried: it keeps a mutation id from being queued twice.
  outbox: '++seq, &id, rowId',
  shadows: '[table+id]',
  blobs: 'sha256, status, [status+lastUsedAt], [status+nextAttemptAt], size',
  syncIssues: '++id, kind, createdAt',
  meta: 'key',
  thumbnails: 'photoId',
  communications: 'id, createdAt, [type+createdAt], [projectId+createdAt], [projectId+type+createdAt]',
  change_orders: 'id, createdAt, [projectId+createdAt]',
} as const;

/**
 * The device database of one user in one company (DESIGN.md section 7). Table names of the mirrors are
 * the wire names; indexes are what the field screens filter and sort by.
 */
export class SyncDb extends Dexie {
  projects!: Table<ProjectRow, string>;
  tasks!: Table<TaskRow, string>;
  project_logs!: Table<ProjectLogRow, string>;
  photos!: Table<PhotoRow, string>;
  schedule_changes!: Table<ScheduleChangeRow, string>;
  communications!: Table<CommunicationRow, string>;
  change_orders!: Table<ChangeOrderRow, string>;
  users!: Table<UserRow, string>;
  subcontractor_assignments!: Table<SubcontractorAssignmentRow, string>;
  outbox!: Table<OutboxEntry, number>;
  shadows!: Table<ShadowRow, [string, string]>;
  blobs!: Table<BlobRecord, string>;
  syncIssues!: Table<SyncIssue, number>;
  thumbnails!: Table<ThumbnailRecord, string>;
  meta!: Table<SyncMeta, string>;

  /** The user and company this database belongs to. */
  readonly scope: { companyId: string; userId: string };
  /** The device clock (epoch ms); injectable so tests can skew or freeze a device's time. */
  readonly now: () => number;

  constructor(scope: { companyId: string; userId: string }, options: SyncDbOptions = {}) {
    super(syncDbName(scope.companyId, scope.userId), {
      // Chrome commits IndexedDB with relaxed durability by default: a write the user saw saved could be
      // lost on power loss. The outbox is the only copy of an unsent change (DESIGN.md section 12).
      chromeTransactionDurability: 'strict',
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    });
    this.scope = { ...scope };
    this.now = options.now ?? (() => Date.now());
    // Only the current version is declared. Declaring every past version made each `stores()` call parse
    // all versions before it again (Dexie rebuilds the whole schema per call): most of the constructor's
    // time, on every cold start (B8, issue 14). Dexie (>= 3) upgrades an older database by diffing the
    // schema it finds on the device against this one, so a device on v1, v3 or v4 still gets the missing
    // tables and indexes with its rows kept (sync/db.test.ts opens databases made by each shipped
    // declaration). A version whose data must be rewritten needs its own `version(n).upgrade()`.
    this.version(SYNC_DB_VERSION).stores(SYNC_DB_STORES);
  }
}

/** Options for tests and other hosts: an IndexedDB implementation other than the global one. */
export interface SyncDbOptions {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** The device clock, epoch ms (default `Date.now`). */
  now?: () => number;
}

/** The IndexedDB name of a user's database: one per user and company, never shared between sessions. */
export function syncDbName(companyId: string, userId: string): string {
  return `sitecommand-${companyId}-${userId}`;
}

/** Opens (creating on first use) the sync database of a user in a company. */
export function openSyncDb(
  scope: { companyId: string; userId: string },
  options: SyncDbOptions = {},
): SyncDb {
  return new SyncDb(scope, options);
}

/**
 * The sync state, created on first use with a fresh client id. Call inside a rw transaction that includes
 * `meta` when the caller goes on to change it.
 */
export async function readMeta(db: SyncDb): Promise<SyncMeta> {
  // Outside a transaction, once the state exists (every use but a device's first), a read-only transaction
  // is enough: it is not queued behind the writes on meta and has nothing to commit.
  if (!Dexie.currentTransaction) {
    const found = await db.meta.get('state');
    if (found) return found;
  }
  // In a transaction of its own (or the caller's) so two first uses cannot mint two client ids.
  return db.transaction('rw', db.meta, async () => {
    const found = await db.meta.get('state');
    if (found) return found;
    const meta: SyncMeta = {
      key: 'state',
      clientId: crypto.randomUUID(),
      cursor: 0,
      nextMutationId: 1,
      clockOffsetMs: 0,
      lastSyncedAt: null,
      scope: { ...db.scope },
    };
    await db.meta.put(meta);
    return meta;
  });
}

/** The Dexie table of a mirrored table, typed generically. */
export function mirrorTable(db: SyncDb, table: string): Table<AnyRow, string> {
  return db.table<AnyRow, string>(table);
}
