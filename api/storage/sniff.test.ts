import { describe, it, expect } from 'vitest';
import jpeg from 'jpeg-js';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { HttpError } from '../http.ts';
import { imageHeaders, readCappedBody, sniffImage } from './sniff.ts';

const JPEG = new Uint8Array(
  jpeg.encode({ data: Buffer.alloc(8 * 8 * 4, 180), width: 8, height: 8 }, 80).data,
);
// A complete 1x1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' +
      '0d0a2db40000000049454e44ae426082',
    'hex',
  ),
);
const WEBP = Uint8Array.from(
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]),
);
const GIF = Uint8Array.from(
  Buffer.from(
    '47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b',
    'hex',
  ),
);

async function status(p: Promise<unknown>): Promise<number | string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof HttpError ? err.status : String(err);
  }
}

function streamOf(chunks: number, chunkSize: number) {
  let pulled = 0;
  const chunk = new Uint8Array(chunkSize);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) controller.close();
      else {
        pulled++;
        controller.enqueue(chunk);
      }
    },
  });
  return { stream, pulled: () => pulled };
}

describe('sniffImage', () => {
  it('recognises JPEG, PNG and WebP by their bytes', async () => {
    expect(await sniffImage(JPEG)).toBe('image/jpeg');
    expect(await sniffImage(PNG)).toBe('image/png');
    expect(await sniffImage(WEBP)).toBe('image/webp');
  });

  it('refuses a GIF, a text file and an empty body with 415', async () => {
    expect(await status(sniffImage(GIF))).toBe(415);
    expect(await status(sniffImage(new TextEncoder().encode('<svg onload="alert(1)"></svg>')))).toBe(415);
    expect(await status(sniffImage(new Uint8Array(0)))).toBe(415);
  });
});

describe('readCappedBody', () => {
  it('returns the whole body when it fits', async () => {
    const req = new Request('http://x/', { method: 'PUT', body: JPEG });
    expect(Buffer.from(await readCappedBody(req, MAX_PHOTO_BYTES)).equals(Buffer.from(JPEG))).toBe(true);
  });

  it('refuses a body whose Content-Length is over the limit without reading it', async () => {
    const { stream, pulled } = streamOf(4, 16);
    const req = new Request('http://x/', {
      method: 'PUT',
      body: stream,
      headers: { 'content-length': String(MAX_PHOTO_BYTES + 1) },
      duplex: 'half',
    } as RequestInit);
    expect(await status(readCappedBody(req, MAX_PHOTO_BYTES))).toBe(413);
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('stops reading a body without a length as soon as it passes the limit', async () => {
    const { stream, pulled } = streamOf(1000, 1024);
    const req = new Request('http://x/', { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(await status(readCappedBody(req, 10 * 1024))).toBe(413);
    expect(pulled()).toBeGreaterThanOrEqual(11);
    expect(pulled()).toBeLessThanOrEqual(13);
  });

  it('accepts a body of exactly the limit', async () => {
    const { stream } = streamOf(10, 1024);
    const req = new Request('http://x/', { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect((await readCappedBody(req, 10 * 1024)).byteLength).toBe(10 * 1024);
  });
});

describe('imageHeaders', () => {
  it('serves the detected type with nosniff, a sandbox CSP and a private immutable cache', () => {
    const h = imageHeaders('image/png', 42);
    expect(h['Content-Type']).toBe('image/png');
    expect(h['Content-Length']).toBe('42');
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Content-Security-Policy']).toMatch(/^sandbox/);
    expect(h['Cache-Control']).toBe('private, max-age=31536000, immutable');
  });
});
