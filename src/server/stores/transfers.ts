/** The rules of transfer links both backends share. */
import type { TransferState } from './types.ts';

export function transferState(
  row: { player_id: string; expires_at: number; used_at: number | null } | undefined,
  now: number,
): TransferState {
  if (!row) return { state: 'missing' };
  if (row.used_at !== null) return { state: 'used' };
  if (row.expires_at <= now) return { state: 'expired' };
  return { state: 'valid', playerId: row.player_id, expiresAt: row.expires_at };
}

/** How long a used or expired link is still told apart from a forged one. */
export const TRANSFER_MEMORY_MS = 24 * 3600 * 1000;
