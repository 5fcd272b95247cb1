/** Which reader a layout file needs (src/formats/detect.ts), as the CLI and the upload page both ask. */
import { describe, expect, test } from 'vitest';
import { detectFormat } from '../../src/formats/detect.ts';

describe('detectFormat', () => {
  test.each([
    ['turtle.layout', '', 'kmahjongg'],
    ['TURTLE.LAYOUT', '<mahjongg>', 'kmahjongg'], // the extension wins over the text
    ['dir.map/turtle.layout', '', 'kmahjongg'],
    ['mahjongg.map', 'kmahjongg-layout-v1.1', 'gnome'],
    ['', '\uFEFF\n kmahjongg-layout-v1.0\n', 'kmahjongg'],
    ['upload.txt', '<?xml version="1.0"?>\n<mahjongg>\n<map name="x">', 'gnome'],
    ['upload', '<MAHJONGG\n>', 'gnome'],
    ['notes.txt', 'a shopping list', null],
    ['layout', 'kmahjongg-layout', null], // no version: neither
    ['.layout/file', '<mahjonggs>', null], // the folder's name is not the file's extension
  ] as const)('%j holding %j: %s', (name, text, format) => {
    expect(detectFormat(name, text)).toBe(format);
  });
});
