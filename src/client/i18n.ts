/**
 * The browser's messages (docs/i18n.md). The server renders every page in the player's language and embeds
 * that language's `client.` messages, already parsed, in `<script type="application/json" id="i18n-data">`:
 * the script formats them with intl-messageformat (built without its parser: scripts/build-client.ts), so
 * the bundle holds no catalog and no parser, and a page loads one language only. Offline pages carry the
 * messages they were rendered with. Before `useMessages` (tests in Node) nothing is loaded: a key then
 * formats as itself, which the tests would see.
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageValues } from '../shared/i18n.ts';

export interface Messages {
  readonly lang: string;
  readonly locale: string; // for Intl
  readonly messages: Readonly<Record<string, MessageFormatElement[] | string>>; // parsed (pages) or source (tests)
}

let current: Messages = { lang: 'en', locale: 'en', messages: {} };
const formats = new Map<string, IntlMessageFormat>();

// IntlMessageFormat resolves the locale for every message it is made for, by Intl's supportedLocalesOf, which
// costs a phone's CPU some 70 ms the first time (it loads the list of every locale). The page's locale is one
// the server chose from the 20 it serves (src/shared/i18n.ts), so it is taken as it is, once.
const resolved = new Map<string, Intl.Locale>();
IntlMessageFormat.resolveLocale = (locales) => {
  const tag = Array.isArray(locales) ? (locales[0] ?? 'en') : locales;
  let found = resolved.get(tag);
  if (!found) resolved.set(tag, (found = new Intl.Locale(tag)));
  return found;
};

/** Uses these messages from now on. */
export function useMessages(messages: Messages): void {
  current = messages;
  formats.clear();
}

/** Reads the page's embedded messages, if it has them. */
export function loadMessages(doc: Document): void {
  const text = doc.getElementById('i18n-data')?.textContent;
  if (!text) return;
  try {
    useMessages(JSON.parse(text) as Messages);
  } catch {
    // a page without valid messages keeps the last ones (never a crash for a sentence)
  }
}

/** A message in the page's language. */
export function t(key: string, values?: MessageValues): string {
  let format = formats.get(key);
  if (!format) {
    const message = current.messages[key];
    if (message === undefined) return key;
    format = new IntlMessageFormat(message, current.locale);
    formats.set(key, format);
  }
  const out = format.format(values);
  return Array.isArray(out) ? out.join('') : String(out);
}

/** The page's locale, for Intl. */
export const locale = (): string => current.locale;

if (typeof document !== 'undefined') loadMessages(document);
