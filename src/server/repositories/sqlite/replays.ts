/**
 * Replay links over SQLite (ReplaysStore): one random token per game (migration 012), made on the player's
 * first ask and the same ever after, and the solver's review of a finished game kept with it.
 */
import type { Database } from 'better-sqlite3';
import type { ReplayRow, ReplaysStore } from '../types.ts';

export function createReplaysRepository(db: Database): ReplaysStore {
  const insert = db.prepare<[string, string, number]>(
    'INSERT INTO replays (token, game_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const ofGame = db.prepare<[string], { token: string }>('SELECT token FROM replays WHERE game_id = ?');
  const byToken = db.prepare<[string], ReplayRow>(
    'SELECT token, game_id, created_at, review FROM replays WHERE token = ?',
  );
  const keep = db.prepare<[string, string]>('UPDATE replays SET review = ? WHERE token = ? AND review IS NULL');
  return {
    async tokenFor(gameId, token, now) {
      insert.run(token, gameId, now);
      return ofGame.get(gameId)!.token;
    },
    async find(token) {
      return byToken.get(token);
    },
    async keepReview(token, review) {
      keep.run(review, token);
    },
  };
}
