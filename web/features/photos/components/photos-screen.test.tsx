// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  polyfillDom,
  polyfillObjectUrls,
  PROJECT_A,
  PROJECT_B,
  pulledPhoto,
  pulledProject,
  renderPhotos,
  testDb,
} from './test-support.tsx';

beforeAll(() => {
  polyfillDom();
  polyfillObjectUrls();
});

let db: SyncDb;
afterEach(async () => {
  cleanup();
  resetToasts();
  db?.close();
});

const count = () => screen.getByTestId('photo-count').textContent;
const cards = () =>
  within(screen.getByRole('list', { name: 'Photos' })).queryAllByRole('listitem', { name: /./ });
const cardNames = () => cards().map((c) => c.getAttribute('aria-label'));

async function seed() {
  db = testDb();
  await db.projects.bulkPut([
    pulledProject(PROJECT_A, 'Harbor Tower', 'active'),
    pulledProject(PROJECT_B, 'Depot', 'active'),
  ]);
  const photos = [
    pulledPhoto(PROJECT_A, {
      description: 'Rebar before pour',
      tags: ['rebar', 'level 3', 'concrete', 'north', 'slab'],
      createdAt: '2026-11-20T10:00:00.000Z',
    }),
    pulledPhoto(PROJECT_A, {
      description: null,
      tags: ['rebar'],
      originalName: 'crane-base.jpg',
      createdAt: '2026-11-19T10:00:00.000Z',
    }),
    pulledPhoto(PROJECT_B, {
      description: 'Depot roof',
      tags: ['roof'],
      createdAt: '2026-11-18T10:00:00.000Z',
    }),
  ];
  await db.photos.bulkPut(photos);
  await db.project_logs.bulkPut([
    {
      id: 'log-1',
      version: 1,
      title: 'Pour day',
      projectId: PROJECT_A,
      images: [`/api/photos/${photos[1]!.id}/file`],
    },
    { id: 'log-2', version: 1, title: 'No pictures', projectId: PROJECT_A, images: [] },
  ]);
  return photos;
}

describe('Photo Gallery (spec 02 section 2)', () => {
  it("shows the title, 'X of Y photos', and cards with description, project, date and 3 tags then '+N'", async () => {
    await seed();
    renderPhotos(db);
    expect(screen.getByRole('heading', { level: 1, name: 'Photo Gallery' })).toBeTruthy();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    expect(cardNames()).toEqual(['Rebar before pour', 'Project Photo', 'Depot roof']);
    const first = cards()[0]!;
    expect(within(first).getByText('Harbor Tower')).toBeTruthy();
    expect(within(first).getByText('Nov 20, 2026')).toBeTruthy();
    const tags = within(within(first).getByRole('list', { name: 'Tags' })).getAllByRole('listitem');
    expect(tags.map((t) => t.textContent)).toEqual(['rebar', 'level 3', 'concrete', '+2']);
  });

  it('searches description, file name and tags, and Clear All appears only while something filters', async () => {
    await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    expect(screen.queryByRole('button', { name: 'Clear All' })).toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Search photos' }), 'crane-base');
    expect(count()).toBe('1 of 3 photos (filtered by search: "crane-base")');
    expect(cardNames()).toEqual(['Project Photo']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search photos' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search photos' }), 'ROOF');
    expect(cardNames()).toEqual(['Depot roof']);
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(count()).toBe('3 of 3 photos');
    expect(screen.queryByRole('button', { name: 'Clear All' })).toBeNull();
  });

  it("filters by project on the Project tab ('All Projects' shows all)", async () => {
    await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    await user.click(screen.getByRole('tab', { name: 'Project' }));
    const select = screen.getByRole('combobox', { name: 'Project' });
    expect(select.textContent).toBe('All Projects');
    expect(screen.queryByRole('button', { name: 'Clear All' })).toBeNull();
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Depot' }));
    expect(count()).toBe('1 of 3 photos (filtered by project: Depot)');
    expect(cardNames()).toEqual(['Depot roof']);
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeTruthy();
    // Back on All, the project no longer filters.
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(count()).toBe('3 of 3 photos');
  });

  it('filters by tag with per-tag counts and popular chips, and a card’s tag chip switches to it', async () => {
    await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    await user.click(screen.getByRole('tab', { name: 'Tag' }));
    const chips = within(screen.getByRole('list', { name: 'Popular tags' })).getAllByRole('button');
    // Spec 02 section 9: at most 6 popular tags, the most used first.
    expect(chips.map((c) => c.textContent)).toEqual([
      'rebar (2)',
      'concrete (1)',
      'level 3 (1)',
      'north (1)',
      'roof (1)',
      'slab (1)',
    ]);
    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    expect(screen.getByRole('option', { name: 'rebar (2)' })).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'roof (1)' }));
    expect(count()).toBe('1 of 3 photos (filtered by tag: roof)');
    await user.click(screen.getByRole('button', { name: 'rebar (2)' }));
    expect(count()).toBe('2 of 3 photos (filtered by tag: rebar)');

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await user.click(within(cards()[0]!).getByRole('button', { name: 'Show photos tagged concrete' }));
    expect(screen.getByRole('tab', { name: 'Tag', selected: true })).toBeTruthy();
    expect(count()).toBe('1 of 3 photos (filtered by tag: concrete)');
  });

  it('filters by a log that has images on the Log tab', async () => {
    await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    await user.click(screen.getByRole('tab', { name: 'Log' }));
    await user.click(screen.getByRole('combobox', { name: 'Log' }));
    expect(screen.queryByRole('option', { name: /No pictures/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Pour day (1)' }));
    expect(count()).toBe('1 of 3 photos (filtered by log: Pour day)');
    expect(cardNames()).toEqual(['Project Photo']);
  });

  it('shows the empty states: no photos at all, and none matching', async () => {
    db = testDb();
    renderPhotos(db);
    expect(await screen.findByText('No photos found')).toBeTruthy();
    expect(screen.getByText('Upload your first photos to get started')).toBeTruthy();
    expect(count()).toBe('0 of 0 photos');
    cleanup();
    await seed();
    renderPhotos(db);
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search photos' }), 'zzz');
    expect(screen.getByText('No photos found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your filters or search terms')).toBeTruthy();
  });

  it('switches between Grid and List', async () => {
    await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    expect(screen.getByRole('radio', { name: 'Grid' }).getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('radio', { name: 'List' }));
    expect(screen.getByRole('radio', { name: 'List' }).getAttribute('aria-checked')).toBe('true');
    expect(cards().every((c) => c.className.includes('flex'))).toBe(true);
  });

  it('deletes a photo only after the confirm, through the outbox', async () => {
    const [first] = await seed();
    renderPhotos(db);
    const user = userEvent.setup();
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    await user.click(within(cards()[0]!).getByRole('button', { name: 'Delete Rebar before pour' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this photo?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await db.photos.get(first!.id)).toBeTruthy();
    await user.click(within(cards()[0]!).getByRole('button', { name: 'Delete Rebar before pour' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(count()).toBe('2 of 2 photos'));
    expect(await screen.findByText('Photo deleted successfully')).toBeTruthy();
    expect(await db.outbox.where('rowId').equals(first!.id).first()).toMatchObject({
      op: 'delete',
      table: 'photos',
    });
  });

  it('hides Upload Photos and Delete from a user without those permissions', async () => {
    await seed();
    renderPhotos(db, { can: (p) => p === 'photos:read' });
    await waitFor(() => expect(count()).toBe('3 of 3 photos'));
    expect(screen.queryByRole('button', { name: 'Upload Photos' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });
});

describe('photo state on a card (issue 11)', () => {
  it('says on this device, uploaded, or refused with the reason, and a refused photo can be retried', async () => {
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower', 'active'));
    const waiting = pulledPhoto(PROJECT_A, { description: 'Waiting one', blobStatus: 'pending', version: 0 });
    const refused = pulledPhoto(PROJECT_A, { description: 'Refused one', blobStatus: 'pending' });
    const done = pulledPhoto(PROJECT_A, { description: 'Done one' });
    await db.photos.bulkPut([waiting, refused, done]);
    const blob = (sha: string, status: 'pending' | 'rejected') => ({
      sha256: sha,
      bytes: new ArrayBuffer(4),
      mimeType: 'image/jpeg',
      size: 4,
      status,
      createdAt: 1,
      lastUsedAt: 1,
      attempts: 3,
      nextAttemptAt: 0,
    });
    await db.blobs.bulkPut([blob(waiting.sha256!, 'pending'), blob(refused.sha256!, 'rejected')]);
    await db.syncIssues.add({
      kind: 'blob',
      sha256: refused.sha256!,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Only JPEG, PNG or WebP images are stored',
      createdAt: 1,
    });
    renderPhotos(db);
    const card = (name: string) => screen.getByRole('listitem', { name });
    await waitFor(() => expect(within(card('Waiting one')).getByText('On this device')).toBeTruthy());
    expect(within(card('Done one')).getByText('Uploaded')).toBeTruthy();
    expect(
      within(card('Refused one')).getByText('Refused: Only JPEG, PNG or WebP images are stored'),
    ).toBeTruthy();
    await userEvent.setup().click(within(card('Refused one')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(card('Refused one')).getByText('On this device')).toBeTruthy());
    expect(await db.blobs.get(refused.sha256!)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await db.syncIssues.count()).toBe(0);
  });

  it('removes a refused photo after a confirm', async () => {
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower', 'active'));
    const refused = pulledPhoto(PROJECT_A, { description: 'Refused one', blobStatus: 'pending' });
    await db.photos.put(refused);
    await db.blobs.put({
      sha256: refused.sha256!,
      bytes: new ArrayBuffer(4),
      mimeType: 'image/jpeg',
      size: 4,
      status: 'rejected',
      createdAt: 1,
      lastUsedAt: 1,
      attempts: 0,
      nextAttemptAt: 0,
    });
    renderPhotos(db);
    const user = userEvent.setup();
    const card = await screen.findByRole('listitem', { name: 'Refused one' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Remove' })).toBeTruthy());
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByText('No photos found')).toBeTruthy());
    expect(await db.blobs.count()).toBe(0);
  });
});

describe('photo image', () => {
  it('shows the thumbnail kept on the device, and the grey Photo placeholder when an image is missing', async () => {
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower', 'active'));
    const local = pulledPhoto(PROJECT_A, { description: 'Local one', createdAt: '2026-11-21T10:00:00.000Z' });
    const remote = pulledPhoto(PROJECT_A, {
      description: 'Remote one',
      createdAt: '2026-11-20T10:00:00.000Z',
    });
    await db.photos.bulkPut([local, remote]);
    await db.thumbnails.put({
      photoId: local.id,
      bytes: new ArrayBuffer(8),
      mimeType: 'image/jpeg',
      createdAt: 1,
    });
    renderPhotos(db);
    const localImg = await within(await screen.findByRole('listitem', { name: 'Local one' })).findByRole(
      'img',
      {
        name: 'Local one',
      },
    );
    await waitFor(() => expect(localImg.getAttribute('src')).toMatch(/^blob:/));
    const remoteCard = screen.getByRole('listitem', { name: 'Remote one' });
    const remoteImg = await within(remoteCard).findByRole('img', { name: 'Remote one' });
    await waitFor(() => expect(remoteImg.getAttribute('src')).toBe(`/api/photos/${remote.id}/file`));
    // The server has no image (or the device is offline without it): the placeholder.
    fireEvent.error(remoteImg);
    expect(within(remoteCard).getByRole('img', { name: 'Remote one' }).textContent).toBe('Photo');
  });
});

describe('photo viewer', () => {
  const setOnline = (value: boolean) =>
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  afterEach(() => setOnline(true));

  it('View opens the photo inside the app from the device, and offline says when it is not on the device', async () => {
    db = testDb();
    await db.projects.put(pulledProject(PROJECT_A, 'Harbor Tower', 'active'));
    const local = pulledPhoto(PROJECT_A, { description: 'Local one', createdAt: '2026-11-21T10:00:00.000Z' });
    const remote = pulledPhoto(PROJECT_A, {
      description: 'Remote one',
      createdAt: '2026-11-20T10:00:00.000Z',
    });
    await db.photos.bulkPut([local, remote]);
    await db.thumbnails.put({
      photoId: local.id,
      bytes: new ArrayBuffer(8),
      mimeType: 'image/jpeg',
      createdAt: 1,
    });
    setOnline(false);
    const user = userEvent.setup();
    renderPhotos(db);

    await user.click(await screen.findByRole('button', { name: 'View Local one' }));
    let viewer = await screen.findByRole('dialog', { name: 'Local one' });
    expect(within(viewer).getByText(/Harbor Tower/)).toBeTruthy();
    await waitFor(() =>
      expect(within(viewer).getByRole('img', { name: 'Local one' }).getAttribute('src')).toMatch(/^blob:/),
    );
    // Offline, a new tab would be the browser's no-internet page: not offered.
    expect(within(viewer).queryByRole('button', { name: 'Open full size' })).toBeNull();
    await user.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'View Remote one' }));
    viewer = await screen.findByRole('dialog', { name: 'Remote one' });
    await waitFor(() =>
      expect(within(viewer).getByRole('img', { name: 'Remote one' }).textContent).toBe(
        'This photo is not on this device yet. It will show when you are back online.',
      ),
    );
  });
});
