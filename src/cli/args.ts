/**
 * Command-line flags: Node's `util.parseArgs` with this CLI's rules and messages, and typed readers.
 *
 * Implementation notes: each command declares its flags; anything else is a
 * UsageError (the CLI prints its message as one line and exits with status 2).
 * `--flag value` and `--flag=value` both work; a value may start with a single
 * dash (seeds may), but never with `--`, so `--seed --mode` reports the missing
 * seed instead of taking `--mode` as one. A switch takes no value. Every flag
 * may appear once.
 */
import { parseArgs } from 'node:util';
import { MODES, SEED_PATTERN, type Mode } from '../engine/index.ts';

/** The environment variables a command reads (DATABASE_PATH, DATABASE_URL, MAHJONG_LAYOUTS_DIR): the process's, or a test's. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Bad input from the user: reported as one line on stderr, exit status 2. */
export class UsageError extends Error {}

/** Thrown when the user asks for help: usage goes to stdout, exit status 0. */
export class HelpRequested extends Error {}

export type FlagKind = 'value' | 'switch';
export type FlagSpec = Readonly<Record<string, FlagKind>>; // flag name without the dashes → kind

/** Parsed flags: a value flag maps to its text, a switch to true. */
export class Flags {
  constructor(
    readonly command: string,
    private readonly values: ReadonlyMap<string, string | true>,
  ) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The text of a value flag, or undefined when it was not given. */
  text(name: string): string | undefined {
    const v = this.values.get(name);
    return typeof v === 'string' ? v : undefined;
  }

  /** The text of a value flag that must be given. */
  required(name: string): string {
    const v = this.text(name);
    if (v === undefined) throw new UsageError(`${this.command} needs --${name}`);
    return v;
  }

  /** A seed (docs/contracts.md, "Deal JSON"): 1–32 characters of A–Z, a–z, 0–9, _ and -. */
  seed(name = 'seed', fallback?: string): string {
    const v = fallback === undefined ? this.required(name) : (this.text(name) ?? fallback);
    if (!SEED_PATTERN.test(v))
      throw new UsageError(`bad --${name} ${quote(v)}: a seed is 1 to 32 characters of A-Z, a-z, 0-9, _ and -`);
    return v;
  }

  /** A whole number in [min, max]; `fallback` when the flag is absent. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const v = this.text(name);
    if (v === undefined) return fallback;
    const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max))
      throw new UsageError(`bad --${name} ${quote(v)}: expected a whole number from ${min} to ${max}`);
    return n;
  }

  /** A deal mode; relaxed when absent. */
  mode(): Mode {
    const v = this.text('mode') ?? 'relaxed';
    if (!(MODES as readonly string[]).includes(v))
      throw new UsageError(`bad --mode ${quote(v)}: expected ${MODES.join(' or ')}`);
    return v as Mode;
  }
}

/** A short, printable excerpt of user text for a message. */
export const quote = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/**
 * Parses `argv` (the words after the command) against `spec`, with Node's `util.parseArgs` splitting
 * the words into flags, their values and positionals (its tokens, in order). It runs without its own
 * strict mode, whose messages name Node's conventions, not ours: the checks below keep this CLI's
 * messages, each naming the word as it was typed (parseArgs splits `-abc` into three tokens of one word).
 */
export function parseFlags(command: string, argv: readonly string[], spec: FlagSpec): Flags {
  const values = new Map<string, string | true>();
  const known = Object.keys(spec)
    .map((f) => `--${f}`)
    .join(', ');
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [name, { type: kind === 'value' ? 'string' : 'boolean' }] as const),
  ) as Record<string, { type: 'string' | 'boolean' }>;
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    const word = argv[token.index]!; // as typed
    if (word === '--help' || word === '-h') throw new HelpRequested();
    if (token.kind === 'positional' && !word.startsWith('-'))
      throw new UsageError(`${command}: unexpected argument ${quote(word)}`);
    const eq = word.indexOf('=');
    const name = (eq < 0 ? word : word.slice(0, eq)).replace(/^--?/, '');
    // A single dash, `--`, a short flag or an unknown one.
    if (token.kind !== 'option' || !word.startsWith('--') || !Object.hasOwn(spec, name) || token.name !== name)
      throw new UsageError(
        `${command}: unknown flag ${quote(eq < 0 ? word : word.slice(0, eq))} (flags: ${known || 'none'})`,
      );
    if (values.has(name)) throw new UsageError(`${command}: --${name} is given twice`);
    if (spec[name] === 'switch') {
      if (token.inlineValue) throw new UsageError(`${command}: --${name} takes no value`);
      values.set(name, true);
      continue;
    }
    // A value may start with one dash (seeds may), never with two: `--seed --mode` lacks its seed.
    const value = token.inlineValue === false && token.value?.startsWith('--') ? undefined : token.value;
    if (value === undefined || value === '') throw new UsageError(`${command}: --${name} needs a value`);
    values.set(name, value);
  }
  return new Flags(command, values);
}

/** Exactly one of the named flags must be given; returns its name. */
export function exactlyOne(flags: Flags, names: readonly string[]): string {
  const given = names.filter((n) => flags.has(n));
  const list = names.map((n) => `--${n}`).join(' or ');
  if (given.length === 0) throw new UsageError(`${flags.command} needs ${list}`);
  if (given.length > 1) throw new UsageError(`${flags.command}: give ${list}, not both`);
  return given[0]!;
}
