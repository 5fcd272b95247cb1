/**
 * Games evicted from the cache replay cheaply: the faces each shuffle gave are
 * stored with the game, and new shuffles are budgeted per player.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SHUFFLES_PER_MINUTE } from '../../../src/server/services/games.ts';
import { build, createGame, newPlayer, postMoves } from '../helper.ts';

describe('stored shuffle boards', () => {
  test('each shuffle stores its board; another process (no cache) plays on from them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mj-replay-'));
    try {
      const path = join(dir, 'test.db');
      const first = await build({ databasePath: path });
      const cookie = await newPlayer(first);
      const game = await createGame(first, cookie);
      const shuffled = await postMoves(first, cookie, game.id, [
        { type: 'shuffle' },
        { type: 'shuffle' },
        { type: 'undo' },
        { type: 'shuffle' },
      ]);
      expect(shuffled.statusCode).toBe(200);
      const faces = shuffled.json().faces;
      const row = first.db!.prepare('SELECT boards FROM games WHERE id = ?').get(game.id) as { boards: string };
      expect(row.boards).toHaveLength(3 * 288); // three shuffles, 2 characters per slot
      await first.close();

      const second = await build({ databasePath: path });
      const on = await postMoves(second, cookie, game.id, [{ type: 'undo' }, { type: 'redo' }]);
      expect(on.statusCode).toBe(200);
      expect(on.json().faces).toEqual(faces);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`at most ${SHUFFLES_PER_MINUTE} new shuffles a minute per player: 429 with Retry-After, nothing stored`, async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const batch = Array(20).fill({ type: 'shuffle' });
    for (let i = 0; i < SHUFFLES_PER_MINUTE / 20; i++)
      expect((await postMoves(app, cookie, game.id, batch)).statusCode).toBe(200);
    const refused = await postMoves(app, cookie, game.id, [{ type: 'shuffle' }]);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatch(/shuffles a minute/);
    expect(
      (app.db!.prepare('SELECT shuffles FROM games WHERE id = ?').get(game.id) as { shuffles: number }).shuffles,
    ).toBe(SHUFFLES_PER_MINUTE);
    expect((await postMoves(app, cookie, game.id, [{ type: 'undo' }])).statusCode).toBe(200); // other moves go on
    clock += 60_000;
    expect((await postMoves(app, cookie, game.id, [{ type: 'shuffle' }])).statusCode).toBe(200);
  });
});
