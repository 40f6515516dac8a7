import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { readCaptureTime } from './capture-time.ts';

const image = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#708090' } }).jpeg();

describe('capture time', () => {
  it('[C15] reads DateTimeOriginal from a real JPEG', async () => {
    const bytes = await image()
      .withExif({ IFD2: { DateTimeOriginal: '2026:05:04 07:12:09' } })
      .toBuffer();
    const at = await readCaptureTime(new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }));
    // EXIF has no zone: the device's local time (this test process runs in UTC or not, so compare locally).
    expect(at).toBe(new Date(2026, 4, 4, 7, 12, 9).toISOString());
  });

  it('[C15] is null for a photo without EXIF and for bytes that are no image', async () => {
    const plain = await image().toBuffer();
    expect(await readCaptureTime(new Blob([new Uint8Array(plain)]))).toBeNull();
    expect(await readCaptureTime(new Blob(['not an image']))).toBeNull();
  });
});
