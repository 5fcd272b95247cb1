/**
 * The browser's messages (docs/i18n.md): the page embeds its language's `client.` messages pre-parsed
 * (`#i18n-data`), formatted here without a parser. Before `useMessages` (Node tests) a key formats as itself.
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

// The page's locale is one the server serves, so it is used as is: Intl's locale lookup is slow on phones.
const resolved = new Map<string, Intl.Locale>();
IntlMessageFormat.resolveLocale = (locales) => {
  const tag = Array.isArray(locales) ? (locales[0] ?? 'en') : locales;
  let found = resolved.get(tag);
  if (!found) resolved.set(tag, (found = new Intl.Locale(tag)));
  return found;
};

export function useMessages(messages: Messages): void {
  current = messages;
  formats.clear();
}

export function loadMessages(doc: Document): void {
  const text = doc.getElementById('i18n-data')?.textContent;
  if (!text) return;
  try {
    useMessages(JSON.parse(text) as Messages);
  } catch {
    // invalid messages: keep the last ones
  }
}

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

export const locale = (): string => current.locale;

if (typeof document !== 'undefined') loadMessages(document);
