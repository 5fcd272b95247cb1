/**
 * Heavy things a client can make the server hold, shared by the memory, growth and attack
 * tests: a 1,000-tile layout as a GNOME .map file (the largest the server takes), its multipart upload
 * body, and the move batches of a game built to be heavy (many shuffles, thousands of undo/redo).
 */

export const BIG_TILES = 1000; // MAX_TILES
export const BOUNDARY = '----mj-heavy-boundary-24';

/**
 * A 1,000-tile layout: `variant` picks one of 3,750 different ones (ids are by content), each a flat block
 * of 40 × 25 tiles whose first tile sits somewhere right of the block instead, so every variant is new to
 * the store and quick to deal.
 */
export function bigLayoutMap(variant = 0): string {
  const tiles: string[] = [];
  for (let y = 0; y < 25; y++)
    for (let x = 0; x < 40; x++) {
      const moved = x === 0 && y === 0;
      const at = moved ? [40.5 + (variant % 150) * 0.5, Math.floor(variant / 150) % 25] : [x, y];
      tiles.push(`    <tile x="${at[0]}" y="${at[1]}" z="0"/>`);
    }
  return `<mahjongg>\n  <map name="Big block ${variant}">\n${tiles.join('\n')}\n  </map>\n</mahjongg>\n`;
}

/** A multipart/form-data body with one file part, as the upload form sends it. */
export function multipartFile(file: string, filename: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

type Move = { type: 'shuffle' | 'undo' | 'redo' };

/**
 * The batches that make a game heavy: `shuffles` shuffles (`perBatch` a batch, at most 20: the per-request cap),
 * then `undoRedo` moves of undo and redo in turn (at most 500 a batch). Every move is legal on any fresh game.
 */
export function heavyBatches(shuffles: number, undoRedo: number, perBatch = 20): Move[][] {
  const batches: Move[][] = [];
  for (let left = shuffles; left > 0; left -= perBatch)
    batches.push(Array.from({ length: Math.min(perBatch, left) }, (): Move => ({ type: 'shuffle' })));
  const turns = Array.from({ length: undoRedo }, (_, i): Move => ({ type: i % 2 === 0 ? 'undo' : 'redo' }));
  for (let at = 0; at < turns.length; at += 500) batches.push(turns.slice(at, at + 500));
  return batches;
}

/**
 * Turns for requests `gapMs` apart, in the order asked: `await slot()` before each. Heavy requests paced so that
 * the server's fixed CPU windows (services/cpu-budget.ts) take each one as it comes, instead of refusing a
 * burst that then sits out a Retry-After of a whole second.
 */
export function pacer(gapMs: number): () => Promise<void> {
  let next = performance.now();
  return () => {
    const at = Math.max(next, performance.now());
    next = at + gapMs;
    return new Promise((resolve) => setTimeout(resolve, at - performance.now()));
  };
}
