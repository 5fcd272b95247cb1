/** Palette PNGs for the link previews, by median cut (docs/server.md, "Palette PNGs"). */
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

const BITS = 5; // histogram bits per channel
const SIDE = 1 << BITS;
const BINS = SIDE * SIDE * SIDE;
const DROP = 8 - BITS;
const SHIFTS = [2 * BITS, BITS, 0] as const; // red, green, blue in a bin's number

/** An image cut to a palette: RGB triples, and an index per pixel. */
export interface PaletteImage {
  readonly palette: Uint8Array;
  readonly indexes: Uint8Array;
}

const binOf = (rgba: Uint8Array, p: number): number =>
  ((rgba[p]! >> DROP) << (2 * BITS)) | ((rgba[p + 1]! >> DROP) << BITS) | (rgba[p + 2]! >> DROP);

/** A box of bins: the slice [lo, hi) of the bins' order. */
interface Box {
  lo: number;
  hi: number;
  count: number;
  side: number; // the widest side's channel
  width: number; // its length in bins minus one: 0 cannot be split
}

/** Cuts opaque RGBA pixels to at most `maxColours` (2 to 256) colours. */
export function quantize(rgba: Uint8Array, maxColours = 256): PaletteImage {
  const pixels = rgba.length >> 2;
  const count = new Float64Array(BINS);
  const sums = new Float64Array(BINS * 3);
  for (let p = 0; p < rgba.length; p += 4) {
    const bin = binOf(rgba, p);
    count[bin]!++;
    sums[bin * 3]! += rgba[p]!;
    sums[bin * 3 + 1]! += rgba[p + 1]!;
    sums[bin * 3 + 2]! += rgba[p + 2]!;
  }
  let used = 0;
  for (let bin = 0; bin < BINS; bin++) if (count[bin]! > 0) used++;
  const order = new Int32Array(used);
  for (let bin = 0, k = 0; bin < BINS; bin++) if (count[bin]! > 0) order[k++] = bin;

  const measure = (lo: number, hi: number): Box => {
    const min = [SIDE, SIDE, SIDE];
    const max = [-1, -1, -1];
    let n = 0;
    for (let k = lo; k < hi; k++) {
      const bin = order[k]!;
      n += count[bin]!;
      for (let c = 0; c < 3; c++) {
        const v = (bin >> SHIFTS[c]!) & (SIDE - 1);
        if (v < min[c]!) min[c] = v;
        if (v > max[c]!) max[c] = v;
      }
    }
    const widths = [0, 1, 2].map((c) => max[c]! - min[c]!);
    const side = widths.indexOf(Math.max(...widths));
    return { lo, hi, count: n, side, width: widths[side]! };
  };

  const boxes: Box[] = used === 0 ? [] : [measure(0, used)];
  while (boxes.length < maxColours) {
    let pick = -1;
    for (let i = 0; i < boxes.length; i++)
      if (
        boxes[i]!.width > 0 &&
        (pick < 0 || boxes[i]!.count * boxes[i]!.width > boxes[pick]!.count * boxes[pick]!.width)
      )
        pick = i;
    if (pick < 0) break;
    const { lo, hi, count: n, side } = boxes[pick]!;
    // Sort the box's bins along its widest side, then cut at half its pixels.
    const keys = order.subarray(lo, hi);
    for (let k = 0; k < keys.length; k++)
      keys[k] = (((keys[k]! >> SHIFTS[side]!) & (SIDE - 1)) << (3 * BITS)) | keys[k]!;
    keys.sort();
    for (let k = 0; k < keys.length; k++) keys[k] = keys[k]! & (BINS - 1);
    let cut = lo + 1;
    for (let seen = count[order[lo]!]!; cut < hi - 1 && seen + count[order[cut]!]! <= n / 2; cut++)
      seen += count[order[cut]!]!;
    boxes.splice(pick, 1, measure(lo, cut), measure(cut, hi));
  }

  const palette = new Uint8Array(boxes.length * 3);
  const entryOf = new Uint8Array(BINS);
  boxes.forEach((box, i) => {
    const rgb = [0, 0, 0];
    for (let k = box.lo; k < box.hi; k++) {
      const bin = order[k]!;
      entryOf[bin] = i;
      for (let c = 0; c < 3; c++) rgb[c]! += sums[bin * 3 + c]!;
    }
    for (let c = 0; c < 3; c++) palette[i * 3 + c] = Math.round(rgb[c]! / box.count);
  });
  const indexes = new Uint8Array(pixels);
  for (let i = 0, p = 0; i < pixels; i++, p += 4) indexes[i] = entryOf[binOf(rgba, p)]!;
  return { palette, indexes };
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** The CRC-32 of PNG chunks (ISO 3309), over `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An 8-bit indexed PNG of `image`. */
export async function makeIndexedPng(width: number, height: number, image: PaletteImage): Promise<Buffer> {
  const { palette, indexes } = image;
  if (indexes.length !== width * height || palette.length === 0 || palette.length > 256 * 3)
    throw new Error(`an indexed PNG needs ${width * height} indexes and 1 to 256 colours`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8); // 8 bits, palette, deflate, adaptive filters, no interlace
  const raw = Buffer.alloc(height * (width + 1)); // each row: filter 0, then its indexes
  for (let y = 0; y < height; y++) raw.set(indexes.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const data = await deflateAsync(raw, { level: 6, memLevel: 9 });
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', data),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
