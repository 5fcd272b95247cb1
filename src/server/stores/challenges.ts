/**
 * Challenge links (ChallengesStore): one random id per won game, made on its player's first ask and the same
 * ever after, and the games of other players that answer it (many friends may play one link).
 */
import type { Sql } from '../db/sql.ts';
import type { ChallengeRow, ChallengesStore, SentChallenge } from './types.ts';

const ROW = 'SELECT c.id, c.game_id, c.player_id, c.time_ms, c.created_at FROM challenges c';

export function createChallengesStore(sql: Sql): ChallengesStore {
  const d = sql.dialect;
  return {
    async challengeFor(made) {
      // PostgreSQL at READ COMMITTED: the SELECT sees the row another process committed while the INSERT waited on it.
      return sql.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO challenges (id, game_id, player_id, time_ms, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [made.id, made.gameId, made.playerId, made.timeMs, made.now],
        );
        return (await tx.one<ChallengeRow>(`${ROW} WHERE c.game_id = ?`, [made.gameId]))!;
      });
    },
    async find(id) {
      return sql.one<ChallengeRow>(`${ROW} WHERE c.id = ?`, [id]);
    },
    async answer(challengeId, gameId) {
      await sql.run('INSERT INTO challenge_games (game_id, challenge_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [
        gameId,
        challengeId,
      ]);
    },
    async answerOf(playerId, challengeId) {
      // The player's latest game of this challenge: the page resumes it while unfinished.
      return (
        await sql.one<{ game_id: string }>(
          `SELECT g.id AS game_id FROM challenge_games cg JOIN games g ON g.id = cg.game_id
         WHERE cg.challenge_id = ? AND g.player_id = ? ORDER BY g.started_at DESC, g.${d.rowid} DESC LIMIT 1`,
          [challengeId, playerId],
        )
      )?.game_id;
    },
    async sentBy(playerId, limit) {
      return sql.all<SentChallenge>(
        `SELECT c.id, c.game_id, c.time_ms, c.created_at, d.layout, d.seed, d.mode,
           COUNT(DISTINCT a.player_id) AS players,
           COUNT(a.id) AS games,
           COUNT(CASE WHEN a.result = 'won' OR a.status = 'stuck' THEN 1 END) AS ended,
           MIN(CASE WHEN a.result = 'won' THEN a.time_ms END) AS best_ms
         FROM challenges c JOIN games g ON g.id = c.game_id JOIN deals d ON d.id = g.deal_id
         LEFT JOIN challenge_games cg ON cg.challenge_id = c.id
         LEFT JOIN games a ON a.id = cg.game_id
         WHERE c.player_id = ?
         GROUP BY c.id, c.game_id, c.time_ms, c.created_at, d.layout, d.seed, d.mode
         ORDER BY c.created_at DESC, c.id${d.binary} DESC LIMIT ?`,
        [playerId, limit],
      );
    },
  };
}
