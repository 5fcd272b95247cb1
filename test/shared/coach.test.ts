/**
 * The coach's words (src/shared/coach.ts): a reason that names a flower or a season names the group, since any
 * two flowers match (and any two seasons), in every catalog; other faces are named as they are.
 */
import { describe, expect, test } from 'vitest';
import { LANGS } from '../../src/shared/i18n.ts';
import { groupText, reasonText, shortReasonText } from '../../src/shared/coach.ts';
import { loadI18n } from '../../src/server/services/i18n.ts';

const i18n = loadI18n();
const en = i18n.of('en').t;

describe('flowers and seasons in the reasons', () => {
  test.each([
    ['f1', 'flowers'],
    ['f4', 'flowers'],
    ['s2', 'seasons'],
    ['dr', 'Red dragon tiles'],
    ['b5', 'Bamboo 5 tiles'],
  ])('%s is named as "%s"', (face, text) => {
    expect(groupText(en, face)).toBe(text);
  });

  test('the English reasons say "flowers" and "seasons", never one flower', () => {
    const stacked = reasonText(en, { reason: 'stacked', faces: ['f2', 'f3'], at: 11, named: 'f1' });
    expect(stacked).toBe(
      'Matching Flower (orchid) with Flower (chrysanthemum) (move 12) lost it: the last flowers lie one on top of the ' +
        'other, so they can never both be free.',
    );
    expect(reasonText(en, { reason: 'same-row', faces: ['dr', 'dr'], at: 0, named: 's4' })).toContain(
      'the last two seasons sit side by side',
    );
    expect(reasonText(en, { reason: 'walled', faces: ['dr', 'dr'], at: 0, named: 'dg' })).toContain(
      'the last Green dragon tiles are shut in',
    );
    expect(shortReasonText(en, { reason: 'stacked', at: 4, named: 's1' })).toBe(
      'Move 5 lost the win: the last seasons lie on one another',
    );
  });

  test.each([...LANGS])('%s: the group, not the face of one flower or season', (lang) => {
    const t = i18n.of(lang).t;
    for (const [face, group] of [
      ['f1', 'client.reason.flowers'],
      ['s3', 'client.reason.seasons'],
    ] as const) {
      const text = reasonText(t, { reason: 'stacked', faces: ['dr', 'dr'], at: 0, named: face });
      expect(text).toContain(t(group));
      expect(text).not.toContain(t(`client.face.${face}`));
      expect(shortReasonText(t, { reason: 'walled', at: 0, named: face })).toContain(t(group));
    }
    expect(t('client.reason.flowers')).not.toBe(t('client.reason.seasons'));
  });
});
