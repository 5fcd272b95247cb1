/**
 * `report [--json]`: what players did with a running site's deals, per mode and layout, read-only beside the
 * server (PostgreSQL with DATABASE_URL, else SQLite). What it counts: docs/cli.md, "The report".
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { applyMove, isBoardMove, newGame, statusOf, type Deal, type Move } from '../engine/index.ts';
import { rebuildRow, type Slots, type StoredRow } from '../server/stores/deal-rows.ts';
import { parseFlags, quote, UsageError, type Env } from './args.ts';

export const DEFAULT_DATABASE = 'data/mahjong.db';

/** One row of the report. Counts are games. */
export interface ReportRow {
  mode: string;
  layout: string;
  games: number;
  won: number;
  clean_wins: number; // won with no hint, shuffle or undo
  got_stuck: number; // tiles left and no pair free, at least once
  shuffled: number; // used shuffle at least once
  hinted: number; // asked for a hint at least once
  won_after_stuck: number; // got stuck, then won (by undo or shuffle)
  abandoned_after_stuck: number; // got stuck and never won (finished or not)
  asked: number; // asked "can this still be won?" at least once
  heard_no: number; // heard "no" at least once
  won_after_no: number; // heard "no", then won (by undo or shuffle)
  abandoned_after_no: number; // heard "no" and never won
}

const COLUMNS: readonly (keyof ReportRow)[] = [
  'mode',
  'layout',
  'games',
  'won',
  'clean_wins',
  'got_stuck',
  'shuffled',
  'hinted',
  'won_after_stuck',
  'abandoned_after_stuck',
  'asked',
  'heard_no',
  'won_after_no',
  'abandoned_after_no',
];

interface GameRecord extends StoredRow {
  readonly result: string | null;
  readonly moves_json: string;
  readonly hints: number;
  readonly shuffles: number;
  readonly undos: number;
  readonly checks: number;
  readonly checks_no: number;
}

/** Was the game ever stuck, at the start or after some move? */
function everStuck(deal: Deal, log: readonly Move[]): boolean {
  const start = newGame(deal);
  if (!start.ok) return false;
  let game = start.value;
  if (statusOf(game) === 'stuck') return true;
  for (const move of log) {
    const next = applyMove(game, move);
    if (!next.ok) return false; // a bad log is not counted as stuck
    game = next.value;
    if (isBoardMove(move) && statusOf(game) === 'stuck') return true;
  }
  return false;
}

/** Every game with its deal; `checks` names the check counters. */
const gamesSql = (checks: string) => `SELECT d.id, d.layout, d.seed, d.mode, d.generator, d.deal_json, d.shape_id,
    d.faces, d.solution, g.result, g.moves_json, g.hints, g.shuffles, g.undos, ${checks}
  FROM games g JOIN deals d ON d.id = g.deal_id`;
const CHECKS = 'g.checks, g.checks_no';

export function reportRows(db: Database.Database): ReportRow[] {
  const columns = new Set((db.pragma('table_info(games)') as { name: string }[]).map((c) => c.name));
  const checks = columns.has('checks') ? CHECKS : '0 AS checks, 0 AS checks_no'; // before migration 008
  const games = db.prepare(gamesSql(checks)).all() as GameRecord[];
  const shapes = db.prepare('SELECT id, slots FROM shapes').all() as { id: number; slots: string }[];
  return countGames(games, shapes);
}

function countGames(games: readonly GameRecord[], shapeRows: readonly { id: number; slots: string }[]): ReportRow[] {
  const shapes = new Map(shapeRows.map((s) => [s.id, JSON.parse(s.slots) as Slots]));
  const rows = new Map<string, ReportRow>();
  const deals = new Map<number, Deal>(); // parsed once per deal
  for (const g of games) {
    const key = `${g.mode}\u0000${g.layout}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        mode: g.mode,
        layout: g.layout,
        games: 0,
        won: 0,
        clean_wins: 0,
        got_stuck: 0,
        shuffled: 0,
        hinted: 0,
        won_after_stuck: 0,
        abandoned_after_stuck: 0,
        asked: 0,
        heard_no: 0,
        won_after_no: 0,
        abandoned_after_no: 0,
      };
      rows.set(key, row);
    }
    let deal = deals.get(g.id);
    if (!deal) deals.set(g.id, (deal = JSON.parse(rebuildRow(g, (id) => shapes.get(id)!, false).deal_json) as Deal));
    const won = g.result === 'won';
    const stuck = everStuck(deal, JSON.parse(g.moves_json) as Move[]);
    row.games++;
    if (won) row.won++;
    if (won && g.hints === 0 && g.shuffles === 0 && g.undos === 0) row.clean_wins++;
    if (stuck) row.got_stuck++;
    if (g.shuffles > 0) row.shuffled++;
    if (g.hints > 0) row.hinted++;
    if (stuck && won) row.won_after_stuck++;
    if (stuck && !won) row.abandoned_after_stuck++;
    if (g.checks > 0) row.asked++;
    if (g.checks_no > 0) row.heard_no++;
    if (g.checks_no > 0 && won) row.won_after_no++;
    if (g.checks_no > 0 && !won) row.abandoned_after_no++;
  }
  return [...rows.values()].sort((a, b) => a.mode.localeCompare(b.mode) || a.layout.localeCompare(b.layout));
}

/** The rows from PostgreSQL at `url`, in one read-only transaction. */
export async function reportRowsPostgres(url: string): Promise<ReportRow[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (e) {
    throw new UsageError(`cannot connect to DATABASE_URL: ${e instanceof Error ? e.message : String(e)}`);
  }
  client.on('error', () => {}); // a lost connection rejects its query
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const games = (await client.query<GameRecord>(gamesSql(CHECKS))).rows;
    const shapes = (await client.query<{ id: number; slots: string }>('SELECT id, slots FROM shapes')).rows;
    await client.query('COMMIT');
    return countGames(games, shapes);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`DATABASE_URL is not a game database: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** DATABASE_URL, checked: postgres:// or postgresql://. */
function postgresUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol))
    throw new UsageError('DATABASE_URL is a PostgreSQL URL such as postgres://user:password@host:5432/mahjong');
  return raw;
}

const csvCell = (v: unknown): string => {
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const format = (rows: readonly ReportRow[], json: boolean): string =>
  json
    ? JSON.stringify(rows)
    : [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvCell(r[c])).join(','))].join('\n');

/** `report [--json]` over PostgreSQL or SQLite. */
export async function reportAnyCommand(argv: readonly string[], env: Env): Promise<string> {
  if (!env.DATABASE_URL) return reportCommand(argv, env);
  const flags = parseFlags('report', argv, { json: 'switch' });
  return format(await reportRowsPostgres(postgresUrl(env.DATABASE_URL)), flags.has('json'));
}

/** `report [--json]` over DATABASE_PATH. */
export function reportCommand(argv: readonly string[], env: Env): string {
  const flags = parseFlags('report', argv, { json: 'switch' });
  const path = env.DATABASE_PATH || DEFAULT_DATABASE;
  if (!existsSync(path))
    throw new UsageError(`no database at ${quote(path)}; set DATABASE_PATH, or start the server once`);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new UsageError(`cannot open ${quote(path)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    let rows: ReportRow[];
    try {
      rows = reportRows(db);
    } catch (e) {
      throw new UsageError(
        `${quote(path)} is not a game database: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      );
    }
    return format(rows, flags.has('json'));
  } finally {
    db.close();
  }
}
