/**
 * Which reader a layout file needs: told by the file name's extension (`.layout`, `.map`), else by the text
 * (a KMahjongg first line `kmahjongg-layout-v…`, a GNOME `<mahjongg>` element). The CLI's --layout-file and
 * the upload page both ask here, so a file is read the same way by either.
 */

export type FileFormat = 'kmahjongg' | 'gnome';

const KMAHJONGG_HEAD = /^\uFEFF?\s*kmahjongg-layout-v/; // the first line, after a byte-order mark or blank lines
const GNOME_ROOT = /<mahjongg[\s>]/i;

/** The format of a file named `fileName` (a path or a bare name; may be empty) holding `text`, or null. */
export function detectFormat(fileName: string, text: string): FileFormat | null {
  const ext = /\.[^./\\]*$/.exec(fileName)?.[0].toLowerCase() ?? '';
  if (ext === '.layout' || (ext !== '.map' && KMAHJONGG_HEAD.test(text))) return 'kmahjongg';
  if (ext === '.map' || GNOME_ROOT.test(text)) return 'gnome';
  return null;
}
