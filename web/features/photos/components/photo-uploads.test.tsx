// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { uploadProgress } from '#sync/photo-lane.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { PhotoUploads } from './photo-uploads.tsx';
import { RefusedPhoto } from './refused-photo.tsx';
import { polyfillDom, polyfillObjectUrls, PROJECT_A, pulledPhoto, testDb } from './test-support.tsx';

beforeAll(() => {
  polyfillDom();
  polyfillObjectUrls();
});

let db: SyncDb;
afterEach(() => {
  cleanup();
  db?.close();
});

const blob = (sha256: string, status: 'pending' | 'rejected' | 'uploaded') => ({
  sha256,
  bytes: new ArrayBuffer(4),
  mimeType: 'image/jpeg',
  size: 4,
  status,
  createdAt: 1,
  lastUsedAt: 1,
  attempts: 0,
  nextAttemptAt: 0,
});

describe('photos in the sync status (issue 11)', () => {
  it('lists each photo not on the server with its state, the percent sent while it uploads', async () => {
    db = testDb();
    const a = pulledPhoto(PROJECT_A, { originalName: 'IMG_A.jpg', blobStatus: 'pending', version: 0 });
    const b = pulledPhoto(PROJECT_A, { originalName: 'IMG_B.jpg', blobStatus: 'pending', version: 0 });
    const c = pulledPhoto(PROJECT_A, { originalName: 'IMG_C.jpg', blobStatus: 'pending' });
    const done = pulledPhoto(PROJECT_A, { originalName: 'IMG_DONE.jpg' });
    await db.photos.bulkPut([a, b, c, done]);
    await db.blobs.bulkPut([
      blob(a.sha256!, 'pending'),
      blob(b.sha256!, 'pending'),
      blob(c.sha256!, 'rejected'),
    ]);
    render(
      <StaticLocalData db={db}>
        <PhotoUploads />
      </StaticLocalData>,
    );
    const list = await screen.findByRole('list', { name: 'Photos waiting to upload' });
    const row = (name: string) => within(list).getByText(name).closest('li')!;
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(row('IMG_A.jpg')).getByText('On this device')).toBeTruthy();
    expect(within(row('IMG_C.jpg')).getByText('Refused')).toBeTruthy();
    expect(within(list).queryByText('IMG_DONE.jpg')).toBeNull();
    act(() => uploadProgress.set(b.sha256!, 0.4));
    expect(within(row('IMG_B.jpg')).getByText('Uploading 40%')).toBeTruthy();
    act(() => uploadProgress.delete(b.sha256!));
    expect(within(row('IMG_B.jpg')).getByText('On this device')).toBeTruthy();
  });

  it('names a refused photo in Sync issues with the reason and retries it', async () => {
    db = testDb();
    const p = pulledPhoto(PROJECT_A, { originalName: 'IMG_R.jpg', blobStatus: 'pending' });
    await db.photos.put(p);
    await db.blobs.put(blob(p.sha256!, 'rejected'));
    await db.syncIssues.add({
      kind: 'blob',
      sha256: p.sha256!,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The photo is over 10 MiB',
      createdAt: 1,
    });
    render(
      <StaticLocalData db={db}>
        <RefusedPhoto db={db} sha256={p.sha256!} />
      </StaticLocalData>,
    );
    expect(await screen.findByText('IMG_R.jpg')).toBeTruthy();
    expect(await screen.findByText('Refused: The photo is over 10 MiB')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await db.blobs.get(p.sha256!))?.status).toBe('pending'));
    expect(await db.syncIssues.count()).toBe(0);
  });
});
