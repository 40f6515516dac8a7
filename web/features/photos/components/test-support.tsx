import 'fake-indexeddb/auto';
import { render } from '@testing-library/react';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { PhotosScreen, type PhotosScreenProps } from './photos-screen.tsx';

export {
  polyfillDom,
  testDb,
  pulledProject,
  PROJECT_A,
  PROJECT_B,
} from '../../projects/components/test-support.tsx';

/** jsdom has no object URLs: each blob gets a distinct fake address, so a test can see one was made. */
export function polyfillObjectUrls(): void {
  let n = 0;
  URL.createObjectURL ??= () => `blob:test/${++n}`;
  URL.revokeObjectURL ??= () => {};
}

let n = 0;
/** A photo row as a pull leaves it (bytes on the server). */
export function pulledPhoto(projectId: string, extra: Partial<PhotoRow> = {}): PhotoRow {
  n += 1;
  const id = `0195a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    version: 5,
    projectId,
    userId: null,
    filename: `${id}.jpg`,
    originalName: `IMG_${n}.jpg`,
    description: null,
    tags: [],
    sha256: n.toString(16).padStart(64, '0'),
    mimeType: 'image/jpeg',
    sizeBytes: 1000,
    blobStatus: 'present',
    capturedAt: null,
    createdAt: `2026-11-${String(10 + (n % 10)).padStart(2, '0')}T10:00:00.000Z`,
    ...extra,
  };
}

export function renderPhotos(db: SyncDb, props: Partial<PhotosScreenProps> = {}) {
  return render(
    <StaticLocalData db={db}>
      <PhotosScreen db={db} timeZone="UTC" {...props} />
      <Toaster />
    </StaticLocalData>,
  );
}
