import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb } from '#sync/db.ts';
import { importPhotos, PhotoImportError } from './import-photos.ts';

// The device's compression needs a browser (a worker, OffscreenCanvas): here a file named *blank* fails as
// a blank image does, and any other becomes a small JPEG of its own bytes.
vi.mock('./pipeline/compress-client.ts', () => ({
  compressPhoto: async (file: File) => {
    if (file.name.includes('blank')) throw new Error('The compressed photo is blank');
    const bytes = new Uint8Array([0xff, 0xd8, ...new TextEncoder().encode(file.name), 0xff, 0xd9]);
    return { image: bytes, thumbnail: bytes, capturedAt: null, width: 1, height: 1 };
  },
}));

const db = () =>
  openSyncDb({ companyId: 'c-import', userId: 'u-import' }, { indexedDB: new IDBFactory(), IDBKeyRange });
const jpeg = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
const projectId = '0195a0a0-0000-7000-8000-00000000000a';

describe('importPhotos: the batch rules (spec 02 sections 5 and 9), refused whole before any work', () => {
  it('refuses more than 10 photos', async () => {
    const d = db();
    const files = Array.from({ length: 11 }, (_, i) => jpeg(`${i}.jpg`));
    await expect(importPhotos(d, files, { projectId })).rejects.toThrow('Up to 10 photos at a time');
    expect(await d.photos.count()).toBe(0);
    expect(await d.outbox.count()).toBe(0);
  });

  it('refuses a file that is not an image, and one over 10485760 bytes', async () => {
    const d = db();
    const pdf = new File(['%PDF-1.7'], 'plan.pdf', { type: 'application/pdf' });
    await expect(importPhotos(d, [jpeg('a.jpg'), pdf], { projectId })).rejects.toThrow(
      'plan.pdf is not an image',
    );
    await expect(importPhotos(d, [jpeg('big.jpg', 10_485_761)], { projectId })).rejects.toThrow(
      'big.jpg is over 10MB',
    );
    expect(await d.photos.count()).toBe(0);
    expect(await d.blobs.count()).toBe(0);
  });
});

describe("importPhotos for a log's photos (whole): all stored or none", () => {
  it('stores nothing when one file fails, names it, and a second try without it stores each photo once', async () => {
    const d = db();
    const err: unknown = await importPhotos(
      d,
      [jpeg('a.jpg'), jpeg('blank.jpg'), jpeg('b.jpg')],
      { projectId },
      { whole: true },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotoImportError);
    expect((err as Error).message).toBe(
      'Nothing was saved. blank.jpg: The compressed photo is blank. Remove it and save again.',
    );
    expect(await d.photos.count()).toBe(0);
    expect(await d.outbox.count()).toBe(0);
    const rows = await importPhotos(d, [jpeg('a.jpg'), jpeg('b.jpg')], { projectId }, { whole: true });
    expect(rows.map((r) => r.originalName)).toEqual(['a.jpg', 'b.jpg']);
    expect(await d.photos.count()).toBe(2);
    // One transaction: consecutive mutations, in the order picked.
    expect((await d.outbox.toArray()).map((e) => e.rowId)).toEqual(rows.map((r) => r.id));
  });

  it('without whole (the gallery), stores each file that worked as it goes, and names the others', async () => {
    const d = db();
    const err: unknown = await importPhotos(d, [jpeg('a.jpg'), jpeg('blank.jpg')], { projectId }).catch(
      (e: unknown) => e,
    );
    expect((err as PhotoImportError).rows.map((r) => r.originalName)).toEqual(['a.jpg']);
    expect(await d.photos.count()).toBe(1);
  });
});
