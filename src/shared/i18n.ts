/** The game's languages and how a request's is chosen (docs/i18n.md); no DOM, no Node. */

/** The picker's order; `en` is the source and fallback. */
export const LANGS = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'tr',
  'ru',
  'uk',
  'ja',
  'zh',
  'ko',
  'ar',
  'he',
  'hi',
  'id',
  'vi',
] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

export const LANG_COOKIE = 'lang';
export const LANG_MAX_AGE = 400 * 24 * 3600; // s, a browser's longest

/** Each language's own name, as the picker shows it. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
  tr: 'Türkçe',
  ru: 'Русский',
  uk: 'Українська',
  ja: '日本語',
  zh: '中文（简体）',
  ko: '한국어',
  ar: 'العربية',
  he: 'עברית',
  hi: 'हिन्दी',
  id: 'Bahasa Indonesia',
  vi: 'Tiếng Việt',
};

const RTL: ReadonlySet<Lang> = new Set<Lang>(['ar', 'he']);

export const dirOf = (lang: Lang): 'ltr' | 'rtl' => (RTL.has(lang) ? 'rtl' : 'ltr');

/** The locale Intl formats with (Arabic keeps Latin digits, as seeds are). */
export const localeOf = (lang: Lang): string => LOCALES[lang] ?? lang;

const LOCALES: Partial<Record<Lang, string>> = { en: 'en-GB', ar: 'ar-u-nu-latn', zh: 'zh-Hans' }; // British English dates

const KNOWN: ReadonlySet<string> = new Set(LANGS);

/** One of ours, spelt exactly (`de`), else null. */
export function langOf(value: unknown): Lang | null {
  return typeof value === 'string' && KNOWN.has(value) ? (value as Lang) : null;
}

/** The language a BCP 47 tag asks for, by primary subtag (docs/i18n.md). */
export function langOfTag(tag: string): Lang | null {
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  let primary = parts[0] ?? '';
  if (primary === 'iw') primary = 'he';
  if (primary === 'in') primary = 'id';
  if (primary === 'zh' && parts.slice(1).some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo'))
    return null;
  return langOf(primary);
}

const MAX_HEADER = 1024; // characters looked at
const MAX_RANGES = 32;
const RANGE = /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
const QUALITY = /^[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The best of ours for an `Accept-Language` header by q-value, or null; bounded work. */
export function negotiate(header: unknown): Lang | null {
  if (typeof header !== 'string' || header === '') return null;
  const ranges: { lang: Lang; q: number; at: number }[] = [];
  const refused = new Set<Lang>();
  const items = header.slice(0, MAX_HEADER).split(',').slice(0, MAX_RANGES);
  items.forEach((item, at) => {
    const [range = '', ...params] = item.split(';').map((p) => p.trim());
    if (!RANGE.test(range)) return;
    let q = 1;
    for (const p of params) {
      const m = QUALITY.exec(p);
      if (m) q = Number(m[1]);
      else if (/^[qQ]=/.test(p)) return;
    }
    const lang = langOfTag(range);
    if (!lang) return;
    if (q === 0) refused.add(lang);
    else ranges.push({ lang, q, at });
  });
  ranges.sort((a, b) => b.q - a.q || a.at - b.at);
  return ranges.find((r) => !refused.has(r.lang))?.lang ?? null;
}

export function chooseLang(cookie: unknown, acceptLanguage: unknown): Lang {
  return langOf(cookie) ?? negotiate(acceptLanguage) ?? DEFAULT_LANG;
}

/** The tags a message may hold (docs/i18n.md, "The catalogs"). */
export const MESSAGE_TAGS = ['b', 'em', 'code', 'link', 'link2'] as const;
export type MessageTag = (typeof MESSAGE_TAGS)[number];

export type MessageValues = Readonly<Record<string, string | number>>;

/** The browser's keys, embedded pre-parsed. */
export const CLIENT_PREFIX = 'client.';

/** A face's name as a message key and values. */
export function faceMessage(face: string): [key: string, values: MessageValues] {
  const suit = face[0];
  const n = Number(face.slice(1));
  if (face.length === 2 && n >= 1 && n <= 9) {
    if (suit === 'd') return ['client.face.dots', { n }];
    if (suit === 'b') return ['client.face.bamboo', { n }];
    if (suit === 'c') return ['client.face.characters', { n }];
  }
  return [HONOUR_KEYS[face] ?? 'client.face.dw', {}];
}

const HONOUR_KEYS: Readonly<Record<string, string>> = {
  we: 'client.face.we',
  ws: 'client.face.ws',
  ww: 'client.face.ww',
  wn: 'client.face.wn',
  dr: 'client.face.dr',
  dg: 'client.face.dg',
  dw: 'client.face.dw',
  f1: 'client.face.f1',
  f2: 'client.face.f2',
  f3: 'client.face.f3',
  f4: 'client.face.f4',
  s1: 'client.face.s1',
  s2: 'client.face.s2',
  s3: 'client.face.s3',
  s4: 'client.face.s4',
};

/** A message formatter. */
export type Format = (key: string, values?: MessageValues) => string;

/** A tile's accessible name: 'East wind, blocked, selected'. */
export function tileLabel(t: Format, face: string, free: boolean, selected = false): string {
  const name = t(...faceMessage(face));
  const key = free
    ? selected
      ? 'client.tile.freeSelected'
      : 'client.tile.free'
    : selected
      ? 'client.tile.blockedSelected'
      : 'client.tile.blocked';
  return t(key, { face: name });
}
