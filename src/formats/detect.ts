/** Which reader a layout file needs, by extension else by its text; the CLI and the upload page both ask here. */

export type FileFormat = 'kmahjongg' | 'gnome';

const KMAHJONGG_HEAD = /^\uFEFF?\s*kmahjongg-layout-v/; // after a byte-order mark or blank lines
const GNOME_ROOT = /<mahjongg[\s>]/i;

/** The format of `text` named `fileName` (a path, a name or empty), or null. */
export function detectFormat(fileName: string, text: string): FileFormat | null {
  const ext = /\.[^./\\]*$/.exec(fileName)?.[0].toLowerCase() ?? '';
  if (ext === '.layout' || (ext !== '.map' && KMAHJONGG_HEAD.test(text))) return 'kmahjongg';
  if (ext === '.map' || GNOME_ROOT.test(text)) return 'gnome';
  return null;
}
