import crypto from 'node:crypto';
import jpeg from 'jpeg-js';
import { newId } from '#shared/ids.ts';
import type { TenantSpec } from './demo-data/types.ts';
import { at, clamp, makeRng, type Rng } from './random.ts';

export interface DemoPhoto {
  id: string;
  /** The blob store key, what photos.filename holds. */
  key: string;
  bytes: Uint8Array;
  sha256: string;
}

/**
 * Every demo photo, in the order plan.ts takes them (tenant by tenant, project by project). Drawn before
 * the write transaction because the bytes are stored first: a photo row marked 'present' must never point
 * at a missing blob.
 */
export function drawDemoPhotos(tenants: readonly TenantSpec[]): DemoPhoto[] {
  const pixels = makeRng(7);
  const photos: DemoPhoto[] = [];
  for (const t of tenants) {
    for (const [index, p] of t.projects.entries()) {
      for (let k = 0; k < p.photos; k++) {
        const bytes = drawSitePhoto(pixels, at(BLOCK_COLOURS, photos.length * 3 + index));
        const id = newId();
        const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
        photos.push({ id, key: `${id}.jpg`, bytes, sha256 });
      }
    }
  }
  return photos;
}

/** Façade colours of the buildings in the generated site photos. */
const BLOCK_COLOURS: readonly (readonly [number, number, number])[] = [
  [158, 158, 150],
  [176, 84, 52],
  [205, 170, 115],
  [222, 184, 38],
  [70, 110, 160],
  [120, 140, 90],
  [190, 120, 80],
  [95, 95, 110],
];

/** A small generated site picture (sky, ground, a building with windows, a tower crane) as a JPEG. */

export function drawSitePhoto(rng: Rng, block: readonly [number, number, number]): Uint8Array {
  const w = 320;
  const h = 240;
  const data = new Uint8Array(w * h * 4);
  const horizon = Math.round(h * (0.55 + rng.next() * 0.15));
  const skyTop = [50 + rng.int(0, 50), 110 + rng.int(0, 50), 190 + rng.int(0, 50)] as const;
  const skyLow = [205, 222, 236] as const;
  const groundTop = [150 + rng.int(0, 30), 125 + rng.int(0, 25), 88 + rng.int(0, 20)] as const;
  const groundLow = [92, 76, 58] as const;
  const bw = rng.int(80, 150);
  const bh = rng.int(50, 100);
  const bx = rng.int(20, w - bw - 60);
  const by = horizon - bh;
  const mastX = bx + bw + rng.int(15, 40);
  const jibY = Math.max(8, by - rng.int(20, 45));
  const jitter = rng.int(-20, 20);
  const mix = (a: readonly number[], b: readonly number[], f: number, i: number) =>
    (a[i] ?? 0) * (1 - f) + (b[i] ?? 0) * f;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let c: [number, number, number];
      const inBlock = x >= bx && x < bx + bw && y >= by && y < horizon;
      const inCrane =
        (x >= mastX && x < mastX + 3 && y >= jibY && y < horizon) ||
        (y >= jibY && y < jibY + 3 && x >= mastX - 90 && x < mastX + 30);
      if (inBlock) {
        const window = (x - bx) % 18 >= 6 && (x - bx) % 18 < 14 && (y - by) % 16 >= 5 && (y - by) % 16 < 11;
        const f = window ? 0.45 : 1;
        c = [(block[0] + jitter) * f, (block[1] + jitter) * f, (block[2] + jitter) * f];
      } else if (inCrane) {
        c = [232, 182, 24];
      } else if (y < horizon) {
        const f = y / horizon;
        c = [mix(skyTop, skyLow, f, 0), mix(skyTop, skyLow, f, 1), mix(skyTop, skyLow, f, 2)];
      } else {
        const f = (y - horizon) / (h - horizon);
        c = [
          mix(groundTop, groundLow, f, 0),
          mix(groundTop, groundLow, f, 1),
          mix(groundTop, groundLow, f, 2),
        ];
      }
      const noise = (rng.next() - 0.5) * 10;
      const o = (y * w + x) * 4;
      data[o] = clamp(Math.round(c[0] + noise), 0, 255);
      data[o + 1] = clamp(Math.round(c[1] + noise), 0, 255);
      data[o + 2] = clamp(Math.round(c[2] + noise), 0, 255);
      data[o + 3] = 255;
    }
  }
  return new Uint8Array(jpeg.encode({ data, width: w, height: h }, 80).data);
}

// ---------------------------------------------------------------------------------------------------------
