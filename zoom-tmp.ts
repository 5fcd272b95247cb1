import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { renderAsync } from '@resvg/resvg-js';
import { deal, geometryOf, layoutById } from './src/engine/index.ts';
import { previewSvg } from './src/server/services/preview-image.ts';
import { crc32, quantize } from './src/server/services/png-palette.ts';
const chunk = (t: string, d: Buffer) => { const o = Buffer.alloc(12 + d.length); o.writeUInt32BE(d.length); o.write(t, 4, 'latin1'); d.copy(o, 8); o.writeUInt32BE(crc32(o.subarray(4, 8 + d.length)), 8 + d.length); return o; };
function rgbPng(w: number, h: number, px: (x: number, y: number) => number[]) {
  const raw = Buffer.alloc(h * (w * 3 + 1));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { const c = px(x, y); raw.set(c, y * (w * 3 + 1) + 1 + x * 3); }
  const hd = Buffer.alloc(13); hd.writeUInt32BE(w); hd.writeUInt32BE(h, 4); hd.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89,0x50,0x4e,0x47,0x0d,0x0a,0x1a,0x0a]), chunk('IHDR', hd), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
const lay = layoutById('turtle')!; const d = deal(lay, 'bench-og'); if (!d.ok) throw 1;
const g = geometryOf(lay); if (!g.ok) throw 1;
const img = await renderAsync(previewSvg(g.value, d.value.deal.tiles.map(t => t.face), 221), { font: { loadSystemFonts: false }, background: '#285d4f' });
const px = img.pixels; const q = quantize(px);
const [X, Y, W, H, S] = [Number(process.argv[2]), Number(process.argv[3]), 200, 150, 4];
const both = rgbPng(W * S * 2 + 8, H * S, (x, y) => {
  const half = W * S + 8; const right = x >= half; const lx = right ? x - half : x;
  if (lx >= W * S) return [255, 0, 255];
  const i = (Y + Math.floor(y / S)) * 1200 + X + Math.floor(lx / S);
  return right ? [...q.palette.subarray(q.indexes[i]! * 3, q.indexes[i]! * 3 + 3)] : [px[i * 4]!, px[i * 4 + 1]!, px[i * 4 + 2]!];
});
writeFileSync(process.argv[4]!, both);
let err = 0, max = 0; for (let i = 0; i < 1200 * 630; i++) for (let c = 0; c < 3; c++) { const e = Math.abs(px[i * 4 + c]! - q.palette[q.indexes[i]! * 3 + c]!); err += e; max = Math.max(max, e); }
console.log('colours', q.palette.length / 3, 'mean abs err', (err / 1200 / 630 / 3).toFixed(2), 'max', max, 'felt', [...q.palette.subarray(q.indexes[3*1200+3]!*3, q.indexes[3*1200+3]!*3+3)].map(v=>v.toString(16)));
