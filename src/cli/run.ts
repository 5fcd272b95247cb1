/**
 * The command line as a function: `run(argv, io)` resolves with the exit status (docs/contracts.md, "Command
 * line": 2 on bad input, 1 otherwise, one line on stderr, never a stack trace). Progress only to a terminal.
 */
import { HelpRequested, quote, UsageError, type Env } from './args.ts';
import { BackupFailure, backupCommand } from './backup.ts';
import { benchCommand, dealCommand, layoutsCommand, type Output } from './commands.ts';
import { reportAnyCommand } from './report.ts';
import { restoreCommand } from './restore.ts';
import { solveCommand } from './solve.ts';
import { studyCommand, type Progress } from './study.ts';

export const USAGE = `Usage: npm run --silent mahjong -- <command> [flags]

Commands:
  layouts                                        the built-in layouts: [{"id","name","tiles"}]
  deal  (--layout ID | --layout-file PATH [--name NAME]) --seed S [--mode relaxed|classic]
                                                 the deal JSON
  solve (--layout ID | --layout-file PATH [--name NAME]) --seed S [--mode relaxed|classic | --random] [--budget N]
                                                 {"result","nodes","ms","tiles","solution"?}
  solve (--layout ID | --layout-file PATH [--name NAME]) --stdin [--tiles] [--mode M | --random] [--budget N]
                                                 one seed a line on stdin, one line each, warm in one process:
                                                 {"seed","result","nodes","ms","cpu_ms","tiles"? (with --tiles)}
  study (--layout ID | --all) [--deals N] [--budget N] [--seed S] [--json]
                                                 solvability and difficulty per layout (CSV)
  study (--layout ID | --all) --difficulty [--deals N] [--seed S] [--json]
                                                 the bands' calibration: per layout, mode and band, how often random
                                                 play and the bot clear its deals (CSV; 400 deals per mode by default)
  study --layout ID --coach [--deals N] [--seed S] [--json]
                                                 the coach: per mode and player, how often a lost game's losing move
                                                 has a named reason, how far back it lies, and play on (CSV)
  bench (--layout ID | --layout-file PATH [--name NAME]) [--mode M] [--count N]
                                                 {"deals","p50_ms","p99_ms","max_ms","mean_attempts","max_attempts","failures"}
  backup PATH [--force]                          an online backup of DATABASE_PATH (default data/mahjong.db):
                                                 {"backup","source","pages","bytes","ms","check"}; with DATABASE_URL
                                                 a snapshot of PostgreSQL: {"backup","backend","source","tables","rows",…}
  restore PATH [--force]                         puts a backup back: SQLite at DATABASE_PATH (never while a server
                                                 holds it; --force replaces a database, kept as …replaced-<time>),
                                                 or with DATABASE_URL into an empty PostgreSQL database
  report [--json]                                what players did per mode and layout, from DATABASE_URL (PostgreSQL)
                                                 or else DATABASE_PATH (CSV):
                                                 games, won, clean wins, got stuck, shuffled, hinted, won or abandoned after stuck

--layout-file reads a KMahjongg .layout or a GNOME Mahjongg .map (--name picks a map by name or id).
Seeds are 1 to 32 characters of A-Z, a-z, 0-9, _ and -. Bad input exits with status 2.`;

/** A command: the words after its name, a progress line, stdin's lines (read when asked) and the environment. */
type Command = (
  argv: readonly string[],
  progress: Progress,
  input: () => AsyncIterable<string>,
  env: Env,
) => Output | Promise<Output>;

const COMMANDS: Readonly<Record<string, Command>> = {
  layouts: layoutsCommand,
  deal: dealCommand,
  solve: (argv, _progress, input) => solveCommand(argv, input),
  bench: benchCommand,
  study: (argv, progress, _input, env) => ({ stdout: studyCommand(argv, progress, env), warnings: [] }),
  backup: (argv, _progress, _input, env) => backupCommand(argv, env),
  restore: (argv, _progress, _input, env) => restoreCommand(argv, env),
  report: async (argv, _progress, _input, env) => ({ stdout: await reportAnyCommand(argv, env), warnings: [] }),
};

/** Where a run reads and writes: the process's streams in main.ts, strings in the tests. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly isTerminal: boolean; // stderr's
  readonly input: () => AsyncIterable<string>;
  readonly env: Env;
}

/** Runs one command line; resolves with the exit status, never exits or throws. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  let shown = false; // a progress line is shown
  const progress: Progress = io.isTerminal
    ? (text) => {
        io.err(`\r\x1b[K${text}`);
        shown = true;
      }
    : () => {};
  const clear = (): void => {
    if (shown) io.err('\r\x1b[K');
    shown = false;
  };
  try {
    if (command === undefined) throw new UsageError(`missing command; commands: ${Object.keys(COMMANDS).join(', ')}`);
    if (command === 'help' || command === '--help' || command === '-h') throw new HelpRequested();
    if (!Object.hasOwn(COMMANDS, command))
      throw new UsageError(`unknown command ${quote(command)}; commands: ${Object.keys(COMMANDS).join(', ')}`);
    const output = await COMMANDS[command]!(rest, progress, io.input, io.env);
    clear();
    if (output.lines) {
      for (const w of output.warnings) io.err(`warning: ${oneLine(w)}\n`);
      for await (const line of output.lines) io.out(`${line}\n`);
      return 0;
    }
    io.out(`${output.stdout}\n`);
    for (const w of output.warnings) io.err(`warning: ${oneLine(w)}\n`);
    return 0;
  } catch (e) {
    clear();
    if (e instanceof HelpRequested) {
      io.out(`${USAGE}\n`);
      return 0;
    }
    if (e instanceof UsageError) {
      io.err(`mahjong: ${oneLine(e.message)}\n`);
      return 2;
    }
    if (e instanceof BackupFailure) {
      io.err(`mahjong: ${oneLine(e.message)}\n`);
      return 1;
    }
    io.err(`mahjong: internal error: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
}

/** Messages are printed as exactly one line. */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
