import { MAX_EDGE_PX, MAX_OUTPUT_BYTES, THUMB_EDGE_PX } from './limits.ts';

/** What compressing one picked image gives: the bytes to upload and a thumbnail kept on the device. */
export interface CompressedPhoto {
  image: Blob;
  width: number;
  height: number;
  thumbnail: Blob;
  /** When the photo was taken, from its EXIF (ISO 8601), or null. */
  capturedAt: string | null;
}

/** A picked file that cannot become a photo; `message` is shown to the user. */
export class PhotoCompressionError extends Error {
  override name = 'PhotoCompressionError';
}

const FIRST_QUALITY = 0.82;
const THUMB_QUALITY = 0.7;

/** Scale that fits `width` x `height` into a `maxEdge` long edge, never enlarging. */
export function fitScale(width: number, height: number, maxEdge: number): number {
  return Math.min(1, maxEdge / Math.max(width, height));
}

/**
 * The second, lower quality when the first encode is over the limit: lower the more it is over, since JPEG
 * size falls much faster than linearly with quality in this range.
 */
export function secondQuality(firstBytes: number): number {
  const over = firstBytes / MAX_OUTPUT_BYTES;
  return Math.max(0.4, Math.min(0.72, FIRST_QUALITY - 0.22 * over));
}

function canvasOf(bitmap: ImageBitmap | OffscreenCanvas, maxEdge: number): OffscreenCanvas {
  const scale = fitScale(bitmap.width, bitmap.height, maxEdge);
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new PhotoCompressionError('This device cannot process photos');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  // A PNG with transparency would turn black in a JPEG.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

/**
 * DESIGN.md section 7, in a worker with OffscreenCanvas: decode once (orientation from the file), scale to a
 * 2560 px long edge and encode one JPEG, a second lower-quality one only if the first is over 1 MB, and a
 * 320 px thumbnail from the same decoded image. Re-encoding through a canvas writes no EXIF at all, so the
 * location is gone from the uploaded bytes. The output is checked before the caller may let the original go.
 */
export async function compressImage(file: Blob, capturedAt: string | null = null): Promise<CompressedPhoto> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new PhotoCompressionError('The file is not an image this device can read');
  }
  try {
    const canvas = canvasOf(bitmap, MAX_EDGE_PX);
    let image = await canvas.convertToBlob({ type: 'image/jpeg', quality: FIRST_QUALITY });
    if (image.size > MAX_OUTPUT_BYTES) {
      image = await canvas.convertToBlob({ type: 'image/jpeg', quality: secondQuality(image.size) });
    }
    // From the 2560 px canvas, not the full decode: an eighth of the pixels to scale down.
    const thumbCanvas = canvasOf(canvas, THUMB_EDGE_PX);
    const thumbnail = await thumbCanvas.convertToBlob({ type: 'image/jpeg', quality: THUMB_QUALITY });
    await checkOutput(image);
    return { image, width: canvas.width, height: canvas.height, thumbnail, capturedAt };
  } finally {
    bitmap.close();
  }
}

/**
 * The output is a photo worth keeping: it decodes, is at most 1 MB and 2560 px, and is not blank (one
 * colour everywhere, what a failed GPU canvas gives). Reads a small copy, not the full image.
 */
export async function checkOutput(image: Blob): Promise<void> {
  if (image.size > MAX_OUTPUT_BYTES)
    throw new PhotoCompressionError('The photo could not be made smaller than 1 MB');
  let decoded: ImageBitmap;
  try {
    decoded = await createImageBitmap(image);
  } catch {
    throw new PhotoCompressionError('The compressed photo does not decode');
  }
  try {
    if (Math.max(decoded.width, decoded.height) > MAX_EDGE_PX)
      throw new PhotoCompressionError('The compressed photo is larger than 2560 px');
    const probe = new OffscreenCanvas(16, 16);
    const ctx = probe.getContext('2d');
    if (!ctx) throw new PhotoCompressionError('This device cannot process photos');
    ctx.drawImage(decoded, 0, 0, 16, 16);
    if (isBlank(ctx.getImageData(0, 0, 16, 16).data))
      throw new PhotoCompressionError('The compressed photo is blank');
  } finally {
    decoded.close();
  }
}

/** One colour in every pixel (within JPEG noise). */
export function isBlank(rgba: Uint8ClampedArray): boolean {
  let min = 255;
  let max = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const lum = (rgba[i]! * 3 + rgba[i + 1]! * 6 + rgba[i + 2]!) / 10;
    if (lum < min) min = lum;
    if (lum > max) max = lum;
  }
  return max - min < 2;
}
