/** Why the win was lost, in words (docs/coach.md). */
import { faceMessage, type Format } from './i18n.ts';

/** The message of each reason (engine REASONS). */
const REASON_KEYS: Readonly<Record<string, string>> = {
  stacked: 'client.reason.stacked',
  'same-row': 'client.reason.sameRow',
  cycle: 'client.reason.cycle',
  walled: 'client.reason.walled',
  none: 'client.reason.none',
};

/** A lost win's reason and losing match. */
export interface LossWords {
  readonly reason: string; // a code of REASONS
  readonly faces: readonly [string, string];
  readonly at: number; // the losing match is move at + 1
  readonly named: string | null;
}

/** The stats history's short reasons (engine REASONS). */
const SHORT_KEYS: Readonly<Record<string, string>> = {
  stacked: 'stats.lostWhy.stacked',
  'same-row': 'stats.lostWhy.sameRow',
  cycle: 'stats.lostWhy.cycle',
  walled: 'stats.lostWhy.walled',
  none: 'stats.lostWhy.none',
};

/** The tiles a reason names as a group: "Red dragon tiles", "flowers". */
export function groupText(t: Format, face: string | null): string {
  if (face === null) return '';
  if (face[0] === 'f') return t('client.reason.flowers');
  if (face[0] === 's') return t('client.reason.seasons');
  return t('client.reason.tiles', { face: t(...faceMessage(face)) });
}

/** "Matching Red dragon with Red dragon (move 12) lost it: …". */
export function reasonText(t: Format, words: LossWords): string {
  const name = (face: string): string => t(...faceMessage(face));
  return t(REASON_KEYS[words.reason] ?? 'client.reason.none', {
    a: name(words.faces[0]),
    b: name(words.faces[1]),
    k: words.at + 1,
    face: groupText(t, words.named),
  });
}

/** The short form for lists: "Move 12 lost the win: Red dragon tiles stacked". */
export function shortReasonText(t: Format, words: Pick<LossWords, 'reason' | 'at' | 'named'>): string {
  const why = t(SHORT_KEYS[words.reason] ?? 'stats.lostWhy.none', { face: groupText(t, words.named) });
  return t('stats.lost', { k: words.at + 1, why });
}
