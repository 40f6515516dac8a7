import jpeg from 'jpeg-js';

/**
 * Stands in for `compress-client.ts` in jsdom tests, which have no OffscreenCanvas (the worker is proven in
 * Chromium, tests/e2e/photos.spec.ts): a real small JPEG is the compressed output, so a dialog's flow runs
 * through importPhotos and addPhoto. Use: `vi.mock('#web/features/photos/pipeline/compress-client.ts',
 * () => import('#web/features/photos/components/fake-compress.ts'))`.
 */
export async function compressPhoto() {
  const encoded = jpeg.encode({ data: Buffer.alloc(16 * 12 * 4, 120), width: 16, height: 12 }, 80).data;
  const blob = new Blob([new Uint8Array(encoded)], { type: 'image/jpeg' });
  return { image: blob, thumbnail: blob, width: 16, height: 12, capturedAt: null };
}
