import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb } from '#sync/db.ts';
import { importPhotos, PhotoImportError, preparePhotos } from './import-photos.ts';

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

describe("preparePhotos for a log's photos: compressed, none stored, all or nothing", () => {
  it('stores nothing, names a file that fails, and gives nothing back; without it, every photo with its id', async () => {
    const d = db();
    const err: unknown = await preparePhotos([jpeg('a.jpg'), jpeg('blank.jpg'), jpeg('b.jpg')], {
      projectId,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotoImportError);
    expect((err as Error).message).toBe(
      'Nothing was saved. blank.jpg: The compressed photo is blank. Remove it and save again.',
    );
    const progress: string[] = [];
    const ready = await preparePhotos(
      [jpeg('a.jpg'), jpeg('b.jpg')],
      { projectId, tags: ['rebar'] },
      { onProgress: (done, total) => progress.push(`${done}/${total}`) },
    );
    expect(progress).toEqual(['1/2', '2/2']);
    expect(ready.map((p) => [p.originalName, p.mimeType, p.tags])).toEqual([
      ['a.jpg', 'image/jpeg', ['rebar']],
      ['b.jpg', 'image/jpeg', ['rebar']],
    ]);
    expect(new Set(ready.map((p) => p.id)).size).toBe(2);
    // Nothing reached the device: the log's save stores them (addPhotos with its write).
    expect(await d.photos.count()).toBe(0);
    expect(await d.outbox.count()).toBe(0);
  });

  it('refuses the same batches as the gallery, before any work', async () => {
    await expect(
      preparePhotos(
        Array.from({ length: 11 }, (_, i) => jpeg(`${i}.jpg`)),
        { projectId },
      ),
    ).rejects.toThrow('Up to 10 photos at a time');
    const pdf = new File(['%PDF-1.7'], 'plan.pdf', { type: 'application/pdf' });
    await expect(preparePhotos([pdf], { projectId })).rejects.toThrow('plan.pdf is not an image');
  });
});

describe('importPhotos for the gallery: each photo stored as soon as it is done', () => {
  it('without whole (the gallery), stores each file that worked as it goes, and names the others', async () => {
    const d = db();
    const err: unknown = await importPhotos(d, [jpeg('a.jpg'), jpeg('blank.jpg')], { projectId }).catch(
      (e: unknown) => e,
    );
    expect((err as PhotoImportError).rows.map((r) => r.originalName)).toEqual(['a.jpg']);
    expect(await d.photos.count()).toBe(1);
  });
});
