// Draws the console's app icons (web/public/icons/*.png) from the favicon's shapes: a rounded
// indigo square with a white "N". Dependency-free (zlib only), so anyone can redraw them:
//   node scripts/make-icons.mjs
// The output is committed; run it again only when the design changes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web/public/icons');
const INDIGO = [0x4f, 0x46, 0xe5];
const WHITE = [0xff, 0xff, 0xff];
// web/public/favicon.svg's "N", on its 32-unit grid.
const N = [
  [9, 23],
  [9, 9],
  [12, 9],
  [20, 18.5],
  [20, 9],
  [23, 9],
  [23, 23],
  [20, 23],
  [12, 13.5],
  [12, 23],
];

function inPolygon(x, y, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inRoundedSquare(x, y, radius) {
  const cx = Math.min(Math.max(x, radius), 32 - radius);
  const cy = Math.min(Math.max(y, radius), 32 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/**
 * RGBA pixels of one icon. `maskable`: the background fills the square (the platform cuts its own
 * shape) and the glyph shrinks into the central safe zone (a circle of 80% of the width).
 */
function draw(size, maskable) {
  const SS = 4; // supersampling per axis, for smooth edges
  const px = Buffer.alloc(size * size * 4);
  const glyphScale = maskable ? 0.7 : 1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const u = ((x + (sx + 0.5) / SS) / size) * 32;
          const v = ((y + (sy + 0.5) / SS) / size) * 32;
          if (!maskable && !inRoundedSquare(u, v, 8)) continue;
          bg++;
          const gu = (u - 16) / glyphScale + 16;
          const gv = (v - 16) / glyphScale + 16;
          if (inPolygon(gu, gv, N)) fg++;
        }
      }
      const i = (y * size + x) * 4;
      const t = bg ? fg / bg : 0;
      for (let c = 0; c < 3; c++) px[i + c] = Math.round(INDIGO[c] * (1 - t) + WHITE[c] * t);
      px[i + 3] = Math.round((bg / (SS * SS)) * 255);
    }
  }
  return px;
}

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

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  fs.writeFileSync(path.join(out, name), png(size, draw(size, maskable)));
  process.stdout.write(`wrote ${name}\n`);
}
