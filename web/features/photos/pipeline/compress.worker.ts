/// <reference lib="webworker" />
import { readCaptureTime } from './capture-time.ts';
import { compressImage, PhotoCompressionError } from './compress.ts';

/** One file in, its compressed photo (or a message for the user) out. */
export interface CompressRequest {
  id: number;
  file: Blob;
}
export type CompressResponse =
  | {
      id: number;
      ok: true;
      image: Blob;
      width: number;
      height: number;
      thumbnail: Blob;
      capturedAt: string | null;
    }
  | { id: number; ok: false; message: string };

declare const self: DedicatedWorkerGlobalScope;

self.addEventListener('message', (event: MessageEvent<CompressRequest>) => {
  const { id, file } = event.data;
  void (async () => {
    try {
      const capturedAt = await readCaptureTime(file);
      const out = await compressImage(file, capturedAt);
      self.postMessage({ id, ok: true, ...out } satisfies CompressResponse);
    } catch (err) {
      const message =
        err instanceof PhotoCompressionError
          ? err.message
          : 'The photo could not be processed on this device';
      self.postMessage({ id, ok: false, message } satisfies CompressResponse);
    }
  })();
});
