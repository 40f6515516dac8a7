// Generates the small icons of the task list's rows under web/assets/row-icons/ (run: node
// scripts/make-row-icons.mjs). They are lucide's Calendar, User and ChevronDown, rasterised at three times
// their CSS size: as inline SVG elements they were a third of a row's elements to restyle per scroll step,
// and as SVG backgrounds Chromium paints each one again (about 4 ms per scroll step at 1x CPU over 10,000
// tasks; ADR 023 round 6). A bitmap is decoded once and drawn. Vite inlines them into the stylesheet. The
// PNGs are committed.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.resolve('web/assets/row-icons');
const CALENDAR = "<path d='M8 2v3M16 2v3M3 9h18'/><rect x='3' y='3' width='18' height='18' rx='2'/>";
const USER = "<path d='M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2'/><circle cx='12' cy='7' r='4'/>";
const CHEVRON = "<path d='m6 9 6 6 6-6'/>";
// slate-600 (the facts' text), red-700 (an overdue date's text), slate-500 (a select's chevron).
const ICONS = [
  ['due', '#475569', CALENDAR, 12],
  ['due-late', '#b91c1c', CALENDAR, 12],
  ['person', '#475569', USER, 12],
  ['chevron', '#64748b', CHEVRON, 16],
];

fs.mkdirSync(OUT, { recursive: true });
for (const [name, stroke, body, cssPx] of ICONS) {
  const px = cssPx * 3;
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='${px}' height='${px}' viewBox='0 0 24 24' fill='none' stroke='${stroke}' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'>${body}</svg>`;
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
  fs.writeFileSync(path.join(OUT, `${name}.png`), png);
  console.log(`${name}.png ${png.length} bytes`);
}
