/** The rules of transfer links that both backends share: what a stored link's row means, and how long it is remembered. */
import type { TransferState } from './types.ts';

/** What a transfer link's row says at `now` (both backends). */
export function transferState(
  row: { player_id: string; expires_at: number; used_at: number | null } | undefined,
  now: number,
): TransferState {
  if (!row) return { state: 'missing' };
  if (row.used_at !== null) return { state: 'used' };
  if (row.expires_at <= now) return { state: 'expired' };
  return { state: 'valid', playerId: row.player_id, expiresAt: row.expires_at };
}

/** A used or expired link is still told apart from a forged one for a day, then forgotten. */
export const TRANSFER_MEMORY_MS = 24 * 3600 * 1000;
