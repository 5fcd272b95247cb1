/**
 * Where the generated cookie secret lives (issue 9, item 10).
 *
 * With COOKIE_SECRET unset, the secret that signs player cookies is generated on the first start and
 * kept in a file beside the database, `<DATABASE_PATH>.secret`, mode 0600 — not in the database, so a
 * database backup or a copy handed to someone to debug does not carry the key that forges any
 * player's cookie. An older install kept it in the `settings` table: on start it moves to the file
 * and leaves the table. An in-memory database gets a fresh secret per start.
 *
 * Back the file up with the database (or set COOKIE_SECRET): without it, a restored server signs
 * everyone out (their stats stay, but their cookies no longer match).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { SettingsStore } from './repositories/types.ts';

const LEGACY_KEY = 'cookie_secret'; // where versions before issue 9 kept it

export const secretPath = (databasePath: string): string => `${databasePath}.secret`;

const generate = (): string => randomBytes(32).toString('base64url');

function readSecret(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (text.length < 32)
      throw new Error(`${path} holds no usable secret (fewer than 32 characters); delete it to make a new one`);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The cookie secret for a database: from its file, moved there from the database, or made now. */
export async function cookieSecretFor(databasePath: string, settings: SettingsStore): Promise<string> {
  if (databasePath === ':memory:') return generate();
  const path = secretPath(databasePath);
  const existing = readSecret(path);
  if (existing) {
    await settings.delete(LEGACY_KEY); // a copy left in the database by an older version goes
    return existing;
  }
  const secret = (await settings.get(LEGACY_KEY)) ?? generate();
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' }); // wx: a second server starting at once keeps the first one's
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecret(path)!;
  }
  await settings.delete(LEGACY_KEY);
  return secret;
}
