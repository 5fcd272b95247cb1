/**
 * /favicon.ico: the header's tile mark as an ICO of 16, 32 and 48 px PNGs, drawn with resvg once (about 3 KB).
 * The ICO layout: docs/server.md, "The favicon".
 */
import { renderAsync } from '@resvg/resvg-js';

const SIZES = [16, 32, 48] as const; // px
const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect x="6" y="1" width="20" height="28" rx="4" fill="#b08a55"/>' +
  '<rect x="4" y="3" width="20" height="28" rx="4" fill="#fbf6e9" stroke="#1d2a35" stroke-width="1.5"/>' +
  '<circle cx="14" cy="17" r="5" fill="none" stroke="#2f6f5e" stroke-width="2.5"/></svg>';

export function icoOf(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt8(0, at + 2); // no palette
    header.writeUInt8(0, at + 3);
    header.writeUInt16LE(1, at + 4); // planes
    header.writeUInt16LE(32, at + 6); // bits per pixel
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

let ico: Promise<Buffer> | undefined;

export function faviconIco(): Promise<Buffer> {
  ico ??= Promise.all(
    SIZES.map(async (size) => {
      const image = await renderAsync(MARK, {
        fitTo: { mode: 'width', value: size },
        font: { loadSystemFonts: false },
      });
      return { size, png: image.asPng() };
    }),
  ).then(icoOf);
  return ico;
}
