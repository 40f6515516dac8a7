// Generates the PWA icons under public/icons/ (run: node scripts/make-icons.mjs). No image library: a tiny
// PNG encoder over node:zlib and a hard-hat glyph drawn with 4x4 supersampling. The PNGs are committed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const OUT = path.resolve('public/icons');
const TEAL = [15, 118, 110];
const WHITE = [255, 255, 255];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** RGBA pixels (Uint8Array, size*size*4) to a PNG file. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inside a rounded square covering [0,1]^2 with corner radius r. */
function inRoundedSquare(x, y, r) {
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The hard-hat glyph in unit coordinates, centred at (0.5, 0.5), `scale` of the icon wide. */
function inHardHat(x, y, scale) {
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  // Dome: upper half of an ellipse; brim: a bar; ridge: a raised band over the crown. Spans v 0.22..0.72.
  const w = v + 0.03;
  const dome = w <= 0.62 && ((u - 0.5) / 0.34) ** 2 + ((w - 0.62) / 0.36) ** 2 <= 1;
  const brim = w >= 0.6 && w <= 0.72 && u >= 0.08 && u <= 0.92;
  const ridge = Math.abs(u - 0.5) < 0.09 && w >= 0.22 && w <= 0.62;
  return dome || brim || ridge;
}

function render(size, { maskable }) {
  const rgba = new Uint8Array(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size;
          const y = (py + (sy + 0.5) / S) / size;
          const inside = maskable || inRoundedSquare(x, y, 0.2);
          if (!inside) continue;
          bg++;
          // Maskable icons keep the glyph inside the 80% safe circle.
          if (inHardHat(x, y, maskable ? 0.55 : 0.72)) fg++;
        }
      }
      const n = S * S;
      const a = bg / n;
      const f = bg ? fg / bg : 0;
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(TEAL[c] * (1 - f) + WHITE[c] * f);
      rgba[i + 3] = Math.round(a * 255);
    }
  }
  return encodePng(size, rgba);
}

fs.mkdirSync(OUT, { recursive: true });
const targets = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
];
for (const [name, size, maskable] of targets) {
  fs.writeFileSync(path.join(OUT, name), render(size, { maskable }));
  console.log(`wrote public/icons/${name}`);
}
