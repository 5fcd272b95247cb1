/**
 * Where the generated cookie secret lives.
 *
 * With COOKIE_SECRET unset, the secret that signs player cookies is generated on the first start and
 * kept in a file beside the database, `<DATABASE_PATH>.secret`, mode 0600 — not in the database, so a
 * database backup or a copy handed to someone to debug does not carry the key that forges any
 * player's cookie. An older install kept it in the `settings` table: on start it moves to the file
 * and leaves the table. An in-memory database gets a fresh secret per start.
 *
 * Back the file up with the database (or set COOKIE_SECRET): without it, a restored server signs
 * everyone out (their stats stay, but their cookies no longer match). A damaged file is refused at start
 * (docs/operations.md, "Security"), never used: it too would sign everyone out.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { SettingsStore } from './stores/types.ts';

const LEGACY_KEY = 'cookie_secret'; // where older versions kept it

export const secretPath = (databasePath: string): string => `${databasePath}.secret`;

const generate = (): string => randomBytes(32).toString('base64url');

/** A secret file that cannot be what we wrote: the server refuses to start on it (server.ts exits 2). */
export class SecretFileError extends Error {
  constructor(path: string, problem: string) {
    super(
      `the cookie secret file ${path} ${problem}: restore it from a backup (players keep their cookies), ` +
        'or delete it to make a new one (every player is signed out)',
    );
  }
}

/**
 * What is wrong with a secret file's text, or undefined when it may be a secret: one line (a final newline
 * allowed) of 32 to 512 visible ASCII characters, at least 16 different. A damaged file (NUL bytes, a torn or
 * doubled write, binary) used as it is would sign every player out for good, so it is refused instead.
 */
export function secretProblem(bytes: Buffer): string | undefined {
  const text = bytes.toString('latin1').replace(/\r?\n$/, '');
  if (text.length === 0) return 'is empty';
  if (/[\r\n]/.test(text)) return 'holds more than one line';
  if (/[^\x21-\x7e]/.test(text)) return 'holds bytes no secret has (control, space or non-ASCII characters)';
  if (text.length < 32) return `holds ${text.length} characters, fewer than 32`;
  if (text.length > 512) return `holds ${text.length} characters, more than 512`;
  if (new Set(text).size < 16) return 'holds too few different characters to be a random secret';
  return undefined;
}

function readSecret(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretFileError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const problem = secretProblem(bytes);
  if (problem) throw new SecretFileError(path, problem);
  return bytes.toString('latin1').replace(/\r?\n$/, '');
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
