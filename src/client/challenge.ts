/**
 * A challenge page's ghost, in step with the player's clock, and both times on the win; the server sends the
 * figures (docs/contracts.md, "Challenge links").
 */
import { ghostLeft } from '../shared/challenge.ts';
import { formatTime } from '../shared/display.ts';
import { setText } from './dom.ts';
import { t } from './i18n.ts';
import type { HeadlessState } from './state.ts';
import { elapsedMs } from './state.ts';

interface Challenge {
  readonly box: HTMLElement;
  readonly ghost: HTMLElement | null;
  readonly ms: number; // to beat
  readonly name: string;
  readonly left: readonly number[];
}

const read = new WeakMap<Document, Challenge | null>();

function challengeOf(doc: Document): Challenge | null {
  if (read.has(doc)) return read.get(doc)!;
  const box = doc.querySelector<HTMLElement>('#challenge');
  const found = box
    ? {
        box,
        ghost: box.querySelector<HTMLElement>('#challenge-ghost'),
        ms: Number(box.dataset.ms),
        name: box.dataset.name ?? '',
        left: (box.dataset.left ?? '').split(' ').filter(Boolean).map(Number),
      }
    : null;
  read.set(doc, found);
  return found;
}

/** Draws the ghost at the clock's time and, once the server recorded the win, both times. */
export function renderChallenge(s: HeadlessState, doc: Document, now: number): void {
  const c = challengeOf(doc);
  if (!c) return;
  const at = Math.floor(elapsedMs(s.clock, now) / 1000) * 1000;
  setText(
    c.ghost,
    at >= c.ms
      ? t('client.challenge.ghostDone', { name: c.name, time: formatTime(c.ms) })
      : t('client.challenge.ghost', { name: c.name, time: formatTime(at), n: ghostLeft(c.left, c.ms, at) }),
  );
  const panel = doc.querySelector<HTMLElement>('#win-panel');
  const mine = panel?.querySelector<HTMLElement>('[data-win="vs-mine"]');
  const result = panel?.querySelector<HTMLElement>('[data-win="vs-result"]');
  const timeMs = s.status === 'won' ? s.verified?.timeMs : null;
  if (!mine || !result) return;
  if (timeMs === null || timeMs === undefined) {
    mine.removeAttribute('data-ms');
    setText(mine, '–');
    result.hidden = true;
    return;
  }
  mine.dataset.ms = String(timeMs);
  setText(mine, formatTime(timeMs));
  // Compared as shown, to the second.
  const by = Math.floor(c.ms / 1000) - Math.floor(timeMs / 1000);
  result.dataset.result = by > 0 ? 'beaten' : by < 0 ? 'lost' : 'tie';
  setText(
    result,
    by > 0
      ? t('client.challenge.beaten', { name: c.name, by: formatTime(by * 1000) })
      : by < 0
        ? t('client.challenge.lost', { name: c.name, by: formatTime(-by * 1000) })
        : t('client.challenge.tie', { name: c.name }),
  );
  result.hidden = false;
}
