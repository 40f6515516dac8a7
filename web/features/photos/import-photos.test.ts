import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSyncDb } from '#sync/db.ts';
import { importPhotos } from './import-photos.ts';

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
