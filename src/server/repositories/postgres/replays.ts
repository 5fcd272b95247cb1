/** Replay links over PostgreSQL (ReplaysStore); see ../sqlite/replays.ts for SQLite's. */
import type pg from 'pg';
import { transaction } from '../../db/postgres.ts';
import type { ReplayRow, ReplaysStore } from '../types.ts';

export function createPgReplaysRepository(pool: pg.Pool): ReplaysStore {
  return {
    async tokenFor(gameId, token, now) {
      // READ COMMITTED: the SELECT sees the row another process committed while the INSERT waited on it.
      return transaction(pool, async (client) => {
        await client.query(
          'INSERT INTO replays (token, game_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [token, gameId, now],
        );
        return (await client.query<{ token: string }>('SELECT token FROM replays WHERE game_id = $1', [gameId]))
          .rows[0]!.token;
      });
    },
    async find(token) {
      return (
        await pool.query<ReplayRow>('SELECT token, game_id, created_at, review FROM replays WHERE token = $1', [token])
      ).rows[0];
    },
    async keepReview(token, review) {
      await pool.query('UPDATE replays SET review = $1 WHERE token = $2 AND review IS NULL', [review, token]);
    },
  };
}
