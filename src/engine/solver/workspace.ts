/**
 * The typed arrays a solve works in, kept per geometry (allocating them costs more than many solves), and the
 * start position set up in them.
 */
import { coverOf, flatOf, neighbourCounts, type Cover, type Flat } from '../flat.ts';
import type { Geometry } from '../layout.ts';
import { matchGroup, type Presence } from '../rules.ts';
import { blockersFromCounts, neighboursOf, type Neighbours } from './playouts.ts';
import type { Face } from '../types.ts';

/** The probe plays' board: where the walk with one group held back ended, and its restrictions. */
export interface HeldBack {
  readonly present: Uint8Array;
  readonly blockers: Int32Array;
  readonly reached: Uint8Array;
  readonly freeOrGone: Int32Array;
  readonly ban: Int32Array;
  readonly restricted: Uint8Array;
  held: number;
}

/**
 * The board a failed optimistic play stranded, with its walk's end: the copies it reached and their count per
 * group, and whether the walk ran (false when the nogoods failed the play before it).
 */
export interface Stranded extends PlayState {
  readonly reached: Uint8Array;
  readonly freeOrGone: Int32Array;
  walked: boolean;
}

/** A board during play: what greedy play left, where the plays below it start. */
export interface PlayState {
  readonly present: Uint8Array;
  readonly blockers: Int32Array; // per tile: present tiles above it and beside it, one number (playouts.ts, Neighbours)
  readonly mate: Int32Array;
  remaining: number;
  played: number; // move-list entries that led here
}

export class Workspace {
  readonly n: number;
  readonly flat: Flat;
  readonly cover: Cover;
  readonly words: number;

  groupOfCode = new Int32Array(64).fill(-1); // per face code: its group while setting up; else -1
  readonly codeOfGroup: Int32Array;
  readonly fullBlockers: Int32Array; // per tile: its blockers number on the full board (playouts.ts, Neighbours)
  readonly groupOf: Int32Array;
  readonly sizes: Int32Array;
  readonly memberAt: Int32Array;
  readonly members: Int32Array;
  readonly rank: Int32Array;
  readonly nextSlot: Int32Array;
  readonly start: Uint8Array;
  readonly counts: [Int32Array, Int32Array, Int32Array];
  readonly startBlockers: Int32Array;

  // The plays (plays.ts).
  readonly present: Uint8Array;
  readonly blockers: Int32Array;
  readonly stack: Int32Array;
  readonly reached: Uint8Array;
  readonly freeOrGone: Int32Array;
  readonly leftAt: Int32Array;
  readonly counted: Uint8Array;
  readonly freeUncommitted: Int32Array;
  readonly uncommittedLeft: Int32Array;
  readonly mate: Int32Array;
  readonly moves: Int32Array;
  readonly neighbours: Neighbours;
  readonly playoutBlockers: Int32Array;
  readonly playoutStartBlockers: Int32Array;
  readonly playoutState: Int32Array;
  readonly playoutOpening: Int32Array;
  readonly playoutSafe: Int32Array;
  readonly playoutSafeAtStart: Int32Array;
  readonly playoutMoves: Int32Array;
  readonly states: PlayState[] = [];
  readonly stranded: Stranded;
  readonly heldBack: HeldBack;
  readonly resumed: Int32Array;

  // Nogoods (nogoods.ts): per pair key, grown as needed.
  forbidden = new Uint8Array(0);
  watchers: (number[] | undefined)[] = [];
  readonly listed: number[] = [];
  readonly nearBy: number[][];
  nearLevels = 0;
  readonly ban: Int32Array;
  readonly restricted: Uint8Array;
  readonly playBan: Int32Array;
  readonly playRestricted: Uint8Array;
  readonly playBanBy: Int32Array;

  // Commitments (commitments.ts).
  readonly base: Int32Array;
  readonly partner: Int32Array;
  readonly trial: Int32Array;
  readonly levelOf: Int32Array;
  readonly decPairs: Int32Array;
  readonly decCount: Int32Array;
  readonly copies: Int32Array;

  // Conflicts (conflicts.ts).
  readonly conflict: Uint32Array;
  readonly acc: Uint32Array;
  readonly activity: Float64Array;
  readonly freeGroup: Int32Array;
  readonly banLevels: Uint32Array;
  readonly lifted: number[] = [];

  // The search (search.ts).
  readonly options: Int32Array;
  readonly optionCost = new Int32Array(4);
  readonly marks: Int32Array;
  readonly chain: Int32Array;
  readonly probeOrder: Int32Array;
  readonly phase: Int32Array;

  constructor(n: number, flat: Flat, cover: Cover) {
    const levels = (n >>> 1) + 1;
    this.n = n;
    this.flat = flat;
    this.cover = cover;
    this.words = (levels + 31) >>> 5;
    this.groupOf = new Int32Array(n);
    this.sizes = new Int32Array(n);
    this.memberAt = new Int32Array(n + 1);
    this.members = new Int32Array(n);
    this.rank = new Int32Array(n);
    this.nextSlot = new Int32Array(n);
    this.start = new Uint8Array(n);
    this.counts = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    this.startBlockers = new Int32Array(n);
    this.codeOfGroup = new Int32Array(n);

    this.present = new Uint8Array(n);
    this.blockers = new Int32Array(n);
    // Pushes: every tile once, neighbours once per removal, a group's copies once per copy seen.
    this.stack = new Int32Array(6 * n + flat.below.length + flat.left.length + flat.right.length + 8);
    this.reached = new Uint8Array(n);
    this.freeOrGone = new Int32Array(n);
    this.leftAt = new Int32Array(n);
    this.counted = new Uint8Array(n);
    this.freeUncommitted = new Int32Array(n);
    this.uncommittedLeft = new Int32Array(n);
    this.mate = new Int32Array(n);
    this.moves = new Int32Array(n);
    this.neighbours = neighboursOf(flat, n);
    this.fullBlockers = blockersFromCounts(this.neighbours, neighbourCounts(flat, new Uint8Array(n).fill(1)));
    this.playoutBlockers = new Int32Array(n);
    this.playoutStartBlockers = new Int32Array(n);
    this.playoutState = new Int32Array(5 * n + (n >> 3) + 1);
    this.playoutOpening = new Int32Array(this.playoutState.length);
    this.playoutSafe = new Int32Array(3 * n + 8); // one per tile freed, one per move, one per group at the start
    this.playoutSafeAtStart = new Int32Array(this.playoutSafe.length);
    this.playoutMoves = new Int32Array(n);
    this.stranded = {
      present: new Uint8Array(n),
      blockers: new Int32Array(n),
      mate: new Int32Array(0), // not read by optimistic plays
      remaining: 0,
      played: 0,
      reached: new Uint8Array(n),
      freeOrGone: new Int32Array(n),
      walked: false,
    };

    this.resumed = new Int32Array(n);
    this.heldBack = {
      present: new Uint8Array(n),
      blockers: new Int32Array(n),
      reached: new Uint8Array(n),
      freeOrGone: new Int32Array(n),
      ban: new Int32Array(n),
      restricted: new Uint8Array(n),
      held: 0,
    };

    this.nearBy = Array.from({ length: levels }, () => []);
    this.ban = new Int32Array(n);
    this.restricted = new Uint8Array(n);
    this.playBan = new Int32Array(n);
    this.playRestricted = new Uint8Array(n);
    this.playBanBy = new Int32Array(2 * n + 4);

    this.base = new Int32Array(n);
    this.partner = new Int32Array(n);
    this.trial = new Int32Array(n);
    this.levelOf = new Int32Array(n);
    this.decPairs = new Int32Array(levels * 4);
    this.decCount = new Int32Array(levels);
    this.copies = new Int32Array(n);

    this.conflict = new Uint32Array((levels + 1) * this.words);
    this.acc = new Uint32Array((levels + 1) * this.words);
    this.activity = new Float64Array(n);
    this.freeGroup = new Int32Array(n);
    this.banLevels = new Uint32Array(this.words);

    this.options = new Int32Array(levels * n);
    this.marks = new Int32Array(n);
    this.chain = new Int32Array(n);
    this.probeOrder = new Int32Array(n);
    this.phase = new Int32Array(n);
  }
}

const WORKSPACE = new WeakMap<Geometry, Workspace>();

// Per face, a small number shared by the faces that match (memoized; two-letter faces in a table).
const GROUP_CODES = new Map<string, number>();
const SHORT_CODES = new Int16Array(128 * 128).fill(-1);
const LONG_CODES = new Map<string, number>();

function codeOf(face: Face): number {
  const short = face.length === 2 ? face.charCodeAt(0) * 128 + face.charCodeAt(1) : -1;
  if (short >= 0 && short < SHORT_CODES.length && SHORT_CODES[short]! >= 0) return SHORT_CODES[short]!;
  let code = LONG_CODES.get(face);
  if (code === undefined) {
    const key = matchGroup(face);
    code = GROUP_CODES.get(key);
    if (code === undefined) GROUP_CODES.set(key, (code = GROUP_CODES.size));
    if (short >= 0 && short < SHORT_CODES.length) SHORT_CODES[short] = code;
    else LONG_CODES.set(face, code);
  }
  return code;
}

export function workspaceOf(geom: Geometry): Workspace {
  let work = WORKSPACE.get(geom);
  if (!work) WORKSPACE.set(geom, (work = new Workspace(geom.size, flatOf(geom), coverOf(geom))));
  return work;
}

/** The start position as the other modules read it. */
export interface Start {
  readonly n: number;
  readonly count: number;
  readonly flat: Flat;
  readonly cover: Cover; // which tiles stand above which on the full board
  readonly present: Uint8Array;
  // At the start, per tile: its blockers number (playouts.ts, Neighbours), the present tiles above it and beside it.
  readonly blockers: Int32Array;
  readonly groupCount: number;
  readonly groupOf: Int32Array;
  readonly memberAt: Int32Array; // group g's copies in slot order: members[memberAt[g] .. memberAt[g + 1])
  readonly members: Int32Array;
  readonly rank: Int32Array;
  readonly largest: number;
}

/**
 * Sets up the position: its groups of matching tiles and neighbour counts. Null when a group has an odd
 * number
 * of copies; throws when a present slot has no face.
 */
export function setUp(work: Workspace, present: Presence, faces: readonly (Face | null)[]): Start | null {
  const n = work.n;
  const groupOf = work.groupOf;
  const sizes = work.sizes;
  const groupOfCode = work.groupOfCode;
  let groupCount = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!present[i]) {
      groupOf[i] = -1;
      continue;
    }
    count++;
    const face = faces[i];
    if (face == null) throw new Error(`solve: slot ${i} is present but has no face`);
    const code = codeOf(face);
    let g = code < groupOfCode.length ? groupOfCode[code]! : -1;
    if (g < 0) {
      if (code >= groupOfCode.length) {
        work.groupOfCode = new Int32Array(2 * code + 2).fill(-1);
        return setUp(work, present, faces);
      }
      g = groupOfCode[code] = groupCount++;
      work.codeOfGroup[g] = code;
      sizes[g] = 0;
    }
    sizes[g]!++;
    groupOf[i] = g;
  }
  for (let g = 0; g < groupCount; g++) groupOfCode[work.codeOfGroup[g]!] = -1;
  for (let g = 0; g < groupCount; g++) if (sizes[g]! % 2 !== 0) return null;

  const start = work.start;
  start.set(present);
  const blockers = work.startBlockers;
  if (count === n) blockers.set(work.fullBlockers);
  else blockersFromCounts(work.neighbours, neighbourCounts(work.flat, start, work.counts), blockers);
  const { memberAt, members, rank, nextSlot } = work;
  memberAt[0] = 0;
  let largest = 0;
  for (let g = 0; g < groupCount; g++) {
    memberAt[g + 1] = memberAt[g]! + sizes[g]!;
    largest = Math.max(largest, sizes[g]!);
  }
  // Each group's copies in slot order, by a counting sort (a subarray view would allocate).
  for (let g = 0; g < groupCount; g++) nextSlot[g] = memberAt[g]!;
  for (let i = 0; i < n; i++)
    if (start[i]) {
      const g = groupOf[i]!;
      rank[i] = nextSlot[g]! - memberAt[g]!;
      members[nextSlot[g]!++] = i;
    }
  return {
    n,
    count,
    flat: work.flat,
    cover: work.cover,
    present: start,
    blockers,
    groupCount,
    groupOf,
    memberAt,
    members,
    rank,
    largest,
  };
}
