import { describe, expect, test } from 'vitest';
import { botMove, playBot } from '../../src/engine/bot.ts';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  deal,
  geometryOf,
  makeLayout,
  makeRng,
  shuffleFaces,
  type Face,
  type Geometry,
  type Slot,
} from '../../src/engine/index.ts';

const geometryFor = (slots: Slot[]) => {
  const geom = geometryOf(makeLayout('t', 'T', 't', slots));
  if (!geom.ok) throw new Error(geom.message);
  return geom.value;
};

describe('the competent bot', () => {
  test('takes a whole free group before a pair that frees more tiles', () => {
    // d1 d1 alone and free; four b1, two of them free on top of the other two.
    const slots: Slot[] = [
      { x: 0, y: 0, z: 0 },
      { x: 4, y: 0, z: 0 },
      { x: 10, y: 0, z: 0 },
      { x: 10, y: 0, z: 1 },
      { x: 14, y: 0, z: 0 },
      { x: 14, y: 0, z: 1 },
    ];
    const geom = geometryFor(slots);
    const at = (s: Slot) => geom.slots.findIndex((t) => t.x === s.x && t.y === s.y && t.z === s.z);
    const faces: Face[] = [];
    faces[at(slots[0]!)] = faces[at(slots[1]!)] = 'd1';
    for (const s of slots.slice(2)) faces[at(s)] = 'b1';
    const move = botMove(geom, new Uint8Array(6).fill(1), faces, makeRng('bot-test'));
    expect(move?.map((i) => faces[i])).toEqual(['d1', 'd1']);
    // Without the whole group it takes the two tops, which free the two below.
    const present = new Uint8Array(6).fill(1);
    present[at(slots[0]!)] = present[at(slots[1]!)] = 0;
    const tops = botMove(geom, present, faces, makeRng('bot-test'));
    expect(tops?.map((i) => geom.slots[i]!.z)).toEqual([1, 1]);
  });

  test('is deterministic, and more shuffles never clear fewer turtle deals', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    const wins = [0, 0, 0];
    for (let k = 1; k <= 6; k++) {
      const dealt = deal(turtle, `bot-${k}`, 'relaxed');
      if (!dealt.ok) throw new Error(dealt.message);
      const faces = dealt.value.deal.tiles.map((t) => t.face);
      const results = [0, 3, Infinity].map((s) => playBot(geom.value, faces, `bot-${k}`, s));
      expect(playBot(geom.value, faces, `bot-${k}`, 3)).toEqual(results[1]);
      results.forEach((r, i) => (wins[i]! += r.won ? 1 : 0)); // i < 3: one result per budget
      expect(results[0]!.shuffles).toBe(0);
      expect(results[1]!.shuffles).toBeLessThanOrEqual(3);
      if (results[0]!.won) expect(results[1]).toEqual(results[0]);
    }
    expect(wins[0]).toBeLessThanOrEqual(wins[1]!);
    expect(wins[1]).toBeLessThanOrEqual(wins[2]!);
    expect(wins[2]).toBeGreaterThan(0);
  });
});

describe('the bot at speed', () => {
  /** The bot as the study first wrote it: botMove on the whole board every move, shuffles as the game does. */
  function plainBot(geom: Geometry, start: readonly Face[], seed: string, shuffles: number) {
    const rng = makeRng(seed, 'bot');
    const present = new Uint8Array(geom.size).fill(1);
    let faces: (Face | null)[] = start.slice();
    let left = geom.size;
    let used = 0;
    for (;;) {
      if (left === 0) return { won: true, shuffles: used, left: 0 };
      const move = botMove(geom, present, faces, rng);
      if (move) {
        present[move[0]] = present[move[1]] = 0;
        left -= 2;
        continue;
      }
      if (used >= shuffles) return { won: false, shuffles: used, left };
      used++;
      const shuffled = shuffleFaces(geom, present, faces, seed, used);
      if (!shuffled.ok) return { won: false, shuffles: used, left };
      faces = shuffled.value.faces;
    }
  }

  test.each(['turtle', 'towers', 'fortress', 'butterfly', 'imperial'])(
    '%s: playBot makes the moves of botMove, shuffles included',
    (id) => {
      const layout = layoutById(id)!;
      const geom = geometryOf(layout);
      if (!geom.ok) throw new Error(geom.message);
      for (const mode of ['relaxed', 'classic'] as const)
        for (let k = 1; k <= 3; k++) {
          const dealt = deal(layout, `speed-${k}`, mode);
          if (!dealt.ok) throw new Error(dealt.message);
          const faces = dealt.value.deal.tiles.map((t) => t.face);
          for (const shuffles of [0, 3])
            expect(playBot(geom.value, faces, `speed-${k}`, shuffles)).toEqual(
              plainBot(geom.value, faces, `speed-${k}`, shuffles),
            );
        }
    },
  );
});
