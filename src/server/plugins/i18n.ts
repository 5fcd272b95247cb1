/**
 * The page's language (docs/i18n.md, "How the language is chosen").
 *
 * - `request.lang`: the `lang` cookie when it names one of ours, else the best of `Accept-Language`, else
 *   English (src/shared/i18n.ts `chooseLang`). Worked out on first use and kept for the request.
 * - `?lang=xx` on a page's address (any GET outside /api/ and /static/) sets the cookie when xx is one of
 *   ours and goes to the same address without it (303), so an address shown, kept or shared never carries
 *   a language; a value that is not ours is dropped the same way, with no cookie and no error.
 * - `?hl=xx` (a page's address in one language, the `hreflang` alternates of view-models/head.ts) renders that page in
 *   xx for that request only, with no cookie and no redirect: a crawler, which keeps no cookie, reads every
 *   language at an address of its own. The forms' `back` drops it (plugins/view.ts), so a choice made on such
 *   a page sticks.
 * - Every HTML answer says `Content-Language` and `Vary: Cookie, Accept-Language`: the same address is
 *   another page in another language, and no cache may hand one player's language to another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { chooseLang, LANG_COOKIE, LANG_MAX_AGE, langOf, type Lang } from '../../shared/i18n.ts';
import { i18n, type Translator } from '../services/i18n.ts';
import { takeQueryChoice } from '../view-models/location.ts';

declare module 'fastify' {
  interface FastifyRequest {
    readonly lang: Lang;
    readonly i18n: Translator; // the request's language's messages and formats
    readonly hl: Lang | null; // the `?hl=xx` of a page's address, when one of ours: this page in that language
  }
}

const HL_QUERY = /(?:^|&)hl=([a-z]{2})(?:&|$)/;

/** The `?hl=xx` of a GET page address (outside /api/ and /static/), when xx is one of ours. */
export function hlOf(request: FastifyRequest): Lang | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const q = request.url.indexOf('?');
  if (q < 0 || request.url.startsWith('/api/') || request.url.startsWith('/static/')) return null;
  return langOf(HL_QUERY.exec(request.url.slice(q + 1))?.[1]);
}

/** A `lang` cookie from the raw header, for answers made before the cookie plugin ran (framework errors). */
function rawCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === LANG_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The language of a request: its `?hl=`, else its cookie, else its Accept-Language, else English. */
export function requestLang(request: FastifyRequest): Lang {
  const hl = hlOf(request);
  if (hl) return hl;
  const cookie = request.cookies ? request.cookies[LANG_COOKIE] : rawCookie(request);
  return chooseLang(cookie, request.headers['accept-language']);
}

/** Sets the `lang` cookie (not HttpOnly: nothing secret, and like the theme's it is the page's business). */
export function setLangCookie(request: FastifyRequest, reply: FastifyReply, lang: Lang): void {
  reply.setCookie(LANG_COOKIE, lang, {
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: LANG_MAX_AGE,
  });
}

async function i18nPlugin(fastify: FastifyInstance): Promise<void> {
  const catalogs = i18n(); // read and checked at start: a broken catalog stops the server, not a page
  const langs = new WeakMap<FastifyRequest, Lang>();
  fastify.decorateRequest('lang', {
    getter(this: FastifyRequest): Lang {
      let lang = langs.get(this);
      if (lang === undefined) {
        lang = requestLang(this);
        langs.set(this, lang);
      }
      return lang;
    },
  });
  fastify.decorateRequest('hl', {
    getter(this: FastifyRequest): Lang | null {
      return hlOf(this);
    },
  });
  fastify.decorateRequest('i18n', {
    getter(this: FastifyRequest): Translator {
      return catalogs.of(this.lang);
    },
  });

  fastify.addHook(
    'onRequest',
    takeQueryChoice('lang', (asked, request, reply) => {
      const lang = langOf(asked[0]);
      if (!lang) return;
      setLangCookie(request, reply, lang);
      langs.set(request, lang);
    }),
  );

  fastify.addHook('onSend', async (request, reply) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return;
    reply.header('content-language', request.lang);
    const vary = reply.getHeader('vary');
    const have = typeof vary === 'string' ? vary.toLowerCase() : '';
    const add = ['Cookie', 'Accept-Language'].filter((h) => !have.includes(h.toLowerCase()));
    if (add.length > 0)
      reply.header('vary', typeof vary === 'string' && vary ? `${vary}, ${add.join(', ')}` : add.join(', '));
  });
}

/** `make(i18n)` kept per language (20 at most): made on a language's first use. */
export function perLang<T>(make: (i18n: Translator) => T): (i18n: Translator) => T {
  const kept = new Map<Lang, T>();
  return (i18n) => {
    let made = kept.get(i18n.lang);
    if (made === undefined) kept.set(i18n.lang, (made = make(i18n)));
    return made;
  };
}

/** Sends a body made in the request's language: it says which, and varies by what chose it. */
export const sendInLang = (reply: FastifyReply, type: string, cacheControl: string, body: string): FastifyReply =>
  reply
    .type(type)
    .header('cache-control', cacheControl)
    .header('content-language', reply.request.lang)
    .header('vary', 'Cookie, Accept-Language')
    .send(body);

export default fp(i18nPlugin, { name: 'i18n' });
