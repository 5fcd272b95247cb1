/**
 * Players over SQLite (PlayersStore): anonymous ids from the cookie, with an
 * optional nickname. The row is written with the player's first game (see
 * games.ts), so a visit alone stores nothing.
 */
import type { Database } from 'better-sqlite3';
import { nameKey } from '../../services/names.ts';
import { TRANSFER_MEMORY_MS, transferState } from '../transfers.ts';
import type { PlayerRow, PlayersStore, TransferState } from '../types.ts';

export function createPlayersRepository(db: Database): PlayersStore {
  const byId = db.prepare<[string], PlayerRow>('SELECT id, nickname, created_at FROM players WHERE id = ?');
  const rename = db.prepare<[string | null, string | null, string]>(
    'UPDATE players SET nickname = ?, nickname_key = ? WHERE id = ?',
  );
  const insertTransfer = db.prepare<[string, string, number, number]>(
    'INSERT INTO transfers (token_hash, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const forgetTransfers = db.prepare<[number]>('DELETE FROM transfers WHERE expires_at < ?');
  const transferOf = db.prepare<[string], { player_id: string; expires_at: number; used_at: number | null }>(
    'SELECT player_id, expires_at, used_at FROM transfers WHERE token_hash = ?',
  );
  const useTransfer = db.prepare<[number, string, number], { player_id: string; expires_at: number }>(
    'UPDATE transfers SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING player_id, expires_at',
  );
  const stateOf = (hash: string, now: number): TransferState => transferState(transferOf.get(hash), now);
  return {
    async find(id) {
      return byId.get(id);
    },
    async setNickname(id, nickname, key) {
      try {
        return rename.run(nickname, key, id).changes === 1 ? 'ok' : 'missing';
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'taken'; // a lookalike of another's name
        throw error;
      }
    },
    async createTransfer(tokenHash, playerId, now, expiresAt) {
      forgetTransfers.run(now - TRANSFER_MEMORY_MS); // a used or expired link is still told apart from a forged one for a day
      insertTransfer.run(tokenHash, playerId, now, expiresAt);
    },
    async findTransfer(tokenHash, now) {
      return stateOf(tokenHash, now);
    },
    async takeTransfer(tokenHash, now) {
      const taken = useTransfer.get(now, tokenHash, now);
      return taken
        ? { state: 'valid', playerId: taken.player_id, expiresAt: taken.expires_at }
        : stateOf(tokenHash, now);
    },
  };
}

/**
 * Gives names set before migration 005 their lookalike key, so new names are compared with them too.
 * A name whose key another name holds already keeps no key (it stays shown; nobody new can take a
 * lookalike of the first). Returns how many got one.
 */
export function keyOldNicknames(db: Database): number {
  const rows = db
    .prepare<[], { id: string; nickname: string }>(
      'SELECT id, nickname FROM players WHERE nickname IS NOT NULL AND nickname_key IS NULL ORDER BY created_at',
    )
    .all();
  const set = db.prepare<[string, string]>('UPDATE OR IGNORE players SET nickname_key = ? WHERE id = ?');
  let keyed = 0;
  db.transaction(() => {
    for (const row of rows) keyed += set.run(nameKey(row.nickname), row.id).changes;
  })();
  return keyed;
}
