/**
 * Reads the PNG files Chromium writes for screenshots (8 bits a channel, RGB or RGBA, not interlaced) into
 * RGBA pixels, so tests and benches can measure rendered pixels without an image library.
 */
import { inflateSync } from 'node:zlib';

export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array; // row by row, 4 bytes a pixel
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The Paeth predictor of the PNG specification. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG of 8-bit RGB or RGBA, without interlacing; throws on anything else. */
export function decodePng(png: Uint8Array): Pixels {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error('not a PNG file');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6))
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colourType}, interlace ${interlace}`);
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[out + x - channels]! : 0;
      const b = y > 0 ? rows[out - stride + x]! : 0;
      const c = x >= channels && y > 0 ? rows[out - stride + x - channels]! : 0;
      const value = line[x]!;
      const predicted =
        filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      if (filter > 4) throw new Error(`bad PNG filter ${filter}`);
      rows[out + x] = (value + predicted) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[i * 4] = rows[i * channels]!;
    rgba[i * 4 + 1] = rows[i * channels + 1]!;
    rgba[i * 4 + 2] = rows[i * channels + 2]!;
    rgba[i * 4 + 3] = channels === 4 ? rows[i * channels + 3]! : 255;
  }
  return { width, height, rgba };
}
