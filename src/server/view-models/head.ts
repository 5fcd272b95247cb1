/** A page's <head> for search engines and unfurlers (docs/contracts.md, "Finding the site and link previews"). */
import type { FastifyRequest } from 'fastify';
import { facePairs, type Face, type Geometry } from '../../engine/index.ts';
import { LANGS, type Lang } from '../../shared/i18n.ts';
import type { Translator } from '../services/i18n.ts';
import { scriptJson } from './script-json.ts';
import type { Previews } from '../services/previews.ts';

export interface HeadLinks {
  readonly canonical: string;
  readonly alternates: readonly { readonly hreflang: string; readonly href: string }[];
}

export interface Preview {
  readonly title: string;
  readonly description: string;
  readonly url: string;
  readonly image: { readonly url: string; readonly width: number; readonly height: number; readonly alt: string };
}

/** The query keys kept in the canonical. */
const PAGE_KEYS = new Set(['mode', 'move', 'page']);

const withParam = (path: string, key: string, value: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}${key}=${value}`;

/** A request's page address without `hl`. */
export function pagePath(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  if (q < 0) return request.url;
  const kept = [...new URLSearchParams(request.url.slice(q + 1))].filter(([key]) => PAGE_KEYS.has(key));
  const query = new URLSearchParams(kept).toString();
  return `${request.url.slice(0, q)}${query ? `?${query}` : ''}`;
}

/** `url` without its `hl` (the forms' way back). */
export function withoutHl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !/(?:^|&)hl=/.test(url.slice(q + 1))) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  params.delete('hl');
  const rest = params.toString();
  return `${url.slice(0, q)}${rest ? `?${rest}` : ''}`;
}

/** The canonical address and language alternates of the page at `path`. */
export function headLinks(origin: string | undefined, path: string, hl: Lang | null): HeadLinks {
  const base = `${origin ?? ''}${path}`;
  return {
    canonical: hl ? withParam(base, 'hl', hl) : base,
    alternates: [
      ...LANGS.map((lang) => ({ hreflang: lang, href: withParam(base, 'hl', lang) })),
      { hreflang: 'x-default', href: base },
    ],
  };
}

/** What a board page says of itself in a link preview. */
export interface BoardPreviewInput {
  readonly title: string;
  readonly path: string;
  readonly layout: string;
  readonly name: string;
  readonly geom: Geometry;
  readonly faces: readonly (Face | null)[]; // null where gone
  readonly timeMs?: number; // a challenge's time to beat
}

/** A board page's Open Graph and Twitter card. */
export function boardPreview(
  previews: Previews,
  origin: string | undefined,
  i18n: Translator,
  input: BoardPreviewInput,
): Preview {
  const image = previews.imageOf(input.layout, input.geom, input.faces, input.timeMs);
  return {
    title: `${input.title} · ${i18n.t('site.name')}`,
    description: i18n.t('site.previewDescription', { name: input.name }),
    url: `${origin ?? ''}${input.path}`,
    image: { ...image, alt: i18n.t('site.previewAlt', { name: input.name }) },
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A layout's faces spread over its `n` slots, for a picture with no deal. */
export function spreadFaces(n: number): Face[] {
  const flat = facePairs(n).flat();
  let stride = 37;
  while (gcd(stride, n) !== 1) stride++;
  return flat.map((_, i) => flat[(i * stride) % n]!);
}

/** The home page's JSON-LD, escaped for a <script> element. */
export function structuredData(origin: string | undefined, i18n: Translator): string {
  return scriptJson(
    JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'VideoGame',
      name: i18n.t('site.name'),
      description: i18n.t('site.description'),
      url: `${origin ?? ''}/`,
      inLanguage: i18n.lang,
      genre: 'Puzzle',
      gamePlatform: 'Web browser',
      applicationCategory: 'GameApplication',
      operatingSystem: 'Any',
      numberOfPlayers: { '@type': 'QuantitativeValue', value: 1 },
      offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
    }),
  );
}
