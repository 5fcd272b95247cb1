/**
 * The portrait family: layouts for a phone held upright, within 16 × 18 half tiles and five layers, each
 * layer a
 * whole tile in (the sizes: docs/client.md, "Sizes and the 3D stack").
 */
import type { Layout } from './types.ts';
import { art, build } from './shapes.ts';

/** A layout from one picture per layer, the bottom first. */
const layered = (id: string, name: string, description: string, layers: readonly (readonly string[])[]): Layout =>
  build(
    id,
    name,
    description,
    layers.map((lines, z) => art(0, 0, lines, z)),
  );

export const TULIP = layered('tulip', 'Tulip', 'A tulip in bloom on its stem, two leaves at its foot', [
  ['#..#..#', '##.#.##', '#######', '.#####.', '..###..', '...#...', '.#.#.#.', '..###..'],
  ['', '.#...#', '..###', '...#'],
]);

export const LANTERN = layered('lantern', 'Lantern', 'A paper lantern, its round body raised, a tassel below', [
  ['..##..', '.####.', '######', '######', '######', '.####.', '..##..', '...#'],
  ['', '..##', '.####', '.####', '..##', '', '', '...#'],
]);

export const VASE = layered('vase', 'Vase', 'A vase with a narrow neck, a band of raised tiles round its belly', [
  ['.######.', '..####..', '.######.', '########', '########', '########', '.######.', '..####..'],
  ['', '', '..####', '.##..##', '.##..##', '..####'],
]);

export const KEYHOLE = layered('keyhole', 'Keyhole', 'A keyhole in a door plate, its frame raised around it', [
  ['.######.', '###..###', '##.##.##', '##.##.##', '###..###', '##.##.##', '##....##', '.######.'],
  ['', '.##..##', '.#....#', '.#....#', '.##..##', '.#....#', '.#....#', '..####'],
]);

export const HOURGLASS = layered('hourglass', 'Hourglass', 'Sand running through the waist of an hourglass', [
  ['########', '.######.', '..####..', '...##...', '..####..', '.######.', '########'],
  ['.######', '..####', '', '', '', '..####', '.######'],
  ['', '...##', '', '', '', '...##', '..####'],
]);

export const PINE = layered('pine', 'Pine', 'A pine tree of three tiers on a short trunk', [
  ['...##...', '..####..', '.######.', '..####..', '.######.', '########', '.######.', '...##...', '...##...'],
  ['', '...##', '..####', '...##', '..####', '.######', '..####'],
  ['', '', '...##', '', '...##', '..####', '...##'],
  ['', '', '', '', '', '...##'],
]);

export const BOTTLE = layered('bottle', 'Bottle', 'A tall bottle, its neck and shoulders stepping up to the middle', [
  ['...##...', '...##...', '..####..', '.######.', '.######.', '.######.', '.######.', '.######.', '..####..'],
  ['', '...##', '', '..####', '..####', '..####', '..####', '..####', '...##'],
  ['', '', '', '...##', '...##', '...##', '...##', '...##'],
  ['', '', '', '', '...##', '', '...##'],
]);

export const FOUNTAIN = layered('fountain', 'Fountain', 'Jets of water over a basin of four tiers', [
  ['##.##.##', '##.##.##', '...##...', '.######.', '########', '########', '########', '.######.', '..####..'],
  ['', '', '...##', '..####', '.######', '.######', '.######', '..####'],
  ['', '', '', '...##', '..####', '..####', '..####', '...##'],
  ['', '', '', '', '...##', '...##', '...##'],
]);

export const GATE = layered('gate', 'Gate', 'An arched gate in a thick wall, open down the middle', [
  ['..####..', '.######.', '###..###', '###..###', '###..###', '###..###', '###..###', '###..###', '###..###'],
  ['..####', '.######', '.##..##', '.##..##', '.##..##', '.##..##', '.##..##', '.##..##', '.##..##'],
  ['', '..####', '..#..#', '..#..#', '..#..#', '..#..#', '..#..#', '..#..#', '..#..#'],
  ['', '...##'],
]);

export const BEEHIVE = layered(
  'beehive',
  'Beehive',
  'A dome of tiles laid like bricks, each course set half a tile over',
  [
    ['..####', '>.#####', '.######', '>#######', '########', '>#######', '########', '>#######', '########'],
    ['', '', '..####', '>.#####', '.######', '>.#####', '.######', '>.#####', '.######'],
    ['', '', '', '>..###', '..####', '>..###', '..####', '>..###'],
    ['', '', '', '', '...##', '', '...##'],
  ],
);

export const KEEP = layered('keep', 'Keep', 'A castle keep behind its battlements, four storeys high', [
  ['##.##.##', '########', '########', '########', '########', '########', '########', '########', '########'],
  ['', '.######', '.######', '.######', '.######', '.######', '.######', '.######'],
  ['', '', '..####', '..####', '..####', '..####', '..####'],
  ['', '', '', '...##', '...##', '...##'],
]);

export const SPIRE = layered('spire', 'Spire', 'The full set of 144 in a tall stepped spire, five layers to its tip', [
  ['########', '########', '########', '########', '########', '########', '########', '########', '########'],
  ['', '.######', '.######', '.######', '.######', '.######', '.######', '.######'],
  ['', '', '..####', '..####', '..####', '..####', '..####'],
  ['', '', '', '...##', '...##', '...##', '...##'],
  ['', '', '', '', '...#', '...#'],
]);
