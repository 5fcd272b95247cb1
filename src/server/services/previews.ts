/**
 * Link-preview images (docs/contracts.md, "Finding the site and link previews"): an image's address is its
 * content (hash of renderer version, layout and faces), so it is immutable and any process draws it alone.
 * Drawing is charged to the client's CPU budget, bounded per process, and kept in a byte-bounded LRU.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FACES, geometryOf, layoutById, type Face, type Geometry } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import { ByteLru } from '../utils/lru.ts';
import { MAX_BADGE_S, PREVIEW_HEIGHT, PREVIEW_WIDTH, previewSvg, renderPng } from './preview-image.ts';
import { PREVIEW_CACHE_BYTES } from '../utils/sizes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    previews: Previews;
  }
}

const VERSION = 'og2'; // changes when the drawing does
/** CPU charged for drawing a board of `tiles`, in ms (docs/operations.md, "CPU budgets"). */
export const previewCostMs = (tiles: number): number => 40 + 0.4 * tiles;
export const PREVIEW_CONCURRENCY = 2; // per process; past it 503 ERR_BUSY
const CODE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP'; // FACES[i] is CODE[i]
const GONE = '-';
const FACE_OF = new Map<string, Face>(FACES.map((face, i) => [CODE[i]!, face]));

export interface PreviewImage {
  readonly url: string; // absolute from PUBLIC_ORIGIN, else root-relative
  readonly width: number;
  readonly height: number;
}

export type DrawResult = { readonly ok: true; readonly png: Buffer } | Refusal;

export interface Previews {
  /** The image of a board (faces null where gone; a time to beat in ms). */
  imageOf(layout: string, geom: Geometry, faces: readonly (Face | null)[], timeMs?: number): PreviewImage;
  /** The PNG at an image's address, cached or drawn (charged to `client`). */
  draw(hash: string, layout: string, code: string, client: string, timeS?: number): Promise<DrawResult>;
}

export const facesCode = (faces: readonly (Face | null)[]): string =>
  faces.map((f) => (f === null ? GONE : CODE[FACES.indexOf(f)]!)).join('');

/** The faces of a code, or undefined when a letter is not one. */
function facesOfCode(code: string): (Face | null)[] | undefined {
  const faces: (Face | null)[] = [];
  for (const c of code) {
    if (c === GONE) faces.push(null);
    else {
      const face = FACE_OF.get(c);
      if (face === undefined) return undefined;
      faces.push(face);
    }
  }
  return faces;
}

const hashOf = (layout: string, geom: Geometry, code: string, timeS?: number): string =>
  createHash('sha256')
    .update(
      `${VERSION}\n${layout}\n${geom.slots.map((s) => `${s.x},${s.y},${s.z}`).join(' ')}\n${code}` +
        (timeS === undefined ? '' : `\n${timeS}`),
    )
    .digest('hex')
    .slice(0, 16);

const builtinGeometries = new Map<string, Geometry>();

async function previewsPlugin(fastify: FastifyInstance): Promise<void> {
  const kept = new ByteLru<string, Buffer>('preview images', PREVIEW_CACHE_BYTES);
  fastify.caches.push(kept);
  let drawing = 0;

  const geometry = async (id: string): Promise<Geometry | undefined> => {
    const builtin = layoutById(id);
    if (builtin) {
      let geom = builtinGeometries.get(id);
      if (geom === undefined) {
        const made = geometryOf(builtin);
        if (!made.ok) return undefined;
        builtinGeometries.set(id, (geom = made.value));
      }
      return geom;
    }
    const custom = await fastify.layouts.custom(id);
    if (!custom) return undefined;
    const made = geometryOf(custom.layout);
    return made.ok ? made.value : undefined;
  };

  const previews: Previews = {
    imageOf(layout, geom, faces, timeMs) {
      const code = facesCode(faces);
      const timeS = timeMs === undefined ? undefined : Math.min(MAX_BADGE_S, Math.floor(timeMs / 1000));
      const path =
        `/og/${hashOf(layout, geom, code, timeS)}.png?layout=${encodeURIComponent(layout)}&faces=${code}` +
        (timeS === undefined ? '' : `&time=${timeS}`);
      return { url: `${fastify.publicOrigin ?? ''}${path}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT };
    },
    async draw(hash, layout, code, client, timeS) {
      const cached = kept.get(hash);
      if (cached) return { ok: true, png: cached };
      const unknown: Refusal = { ok: false, code: 'ERR_NOT_FOUND', message: 'there is no such preview image' };
      const geom = await geometry(layout);
      if (!geom) return { ok: false, code: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${layout}` };
      const faces = facesOfCode(code);
      if (!faces || faces.length !== geom.size || hashOf(layout, geom, code, timeS) !== hash) return unknown;
      // Charged before the work, by the board's size.
      const refused = await fastify.cpuBudget.charge(client, previewCostMs(geom.size), 'preview', 'worker');
      if (refused) return refused;
      if (drawing >= PREVIEW_CONCURRENCY)
        return {
          ok: false,
          code: 'ERR_BUSY',
          retryAfterS: 1,
          message: 'the server is drawing other images; try again',
        };
      drawing++;
      try {
        const png = await renderPng(previewSvg(geom, faces, timeS));
        kept.set(hash, png, png.length + 64);
        return { ok: true, png };
      } finally {
        drawing--;
      }
    },
  };
  fastify.decorate('previews', previews);
}

export default fp(previewsPlugin, { name: 'previews', dependencies: ['cpu-budget', 'layouts'] });
