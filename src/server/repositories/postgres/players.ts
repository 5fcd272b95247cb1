/** Players over PostgreSQL (PlayersStore); see ../sqlite/players.ts for SQLite's. */
import type pg from 'pg';
import type { PlayerRow, PlayersStore, TransferState } from '../types.ts';
import { TRANSFER_MEMORY_MS, transferState } from '../transfers.ts';

const UNIQUE_VIOLATION = '23505';

export function createPgPlayersRepository(pool: pg.Pool): PlayersStore {
  const stateOf = async (hash: string, now: number): Promise<TransferState> => {
    const rows = await pool.query<{ player_id: string; expires_at: number; used_at: number | null }>(
      'SELECT player_id, expires_at, used_at FROM transfers WHERE token_hash = $1',
      [hash],
    );
    return transferState(rows.rows[0], now);
  };
  return {
    async find(id) {
      return (await pool.query<PlayerRow>('SELECT id, nickname, created_at FROM players WHERE id = $1', [id])).rows[0];
    },
    async setNickname(id, nickname, key) {
      try {
        const res = await pool.query('UPDATE players SET nickname = $1, nickname_key = $2 WHERE id = $3', [
          nickname,
          key,
          id,
        ]);
        return res.rowCount === 1 ? 'ok' : 'missing';
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'taken'; // a lookalike of another's name
        throw error;
      }
    },
    async createTransfer(tokenHash, playerId, now, expiresAt) {
      // One statement: forget tokens long expired, store the new one.
      await pool.query(
        `WITH forgotten AS (DELETE FROM transfers WHERE expires_at < $5)
         INSERT INTO transfers (token_hash, player_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
        [tokenHash, playerId, now, expiresAt, now - TRANSFER_MEMORY_MS],
      );
    },
    async findTransfer(tokenHash, now) {
      return stateOf(tokenHash, now);
    },
    async takeTransfer(tokenHash, now) {
      const taken = (
        await pool.query<{ player_id: string; expires_at: number }>(
          `UPDATE transfers SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1
           RETURNING player_id, expires_at`,
          [now, tokenHash],
        )
      ).rows[0];
      return taken
        ? { state: 'valid', playerId: taken.player_id, expiresAt: taken.expires_at }
        : stateOf(tokenHash, now);
    },
  };
}
