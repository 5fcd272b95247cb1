/**
 * Palette PNGs (src/server/services/png-palette.ts): the colour cut keeps an image of few colours exact and a
 * many-coloured one close, a flat colour that fills much of the image exact; the PNG is well formed (signature,
 * chunks and their CRCs, an 8-bit palette IHDR) and inflates back to the same indexes.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { crc32, makeIndexedPng, quantize } from '../../../src/server/services/png-palette.ts';

/** An opaque RGBA image of `width` × `height` from a colour per pixel. */
function image(width: number, height: number, colour: (x: number, y: number) => [number, number, number]) {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rgba.set([...colour(x, y), 255], (y * width + x) * 4);
  return rgba;
}

/** The chunks of a PNG, each checked against its CRC. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    expect(png.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    out.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

/** Each pixel's colour after the cut. */
const colours = (palette: Uint8Array, indexes: Uint8Array) =>
  [...indexes].map((i) => [palette[i * 3]!, palette[i * 3 + 1]!, palette[i * 3 + 2]!]);

describe('the colour cut', () => {
  test('an image of 200 colours keeps each exactly', () => {
    const colour = (x: number): [number, number, number] => [(x * 37) % 256, (x * 91) % 256, x];
    const rgba = image(200, 3, (x) => colour(x));
    const { palette, indexes } = quantize(rgba);
    expect(palette.length / 3).toBeLessThanOrEqual(256);
    expect(colours(palette, indexes)).toEqual([0, 1, 2].flatMap(() => [...Array(200).keys()].map(colour)));
  });

  test('a many-coloured image comes close in 256 colours, and its flat felt stays exact', () => {
    // Left half a flat felt, right half a gradient of 128 × 128 × 4 colours.
    const felt: [number, number, number] = [0x3f, 0x84, 0x70];
    const rgba = image(512, 256, (x, y) => (x < 256 ? felt : [(x - 256) & 0xff, y, ((x * 7) ^ y) & 0xff]));
    const { palette, indexes } = quantize(rgba);
    expect(palette.length / 3).toBe(256);
    const got = colours(palette, indexes);
    let sum = 0;
    let worst = 0;
    got.forEach((c, i) =>
      c.forEach((v, k) => {
        const e = Math.abs(v - rgba[i * 4 + k]!);
        sum += e;
        worst = Math.max(worst, e);
      }),
    );
    expect(sum / (got.length * 3)).toBeLessThan(12);
    expect(worst).toBeLessThan(80);
    expect(got[0]).toEqual(felt);
    expect(got[255 * 512 + 100]).toEqual(felt);
  });

  test('one colour is one entry; fewer colours are asked for, fewer are given', () => {
    expect(quantize(image(10, 10, () => [1, 2, 3])).palette).toEqual(new Uint8Array([1, 2, 3]));
    const rgba = image(64, 64, (x, y) => [x * 4, y * 4, 128]);
    expect(quantize(rgba, 16).palette.length / 3).toBe(16);
  });
});

describe('the indexed PNG', () => {
  test('CRC-32 as PNG has it', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
  });

  test('is well formed and inflates back to its indexes', async () => {
    const rgba = image(300, 120, (x, y) => [x % 7 === 0 ? 250 : 40, (y * 3) % 256, x < 150 ? 0 : 200]);
    const cut = quantize(rgba);
    const png = await makeIndexedPng(300, 120, cut);
    const parts = chunks(png);
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND']);
    const ihdr = parts[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ...ihdr.subarray(8)]).toEqual([300, 120, 8, 3, 0, 0, 0]);
    expect(new Uint8Array(parts[1]!.data)).toEqual(cut.palette);
    const raw = inflateSync(parts[2]!.data);
    expect(raw.length).toBe(120 * 301);
    for (let y = 0; y < 120; y++) {
      expect(raw[y * 301]).toBe(0); // no filter
      expect(new Uint8Array(raw.subarray(y * 301 + 1, (y + 1) * 301))).toEqual(
        cut.indexes.subarray(y * 300, (y + 1) * 300),
      );
    }
  });

  test('refuses indexes that do not fill the image, or no palette', async () => {
    await expect(makeIndexedPng(10, 10, { palette: new Uint8Array(3), indexes: new Uint8Array(99) })).rejects.toThrow();
    await expect(makeIndexedPng(1, 1, { palette: new Uint8Array(0), indexes: new Uint8Array(1) })).rejects.toThrow();
  });
});
