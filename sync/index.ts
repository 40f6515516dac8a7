/**
 * The browser sync engine (DESIGN.md section 7, sync/SPEC.md rules C1-C10): what the web app imports.
 * Open the user's database, write through `mutate`/`addPhoto`, start one engine per tab and show its status.
 */
export {
  openSyncDb,
  readMeta,
  syncDbName,
  type AnyRow,
  type BlobRecord,
  type LocalRow,
  type MirrorRows,
  type OutboxEntry,
  type PhotoRow,
  type ProjectLogRow,
  type ProjectRow,
  type ScheduleChangeRow,
  type SubcontractorAssignmentRow,
  type SyncDb,
  type SyncIssue,
  type SyncMeta,
  type TaskRow,
  type UserRow,
} from './db.ts';
export {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncError,
  type SyncStatus,
} from './engine.ts';
export { discardIssue, listIssues, retryIssue } from './issues.ts';
export { addPhoto, LocalWriteError, mutate, newRowId, type MutationData, type NewPhoto } from './mutate.ts';
export { evictUploadedBlobs, readBlob, DEFAULT_BLOB_CAP_BYTES } from './photo-lane.ts';
