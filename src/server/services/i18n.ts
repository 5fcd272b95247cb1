/**
 * The message catalogs and their formatting per language (docs/i18n.md, "The catalogs"). A key missing from a
 * language falls back to English; one missing from English throws.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import {
  CLIENT_PREFIX,
  DEFAULT_LANG,
  dirOf,
  LANG_NAMES,
  LANGS,
  localeOf,
  MESSAGE_TAGS,
  type Lang,
  type MessageValues,
} from '../../shared/i18n.ts';
import { scriptData } from '../view-models/script-json.ts';

export const LOCALES_DIR = new URL('../../../locales/', import.meta.url);

export type Catalog = Readonly<Record<string, string>>;

/** Throws unless a flat object of non-empty strings that parse as ICU messages. */
export function readCatalog(lang: string, dir: URL = LOCALES_DIR): Catalog {
  const raw: unknown = JSON.parse(readFileSync(new URL(`${lang}.json`, dir), 'utf8'));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`locales/${lang}.json: not an object`);
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string' || value === '') throw new Error(`locales/${lang}.json: ${key} is not a message`);
    try {
      parse(value);
    } catch (e) {
      throw new Error(`locales/${lang}.json: ${key} does not parse: ${(e as Error).message}`, { cause: e });
    }
  }
  return raw as Catalog;
}

export const catalogFiles = (dir: URL = LOCALES_DIR): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export type Links = Partial<Record<'link' | 'link2', string>>;

export type DateStyle = 'day' | 'day-short' | 'month' | 'weekday' | 'time';

export interface Translator {
  readonly lang: Lang;
  readonly dir: 'ltr' | 'rtl';
  readonly locale: string; // for Intl
  readonly name: string; // in the language itself
  /** Plain text. */
  t(key: string, values?: MessageValues): string;
  /** HTML: `<b>` → strong, `<em>`, `<code>`, `<link>`/`<link2>` → a link to `links`; values escaped. */
  th(key: string, values?: MessageValues, links?: Links): string;
  number(n: number): string;
  percent(ratio: number): string;
  /** A UTC date or time ('day': 3 December 2026). */
  date(ms: number, style: DateStyle): string;
  list(items: readonly string[]): string;
  /** The `client.` messages of the page's scripts, pre-parsed so the bundle carries no parser. */
  clientData(groups: readonly ClientGroup[]): string;
}

const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  day: { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' },
  'day-short': { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
  month: { month: 'long', year: 'numeric', timeZone: 'UTC' },
  weekday: { weekday: 'long', timeZone: 'UTC' },
  time: { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' },
};

const joinChunks = (chunks: unknown[]): string => chunks.join('');
const TEXT_TAGS = Object.fromEntries(MESSAGE_TAGS.map((tag) => [tag, joinChunks]));
const HTML_ELEMENT: Partial<Record<string, string>> = { b: 'strong', em: 'em', code: 'code' };

function makeTranslator(lang: Lang, catalog: Catalog, english: Catalog): Translator {
  const locale = localeOf(lang);
  const formats = new Map<string, IntlMessageFormat>();
  const message = (key: string): IntlMessageFormat => {
    let format = formats.get(key);
    if (!format) {
      const [source, from] =
        catalog[key] !== undefined ? [catalog[key], locale] : [english[key], localeOf(DEFAULT_LANG)];
      if (source === undefined) throw new Error(`no message ${key} in locales/en.json`);
      format = new IntlMessageFormat(source, from);
      formats.set(key, format);
    }
    return format;
  };
  const numbers = new Intl.NumberFormat(locale);
  const percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const dates = Object.fromEntries(
    Object.entries(DATE_OPTIONS).map(([style, options]) => [style, new Intl.DateTimeFormat(locale, options)]),
  ) as Record<DateStyle, Intl.DateTimeFormat>;
  const lists = new Intl.ListFormat(locale, { type: 'conjunction' });
  const parsed: Record<ClientGroup, Record<string, MessageFormatElement[]>> = {
    play: {},
    site: {},
    editor: {},
    replay: {},
  };
  for (const key of Object.keys(english)) {
    if (!key.startsWith(CLIENT_PREFIX)) continue;
    const message = parse(catalog[key] ?? english[key]!);
    parsed[clientGroupOf(key)][key] = message;
    if (SITE_SHARE_KEYS.has(key)) parsed.site[key] = message;
  }
  const clientData = new Map<string, string>();
  return {
    lang,
    dir: dirOf(lang),
    locale,
    name: LANG_NAMES[lang],
    t(key, values) {
      const out = message(key).format({ ...TEXT_TAGS, ...values });
      return Array.isArray(out) ? out.join('') : String(out);
    },
    th(key, values = {}, links = {}) {
      const escaped: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(values))
        escaped[name] = typeof value === 'string' ? escapeHtml(value) : value;
      for (const tag of MESSAGE_TAGS) {
        const element = HTML_ELEMENT[tag];
        const href = links[tag as keyof Links];
        escaped[tag] = element
          ? (chunks: unknown[]) => `<${element}>${chunks.join('')}</${element}>`
          : href !== undefined
            ? (chunks: unknown[]) => `<a href="${escapeHtml(href)}">${chunks.join('')}</a>`
            : joinChunks;
      }
      const out = message(key).format(escaped as Record<string, string>);
      return Array.isArray(out) ? out.join('') : String(out);
    },
    number: (n) => numbers.format(n),
    percent: (ratio) => percents.format(ratio),
    date: (ms, style) => dates[style].format(ms),
    list: (items) => lists.format(items),
    clientData(groups) {
      const name = groups.join(' ');
      let data = clientData.get(name);
      if (data === undefined) {
        const messages = Object.assign({}, ...groups.map((g) => parsed[g])) as Record<string, MessageFormatElement[]>;
        clientData.set(name, (data = scriptData({ lang, locale, messages })));
      }
      return data;
    },
  };
}

/** A page embeds the `client.` groups of the scripts it loads. */
export type ClientGroup = 'play' | 'site' | 'editor' | 'replay';

/** Sharing words of the play page that site.ts says too (src/client/share.ts). */
export const SITE_SHARE_KEYS: ReadonlySet<string> = new Set([
  'client.replayTitle',
  'client.replayCopied',
  'client.replayFailed',
  'client.challengeTitle',
  'client.challengeCopied',
  'client.challengeFailed',
  'client.shareThis',
]);
export const clientGroupOf = (key: string): ClientGroup =>
  key.startsWith('client.editor.')
    ? 'editor'
    : key.startsWith('client.waiting.')
      ? 'site'
      : key.startsWith('client.replay.')
        ? 'replay'
        : 'play';

export interface I18n {
  readonly translators: Readonly<Record<Lang, Translator>>;
  of(lang: Lang): Translator;
}

/** Throws when English is missing or a catalog is broken. */
export function loadI18n(dir: URL = LOCALES_DIR): I18n {
  const english = readCatalog(DEFAULT_LANG, dir);
  const files = new Set(catalogFiles(dir));
  const catalogOf = (lang: Lang): Catalog =>
    lang === DEFAULT_LANG ? english : files.has(lang) ? readCatalog(lang, dir) : {};
  const translators = Object.fromEntries(
    LANGS.map((lang) => [lang, makeTranslator(lang, catalogOf(lang), english)]),
  ) as Record<Lang, Translator>;
  return { translators, of: (lang) => translators[lang] };
}

let shared: I18n | undefined;
export const i18n = (): I18n => (shared ??= loadI18n());
