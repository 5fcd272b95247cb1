/**
 * The files of `backup` and `restore`: the target's checks and reservation, how paths are quoted, and the
 * failure that is not the input's.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.ts';

/** The copy could not be made for a reason other than the input (disk full, a broken source): exit 1. */
export class BackupFailure extends Error {}

/** A path in a message: whole (args.ts `quote` shortens user text), quoted, escaped to one line. */
export const quote = (path: string): string => JSON.stringify(path);

export const reason = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** Checks the target (new, or replaced with `force`; not `source`) and returns a temporary file reserved beside it. */
export function prepareTarget(target: string, source: string | undefined, force: boolean): string {
  if (source !== undefined && resolve(target) === resolve(source))
    throw new UsageError('the backup cannot be the database itself');
  if (existsSync(target)) {
    if (statSync(target).isDirectory()) throw new UsageError(`${quote(target)} is a directory; give a file name`);
    if (!force) throw new UsageError(`${quote(target)} exists; add --force to replace it`);
  }
  const folder = dirname(target);
  if (!existsSync(folder)) throw new UsageError(`there is no folder ${quote(folder)}`);
  if (!statSync(folder).isDirectory()) throw new UsageError(`${quote(folder)} is not a folder`);
  const temporary = `${target}.partial-${process.pid}`;
  try {
    closeSync(openSync(temporary, 'wx')); // the real test of "can we write there" (access() lies to root)
  } catch (error) {
    throw new UsageError(`cannot write to ${quote(folder)}: ${reason(error)}`);
  }
  return temporary;
}
