// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { fakeSyncEngine } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  PROJECT_A,
  pulledProject,
  testDb,
} from '#web/features/projects/components/test-support.tsx';
import { polyfillObjectUrls } from './test-support.tsx';
import { UploadPhotosDialog } from './upload-photos-dialog.tsx';

// jsdom has no OffscreenCanvas: a real small JPEG stands in for the compressed output.
vi.mock(
  '#web/features/photos/pipeline/compress-client.ts',
  () => import('#web/features/photos/components/fake-compress.ts'),
);

beforeAll(() => {
  polyfillDom();
  polyfillObjectUrls();
});

let db: SyncDb;
afterEach(() => {
  cleanup();
  resetToasts();
  db?.close();
});

describe('Upload Photos', () => {
  it('offline, says the photos are saved on this device, not that they were uploaded', async () => {
    db = testDb();
    const project = pulledProject(PROJECT_A, 'Harbor Tower', 'active');
    await db.projects.put(project);
    const { engine } = fakeSyncEngine({ online: false });
    const closed = vi.fn();
    render(
      <StaticLocalData db={db} engine={engine}>
        <UploadPhotosDialog
          open
          onOpenChange={closed}
          db={db}
          projects={[project]}
          initialProjectId={PROJECT_A}
        />
        <Toaster />
      </StaticLocalData>,
    );
    const user = userEvent.setup();
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2])], 'IMG_7.jpg', {
      type: 'image/jpeg',
    });
    await user.upload(screen.getByLabelText('Choose Photos'), file);
    await user.click(screen.getByRole('button', { name: 'Upload Photos' }));
    await waitFor(() => expect(closed).toHaveBeenCalledWith(false));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(await screen.findByText('1 photo waiting to upload')).toBeTruthy();
    expect(screen.queryByText(/uploaded successfully/)).toBeNull();
    expect(await db.photos.count()).toBe(1);
  });
});
