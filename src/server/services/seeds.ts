/** Seeds the server chooses itself: the "New game" redirect and band searches. */
import { randomBytes } from 'node:crypto';

const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'; // no - or _: a seed never looks like a flag
export const RANDOM_SEED_LENGTH = 8;

/** About 47 bits, from the crypto RNG. */
export function randomSeed(): string {
  let seed = '';
  while (seed.length < RANDOM_SEED_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && seed.length < RANDOM_SEED_LENGTH) seed += SEED_ALPHABET[byte % 62]; // 248 = 4 × 62: unbiased
    }
  }
  return seed;
}
