/**
 * Every test file starts with the browser's messages in English (vitest `setupFiles`): the client modules
 * tested in Node (state, render, sync…) then say what a page in English says. Here the messages are the
 * catalog's source text; pages embed them parsed (src/client/i18n.ts), and both format alike.
 */
import { readFileSync } from 'node:fs';
import { useMessages } from '../../src/client/i18n.ts';

const english = JSON.parse(readFileSync(new URL('../../locales/en.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;
useMessages({ lang: 'en', locale: 'en', messages: english });
