/** Where the generated cookie secret lives (docs/storage.md, "The cookie secret"). */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { SettingsStore } from './stores/types.ts';

const LEGACY_KEY = 'cookie_secret';

export const secretPath = (databasePath: string): string => `${databasePath}.secret`;

const generate = (): string => randomBytes(32).toString('base64url');

/** A secret file that cannot be ours: the server refuses to start. */
export class SecretFileError extends Error {
  constructor(path: string, problem: string) {
    super(
      `the cookie secret file ${path} ${problem}: restore it from a backup (players keep their cookies), ` +
        'or delete it to make a new one (every player is signed out)',
    );
  }
}

/** What is wrong with a secret file's text, if anything. */
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

/** From its file, moved there from the database, or made now. */
export async function cookieSecretFor(databasePath: string, settings: SettingsStore): Promise<string> {
  if (databasePath === ':memory:') return generate();
  const path = secretPath(databasePath);
  const existing = readSecret(path);
  if (existing) {
    await settings.delete(LEGACY_KEY);
    return existing;
  }
  const secret = (await settings.get(LEGACY_KEY)) ?? generate();
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' }); // wx: two servers starting at once keep the first's
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecret(path)!;
  }
  await settings.delete(LEGACY_KEY);
  return secret;
}
