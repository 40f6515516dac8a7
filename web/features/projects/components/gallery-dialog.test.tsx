// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { fakeSyncEngine } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { polyfillObjectUrls, pulledPhoto } from '#web/features/photos/components/test-support.tsx';
import { GalleryDialog } from './gallery-dialog.tsx';
import { polyfillDom, PROJECT_A, PROJECT_B, testDb } from './test-support.tsx';

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

function renderDialog(
  initialTab: 'photos' | 'upload',
  can?: (p: string) => boolean,
  engine?: ReturnType<typeof fakeSyncEngine>['engine'],
) {
  return render(
    <StaticLocalData db={db} engine={engine}>
      <GalleryDialog
        open
        onOpenChange={() => {}}
        db={db}
        projectId={PROJECT_A}
        projectName="Harbor Tower"
        initialTab={initialTab}
        timeZone="UTC"
        can={can}
      />
      <Toaster />
    </StaticLocalData>,
  );
}

const image = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2])], name, { type: 'image/jpeg' });

describe('project gallery dialog (spec 02 section 2)', () => {
  it("counts this project's photos on View Photos and shows them as thumbnails", async () => {
    db = testDb();
    await db.photos.bulkPut([
      pulledPhoto(PROJECT_A, { description: 'East wall' }),
      pulledPhoto(PROJECT_A, { description: null }),
      pulledPhoto(PROJECT_B, { description: 'Other project' }),
    ]);
    renderDialog('photos');
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await waitFor(() =>
      expect(within(dialog).getByRole('tab', { name: 'View Photos (2)', selected: true })).toBeTruthy(),
    );
    const grid = within(dialog).getByRole('list', { name: 'Project photos' });
    expect(
      within(grid)
        .getAllByRole('button', { name: /^Open / })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(expect.arrayContaining(['Open East wall', 'Open Project Photo']));
    expect(within(grid).queryByText('Other project')).toBeNull();
  });

  it("shows 'No photos yet' with 'Upload First Photo', which opens Upload New", async () => {
    db = testDb();
    renderDialog('photos');
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    expect(await within(dialog).findByText('No photos yet')).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'View Photos (0)' })).toBeTruthy();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Upload First Photo' }));
    expect(within(dialog).getByRole('tab', { name: 'Upload New', selected: true })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Choose File' })).toBeTruthy();
  });

  it("refuses Upload Photos without a file ('Please select at least one file')", async () => {
    db = testDb();
    renderDialog('upload');
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Upload Photos' }));
    expect(await screen.findByText('Please select at least one file')).toBeTruthy();
    expect(await db.photos.count()).toBe(0);
  });

  it("takes a picked image, describes it 'Uploaded {filename}', stores it on the device and returns to the grid", async () => {
    db = testDb();
    renderDialog('upload');
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await user.upload(within(dialog).getByLabelText('Choose File'), image('IMG_0042.jpg'));
    expect((within(dialog).getByLabelText('Description (optional)') as HTMLInputElement).value).toBe(
      'Uploaded IMG_0042.jpg',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Upload Photos' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('tab', { name: 'View Photos (1)', selected: true })).toBeTruthy(),
    );
    // No sync engine here: the photo waits on the device, and the toast says so, not that it was uploaded.
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(screen.getByText('1 photo waiting to upload')).toBeTruthy();
    expect(screen.queryByText(/uploaded successfully/)).toBeNull();
    const [row] = await db.photos.toArray();
    expect(row).toMatchObject({
      projectId: PROJECT_A,
      description: 'Uploaded IMG_0042.jpg',
      originalName: 'IMG_0042.jpg',
    });
    expect(await db.thumbnails.get(row!.id)).toBeTruthy();
    expect(await db.blobs.get(row!.sha256!)).toMatchObject({ status: 'pending', mimeType: 'image/jpeg' });
  });

  it('offline, says the photo is saved on this device and waits to upload, as Upload Photos does', async () => {
    db = testDb();
    renderDialog('upload', undefined, fakeSyncEngine({ online: false }).engine);
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await user.upload(within(dialog).getByLabelText('Choose File'), image('IMG_0043.jpg'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload Photos' }));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(screen.getByText('1 photo waiting to upload')).toBeTruthy();
    expect(screen.queryByText(/uploaded successfully/)).toBeNull();
  });

  it("online, says 'Photo uploaded successfully' only once the photo's bytes are on the server too", async () => {
    db = testDb();
    renderDialog('upload', undefined, fakeSyncEngine({ online: true }).engine);
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });

    // The row is pushed but the photo lane has not sent the bytes: not uploaded yet.
    await user.upload(within(dialog).getByLabelText('Choose File'), image('IMG_0044.jpg'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload Photos' }));
    await waitFor(async () => expect(await db.outbox.count()).toBeGreaterThan(0));
    await db.outbox.clear();
    expect(await screen.findByText('Saved on this device, will sync', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('1 photo waiting to upload')).toBeTruthy();
    resetToasts();

    // Row pushed and bytes sent: the spec's words.
    await user.click(within(dialog).getByRole('tab', { name: 'Upload New' }));
    const other = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 3, 4])], 'IMG_0045.jpg', {
      type: 'image/jpeg',
    });
    await user.upload(within(dialog).getByLabelText('Choose File'), other);
    await user.click(within(dialog).getByRole('button', { name: 'Upload Photos' }));
    await waitFor(async () => expect(await db.outbox.count()).toBeGreaterThan(0));
    await db.transaction('rw', db.outbox, db.blobs, async () => {
      await db.outbox.clear();
      await db.blobs.toCollection().modify({ status: 'uploaded' });
    });
    expect(await screen.findByText('Photo uploaded successfully')).toBeTruthy();
    expect(screen.getByText('Success')).toBeTruthy();
    expect(screen.queryByText('Saved on this device, will sync')).toBeNull();
  });

  it('opens Photo Details with the image, description and upload date, and deletes after a confirm', async () => {
    db = testDb();
    const photo = pulledPhoto(PROJECT_A, { description: 'East wall', createdAt: '2026-11-20T10:00:00.000Z' });
    await db.photos.put(photo);
    renderDialog('photos');
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await user.click(await within(dialog).findByRole('button', { name: 'Open East wall' }));
    const details = await screen.findByRole('dialog', { name: 'Photo Details' });
    expect(within(details).getByText('Nov 20, 2026')).toBeTruthy();
    expect(within(details).getAllByText('East wall').length).toBeGreaterThan(0);
    expect(await within(details).findByRole('img', { name: 'East wall' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Photo Details' })).toBeNull());

    await user.click(within(dialog).getByRole('button', { name: 'Delete East wall' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('No photos yet')).toBeTruthy();
    expect(await screen.findByText('Photo deleted successfully')).toBeTruthy();
  });

  it('offers neither upload nor delete to a user who may only look', async () => {
    db = testDb();
    await db.photos.put(pulledPhoto(PROJECT_A, { description: 'East wall' }));
    renderDialog('upload', (p) => p === 'photos:read');
    const dialog = await screen.findByRole('dialog', { name: 'Harbor Tower Photos' });
    await within(dialog).findByRole('button', { name: 'Open East wall' });
    expect(within(dialog).queryByRole('tab', { name: 'Upload New' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Delete East wall' })).toBeNull();
  });
});
