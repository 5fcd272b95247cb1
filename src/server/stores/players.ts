/** Players (PlayersStore): cookie ids, nicknames and transfer links. A row is written with the first game. */
import type { Sql } from '../db/sql.ts';
import { TRANSFER_MEMORY_MS, transferState } from './transfers.ts';
import type { PlayerRow, PlayersStore, TransferState } from './types.ts';

export function createPlayersStore(sql: Sql): PlayersStore {
  const stateOf = async (hash: string, now: number): Promise<TransferState> =>
    transferState(
      await sql.one<{ player_id: string; expires_at: number; used_at: number | null }>(
        'SELECT player_id, expires_at, used_at FROM transfers WHERE token_hash = ?',
        [hash],
      ),
      now,
    );
  return {
    async find(id) {
      return sql.one<PlayerRow>('SELECT id, nickname, created_at FROM players WHERE id = ?', [id]);
    },
    async setNickname(id, nickname, key) {
      try {
        const changed = await sql.run('UPDATE players SET nickname = ?, nickname_key = ? WHERE id = ?', [
          nickname,
          key,
          id,
        ]);
        return changed === 1 ? 'ok' : 'missing';
      } catch (error) {
        if (sql.isUniqueViolation(error)) return 'taken'; // a lookalike of another's name
        throw error;
      }
    },
    async createTransfer(tokenHash, playerId, now, expiresAt) {
      await sql.transaction(async (tx) => {
        await tx.run('DELETE FROM transfers WHERE expires_at < ?', [now - TRANSFER_MEMORY_MS]);
        await tx.run('INSERT INTO transfers (token_hash, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
          tokenHash,
          playerId,
          now,
          expiresAt,
        ]);
      });
    },
    async findTransfer(tokenHash, now) {
      return stateOf(tokenHash, now);
    },
    async takeTransfer(tokenHash, now) {
      const taken = await sql.one<{ player_id: string; expires_at: number }>(
        `UPDATE transfers SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
         RETURNING player_id, expires_at`,
        [now, tokenHash, now],
      );
      return taken
        ? { state: 'valid', playerId: taken.player_id, expiresAt: taken.expires_at }
        : stateOf(tokenHash, now);
    },
  };
}
