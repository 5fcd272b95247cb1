/** Replay links (ReplaysStore): one random token per game, and the solver's review kept with it. */
import type { Sql } from '../db/sql.ts';
import type { ReplayRow, ReplaysStore } from './types.ts';

export function createReplaysStore(sql: Sql): ReplaysStore {
  return {
    async tokenFor(gameId, token, now) {
      // READ COMMITTED: the SELECT sees the row a concurrent INSERT committed.
      return sql.transaction(async (tx) => {
        await tx.run('INSERT INTO replays (token, game_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
          token,
          gameId,
          now,
        ]);
        return (await tx.one<{ token: string }>('SELECT token FROM replays WHERE game_id = ?', [gameId]))!.token;
      });
    },
    async find(token) {
      return sql.one<ReplayRow>('SELECT token, game_id, created_at, review FROM replays WHERE token = ?', [token]);
    },
    async keepReview(token, review) {
      await sql.run('UPDATE replays SET review = ? WHERE token = ? AND review IS NULL', [review, token]);
    },
  };
}
