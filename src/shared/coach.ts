/**
 * Why the win was lost, in words (docs/coach.md): the losing move and the engine's reason, for the play page's
 * check and the replay page alike.
 */
import { faceMessage, type Format } from './i18n.ts';

/** The message of each reason (engine REASONS). */
const REASON_KEYS: Readonly<Record<string, string>> = {
  stacked: 'client.reason.stacked',
  'same-row': 'client.reason.sameRow',
  cycle: 'client.reason.cycle',
  walled: 'client.reason.walled',
  none: 'client.reason.none',
};

/** What the words need: the reason's code, the losing match's faces and number, the face the reason names. */
export interface LossWords {
  readonly reason: string; // a code of REASONS
  readonly faces: readonly [string, string]; // the losing match's faces
  readonly at: number; // board moves before the losing match: it is move at + 1
  readonly named: string | null; // the face of a tile the reason names, if any
}

/** "Matching Red dragon with Red dragon (move 12) lost it: …", in the language of `t`. */
export function reasonText(t: Format, words: LossWords): string {
  const name = (face: string): string => t(...faceMessage(face));
  return t(REASON_KEYS[words.reason] ?? 'client.reason.none', {
    a: name(words.faces[0]),
    b: name(words.faces[1]),
    k: words.at + 1,
    face: words.named === null ? '' : name(words.named),
  });
}
