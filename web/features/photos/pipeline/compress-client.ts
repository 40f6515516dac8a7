import type { CompressedPhoto } from './compress.ts';
import { PhotoCompressionError } from './compress.ts';
import type { CompressRequest, CompressResponse } from './compress.worker.ts';
import { MAX_EDGE_PX, MAX_OUTPUT_BYTES, THUMB_EDGE_PX } from './limits.ts';

export { PhotoCompressionError };

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (p: CompressedPhoto) => void; reject: (e: Error) => void }>();

function compressionWorker(): Worker {
  if (worker) return worker;
  // Bundled by Vite as a file of the app, so it is precached with the shell and runs offline.
  const w = new Worker(new URL('./compress.worker.ts', import.meta.url), {
    type: 'module',
    name: 'photo-compress',
  });
  w.addEventListener('message', (event: MessageEvent<CompressResponse>) => {
    const data = event.data;
    const entry = waiting.get(data.id);
    if (!entry) return;
    waiting.delete(data.id);
    if (data.ok) {
      entry.resolve({
        image: data.image,
        width: data.width,
        height: data.height,
        thumbnail: data.thumbnail,
        capturedAt: data.capturedAt,
      });
    } else entry.reject(new PhotoCompressionError(data.message));
  });
  w.addEventListener('error', () => {
    // The worker died: fail what it had so nothing waits forever, and start a fresh one next time.
    for (const entry of waiting.values())
      entry.reject(new PhotoCompressionError('The photo could not be processed'));
    waiting.clear();
    worker = null;
  });
  worker = w;
  return w;
}

/** Whether this browser can compress in our own worker (createImageBitmap and OffscreenCanvas). */
export function canCompressInWorker(): boolean {
  return (
    typeof OffscreenCanvas !== 'undefined' &&
    typeof createImageBitmap === 'function' &&
    typeof Worker !== 'undefined'
  );
}

/** Compresses one picked image off the main thread (DESIGN.md section 7). */
export function compressPhoto(file: Blob): Promise<CompressedPhoto> {
  if (!canCompressInWorker()) return compressWithFallback(file);
  const id = nextId++;
  return new Promise<CompressedPhoto>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    compressionWorker().postMessage({ id, file } satisfies CompressRequest);
  });
}

/**
 * Browsers without OffscreenCanvas: browser-image-compression, its worker script loaded from this app
 * (bundled and precached, never a CDN: offline a CDN fetch would fail and push the work onto the main thread).
 */
async function compressWithFallback(file: Blob): Promise<CompressedPhoto> {
  const [{ default: imageCompression }, { default: libURL }, { readCaptureTime }] = await Promise.all([
    import('browser-image-compression'),
    import('browser-image-compression/dist/browser-image-compression.js?url'),
    import('./capture-time.ts'),
  ]);
  const capturedAt = await readCaptureTime(file);
  const asFile = file instanceof File ? file : new File([file], 'photo.jpg', { type: file.type });
  const common = { useWebWorker: true, libURL, fileType: 'image/jpeg', preserveExif: false } as const;
  let image: Blob;
  let thumbnail: Blob;
  try {
    image = await imageCompression(asFile, {
      ...common,
      maxWidthOrHeight: MAX_EDGE_PX,
      maxSizeMB: MAX_OUTPUT_BYTES / 1_048_576,
    });
    thumbnail = await imageCompression(asFile, {
      ...common,
      maxWidthOrHeight: THUMB_EDGE_PX,
      initialQuality: 0.7,
    });
  } catch {
    throw new PhotoCompressionError('The file is not an image this device can read');
  }
  if (image.size > MAX_OUTPUT_BYTES)
    throw new PhotoCompressionError('The photo could not be made smaller than 1 MB');
  const size = await imageSize(image);
  if (Math.max(size.width, size.height) > MAX_EDGE_PX)
    throw new PhotoCompressionError('The compressed photo is larger than 2560 px');
  return { image, thumbnail, capturedAt, ...size };
}

function imageSize(blob: Blob): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(blob);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new PhotoCompressionError('The compressed photo does not decode'));
    };
    img.src = url;
  });
}
