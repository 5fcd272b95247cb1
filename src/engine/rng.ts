/**
 * Seeded randomness, the engine's only source of chance: the seed and stream labels hashed into 128 bits seed
 * SFC32, in 32-bit integer arithmetic, so Node and every browser draw the same numbers bit for bit; `int(n)`
 * rejects the biased top of the range (docs/engine.md, "Randomness").
 */

export interface Rng {
  next(): number;
  int(n: number): number;
}

function hash128(text: string): [number, number, number, number] {
  let h1 = 0x9e3779b9;
  let h2 = 0x243f6a88;
  let h3 = 0xb7e15162;
  let h4 = 0x85a308d3;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x85ebca6b);
    h2 = Math.imul(h2 ^ c, 0xc2b2ae35);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
    h1 ^= h1 >>> 15;
    h2 ^= h2 >>> 13;
    h3 ^= h3 >>> 16;
    h4 ^= h4 >>> 14;
  }
  // Final avalanche, crossing the lanes so each depends on all input.
  h1 = Math.imul(h1 ^ (h2 >>> 16), 0x2c1b3c6d);
  h2 = Math.imul(h2 ^ (h3 >>> 13), 0x297a2d39);
  h3 = Math.imul(h3 ^ (h4 >>> 15), 0x7feb352d);
  h4 = Math.imul(h4 ^ (h1 >>> 16), 0x846ca68b);
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/**
 * A generator for the given parts (e.g. seed, 'relaxed', 'shuffle', '3'): the same parts, the same sequence.
 */
export function makeRng(...parts: readonly string[]): Rng {
  const state = rngState(...parts);
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const int = (n: number): number => {
    if (!(n >= 1 && n <= 0x100000000)) throw new RangeError(`int(n) needs 1 ≤ n ≤ 2^32, got ${n}`);
    const limit = 0x100000000 - (0x100000000 % n); // largest multiple of n; values above are biased
    for (;;) {
      const v = next();
      if (v < limit) return v % n;
    }
  };
  return { next, int };
}

/**
 * The state (four signed 32-bit lanes) of `makeRng(...parts)` before its first number, for SFC32 run inline.
 */
export function rngState(...parts: readonly string[]): Int32Array {
  const state = Int32Array.from(hash128(parts.join('\u0001')));
  for (let i = 0; i < 12; i++) sfc32Next(state); // warm up: spreads weak seeds through the state
  return state;
}

/** SFC32's next number from `state`, advancing it in place. */
export function sfc32Next(state: Int32Array): number {
  const a = state[0]!;
  const b = state[1]!;
  const c = state[2]!;
  const d = state[3]!;
  const t = (((a + b) | 0) + d) | 0;
  state[0] = b ^ (b >>> 9);
  state[1] = (c + (c << 3)) | 0;
  state[2] = (((c << 21) | (c >>> 11)) + t) | 0;
  state[3] = (d + 1) | 0;
  return t >>> 0;
}

export function shuffleInPlace<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}
