/** Static files and the asset manifest (docs/contract-board.md, "Assets"). */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TILE_SETS, type TileSet } from '../../shared/tilesets.ts';
import { THEMES, type ThemeName } from '../view-models/theme.ts';

declare module 'fastify' {
  interface FastifyInstance {
    assets: Assets;
  }
}

export type FaceSheetName = `faces-${TileSet}-${ThemeName}.svg`;
export const faceSheetName = (set: TileSet, theme: ThemeName): FaceSheetName => `faces-${set}-${theme}.svg`;
const FACE_SHEETS: readonly FaceSheetName[] = TILE_SETS.flatMap((set) =>
  THEMES.map((theme) => faceSheetName(set, theme)),
);

export const ASSET_NAMES = [
  'app.js',
  'worker.js',
  'site.js',
  'sw.js',
  'theme.js',
  'site.css',
  'board.css',
  ...FACE_SHEETS,
  'icon.svg',
  'icon-192.png',
  'icon-512.png',
  'icon-maskable-512.png',
  'editor.js',
  'editor-worker.js',
  'editor.css',
  'replay.js',
  'race.js',
  'tutorial.js', // the first game's lesson (src/client/tutorial.ts): preloaded on a first visit
] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

export interface Assets {
  url(name: AssetName): string | undefined;
  file(name: AssetName): string | undefined;
  readonly built: boolean;
  readonly version: string;
}

export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));

const FALLBACK: Record<AssetName, string | undefined> = {
  'app.js': undefined,
  'worker.js': undefined,
  'site.js': undefined,
  'sw.js': undefined,
  'icon.svg': undefined,
  'icon-192.png': undefined,
  'icon-512.png': undefined,
  'icon-maskable-512.png': undefined,
  'theme.js': undefined,
  'site.css': 'css/site.css',
  'board.css': 'css/board.css',
  ...(Object.fromEntries(FACE_SHEETS.map((name) => [name, undefined])) as Record<FaceSheetName, undefined>), // without it, no faces
  'editor.js': undefined,
  'editor-worker.js': undefined,
  'editor.css': 'css/editor.css',
  'replay.js': undefined,
  'race.js': undefined,
  'tutorial.js': undefined,
};

export interface AssetsOptions {
  publicDir?: string;
}

async function assetsPlugin(fastify: FastifyInstance, opts: AssetsOptions): Promise<void> {
  const root = opts.publicDir ?? PUBLIC_DIR;
  const manifestPath = join(root, 'build', 'manifest.json');
  let manifest: Partial<Record<string, string>> = {};
  const built = existsSync(manifestPath);
  const text = built ? readFileSync(manifestPath, 'utf8') : '';
  if (built) manifest = JSON.parse(text) as Record<string, string>;
  else fastify.log.warn(`no ${manifestPath}: run npm run build; serving plain assets and no script`);
  const version = built ? createHash('sha256').update(text).digest('hex').slice(0, 12) : 'dev';

  const files = new Map<AssetName, string | undefined>();
  for (const name of ASSET_NAMES) files.set(name, built ? manifest[name] : FALLBACK[name]);
  const url = (name: AssetName): string | undefined => {
    const file = files.get(name);
    return file ? `/static/${file}` : undefined;
  };
  const file = (name: AssetName): string | undefined => {
    const path = files.get(name);
    return path ? join(root, path) : undefined;
  };
  fastify.decorate('assets', { url, file, built, version });

  await fastify.register(fastifyStatic, {
    root,
    prefix: '/static/',
    index: false,
    list: false,
    dotfiles: 'deny',
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = path.startsWith(join(root, 'build')) && !path.endsWith('manifest.json');
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    },
  });
}

export default fp(assetsPlugin, { name: 'assets' });
