/** Command-line flags: Node's `util.parseArgs` with this CLI's rules and messages (docs/cli.md, "Flags"). */
import { parseArgs } from 'node:util';
import { MODES, SEED_PATTERN, type Mode } from '../engine/index.ts';

/** The environment a command reads: the process's, or a test's. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Bad input: one line on stderr, exit status 2. */
export class UsageError extends Error {}

/** Help asked for: usage on stdout, exit status 0. */
export class HelpRequested extends Error {}

export type FlagKind = 'value' | 'switch';
export type FlagSpec = Readonly<Record<string, FlagKind>>; // flag name without the dashes → kind

export class Flags {
  constructor(
    readonly command: string,
    private readonly values: ReadonlyMap<string, string | true>,
  ) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  text(name: string): string | undefined {
    const v = this.values.get(name);
    return typeof v === 'string' ? v : undefined;
  }

  required(name: string): string {
    const v = this.text(name);
    if (v === undefined) throw new UsageError(`${this.command} needs --${name}`);
    return v;
  }

  /** A seed (docs/contracts.md, "Deal JSON"): 1–32 of A–Z, a–z, 0–9, _ and -. */
  seed(name = 'seed', fallback?: string): string {
    const v = fallback === undefined ? this.required(name) : (this.text(name) ?? fallback);
    if (!SEED_PATTERN.test(v))
      throw new UsageError(`bad --${name} ${quote(v)}: a seed is 1 to 32 characters of A-Z, a-z, 0-9, _ and -`);
    return v;
  }

  /** A whole number in [min, max]; `fallback` when absent. */
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

export const quote = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Parses `argv` (the words after the command) against `spec`; messages name each word as typed. */
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
    // A value never starts with two dashes: `--seed --mode` lacks its seed.
    const value = token.inlineValue === false && token.value?.startsWith('--') ? undefined : token.value;
    if (value === undefined || value === '') throw new UsageError(`${command}: --${name} needs a value`);
    values.set(name, value);
  }
  return new Flags(command, values);
}

export function exactlyOne(flags: Flags, names: readonly string[]): string {
  const given = names.filter((n) => flags.has(n));
  const list = names.map((n) => `--${n}`).join(' or ');
  if (given.length === 0) throw new UsageError(`${flags.command} needs ${list}`);
  if (given.length > 1) throw new UsageError(`${flags.command}: give ${list}, not both`);
  return given[0]!;
}
