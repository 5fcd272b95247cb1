/**
 * The storage interfaces the rest of the server depends on: players, deals, games, replays, custom layouts
 * and settings (`Stores`). Each is written once, over db/sql.ts's `Sql` of either database: SQLite
 * (better-sqlite3, one file, one writer) or PostgreSQL (`pg`, for a fleet: docs/server.md, "On PostgreSQL");
 * plugins/stores.ts decorates the app with them, and routes and services reach storage only through these
 * interfaces. Every method returns a Promise and is one atomic unit of work (one statement or one
 * transaction): no caller opens a transaction around several calls. A column is added by one migration per
 * database (migrations/ and migrations/postgres/), which test/server/stores/schema-parity.test.ts compares.
 *
 * Times are milliseconds since the Unix epoch, from the server's clock.
 */
import type { Band, Mode, Status } from '../../engine/index.ts';
import type { Unranked } from '../../shared/api.ts';
import type { DealKey } from '../schemas/common.ts';
import type { AchievementId } from './achievements.ts';

// ---------------------------------------------------------------------------------------------
// Rows

export interface PlayerRow {
  id: string; // the anonymous id from the cookie
  nickname: string | null; // shown on the daily table
  created_at: number; // ms epoch
}

export interface DealRow {
  id: number; // row id; games point at it
  layout: string;
  seed: string;
  mode: Mode;
  generator: string; // GENERATOR_VERSION that made it
  deal_json: string; // the deal JSON (docs/contracts.md, "Deal JSON"), exactly as served
}

export interface GameRow {
  id: string;
  player_id: string;
  deal_id: number;
  status: Status;
  result: 'won' | null; // null while unfinished
  moves_json: string; // the accepted move log, hints left out (they change nothing on the board; counted in `hints`)
  boards: string; // the faces each shuffle gave (engine makeBoard, one after another): replays skip the search
  move_count: number; // every move the server accepted, hints and checks included: the log's length plus the hints and checks not in it; the version a writer must have read
  tiles_left: number;
  hints: number;
  checks: number; // times the player asked "can this still be won?" (migration 008; not in the log)
  checks_no: number; // of those, answers that said no (the client's word: for `mahjong report` only)
  shuffles: number;
  undos: number;
  started_at: number; // ms epoch, server clock
  updated_at: number;
  finished_at: number | null;
  shown_at: number; // when the server first showed the player this deal: the start of the game's time
  paced_at: number; // the pace clock after the moves received (services/fair-play.ts)
  unranked: Unranked | null; // why this game cannot be ranked; null while it may be
  ranked_ms: number | null; // a ranked win's time: finished_at - shown_at
  daily: number; // 1 when the win stands on its day's daily table
  play_ms: number | null; // the player's own clock as the page showed it (the client's word; migration 009); null: none sent
  own_ms: number | null; // the player's own time: play_ms, else (a win without it) finished_at - shown_at
  layout: string; // the deal's, also kept on the game row (per-layout stats need no join)
  seed: string;
  mode: Mode;
  band: Band | null; // the deal's difficulty band when the game began (migration 011); null for games begun before
  play_on_from: number | null; // a play-on game (unranked 'play-on'): the source game's move it began after (migration 014)
}

export type { Unranked }; // why a game is not ranked (docs/fair-play.md), as the API says it

/** A player's own layout (migration 007), stored once per shape. */
/** A player's own name for a custom layout (migration 016): shown to that player alone. */
export interface LayoutNameRow {
  layout: string; // the custom layout's id
  name: string; // cleaned as an upload's name
  tiles: number; // the layout's tiles, for lists
  named_at: number; // ms epoch of the last upload, save or rename that set it
}

/** What keeping a player's name did: set (new or changed), or refused as the player holds `max` names already. */
export type NameKept = 'set' | 'full';

export interface CustomLayoutRow {
  id: string; // 'c-' + 12 lowercase hex of the normalized slots (services/custom-layouts.ts)
  name: string; // display name, cleaned; the first upload's
  format: 'kmahjongg' | 'gnome' | 'editor'; // the file it came from, or the layout editor (migration 010)
  tiles: number; // number of slots
  slots: string; // JSON [[x, y, z], ...], normalized, in canonical slot order
  created_at: number; // ms epoch
}

/** What stats need of a game: no move log. */
export type GameSummary = Omit<
  GameRow,
  'moves_json' | 'boards' | 'player_id' | 'updated_at' | 'paced_at' | 'checks' | 'checks_no'
>;

export interface NewGame {
  id: string;
  playerId: string;
  dealId: number;
  layout: string; // the deal's layout
  band: Band | null; // the deal's difficulty band (Deal.difficulty) where its layout's are calibrated: the game counts under it
  status: Status;
  tilesLeft: number;
  now: number; // the start, server clock
  shownAt: number; // when the player was first shown the deal (recordFirstShown)
  pacedAt: number; // the pace clock's start (services/fair-play.ts paceStart)
}

export interface SavedMoves {
  id: string;
  expectedCount: number; // move_count read before the replay
  movesJson: string;
  boards: string; // GameRow.boards after this batch
  moveCount: number; // every accepted move so far, hints and checks included (GameRow.move_count)
  status: Status;
  tilesLeft: number;
  hints: number;
  checks: number; // GameRow.checks after this batch
  checksNo: number; // GameRow.checks_no after this batch
  shuffles: number;
  undos: number;
  now: number;
  won: boolean; // the replay cleared the board: finish the game now, in the same write
  pacedAt: number; // the pace clock after this batch (services/fair-play.ts)
  unranked: Unranked | null; // after this batch's pace check
  rankedMs: number | null; // with a ranked win: now - shown_at
  dailyDay: string | null; // with a win of a daily deal started on its day: that day (YYYY-MM-DD), for the calendar and daily streak
  onTable: boolean; // with a win: it stands on its day's daily table (games.daily)
  playMs: number | null; // the page's own clock after this batch, if it sent one: kept as the most it ever said
  playOnFrom?: number; // a play-on game's first save: the source game's move it begins after (kept ever after)
}

/** An achievement a player holds (migration 012): the win that earned it, and that game's deal. */
export interface EarnedRow {
  achievement: AchievementId;
  game_id: string;
  earned_at: number; // ms epoch: the server's time of the win
  layout: string; // the winning game's deal
  seed: string;
  mode: Mode;
}

/** A game's replay link (migration 012). */
export interface ReplayRow {
  token: string;
  game_id: string;
  created_at: number;
  review: string | null; // the solver's review of a finished game's log (JSON), once made
}

/** A challenge link (migration 013): a won game's deal and the time to beat. */
export interface ChallengeRow {
  id: string; // 16 random bytes, base64url
  game_id: string; // the sender's won game
  player_id: string; // the sender
  time_ms: number; // the time to beat: the server's time of that win (finished_at - shown_at)
  created_at: number; // ms epoch
}

/** A challenge as its sender's stats list it: the deal and how the friends' games of it went. */
export interface SentChallenge {
  id: string;
  game_id: string;
  time_ms: number; // the time to beat
  created_at: number;
  layout: string;
  seed: string;
  mode: Mode;
  players: number; // friends who started a game of it
  games: number; // their games of it
  ended: number; // of those, games won or stuck
  best_ms: number | null; // the fastest friend's win (server time), null before one
}

/** A player's totals on one layout (kept up to date with every start and win). */
export interface LayoutTotals {
  layout: string;
  played: number;
  won: number;
  clean_wins: number;
  best_ms: number | null; // the fastest win by the player's own time (own_ms)
  median_ms: number | null; // of winning own times; the mean of the middle two for an even count
}

/** A player's totals on one difficulty band (migration 011; games that began with a band). */
export interface BandTotals {
  band: Band;
  played: number;
  won: number;
  clean_wins: number;
}

/** One win, for the chart. */
export interface WinRow {
  layout: string;
  finished_at: number;
  time_ms: number; // the player's own time (own_ms)
  clean: number; // 1 for a clean win, else 0
}

/** What the stats page needs: totals and streaks from aggregates, and one bounded page of games. */
export interface StatsRows {
  layouts: LayoutTotals[];
  bands: BandTotals[]; // the bands the player started a game of, in BANDS order
  streak: number; // days in a row with a win, ending today or yesterday
  bestStreak: number;
  dailyStreak: number; // days in a row whose daily deal the player won on its day
  history: GameSummary[]; // newest first: `limit` games after skipping `offset`
  wins: WinRow[]; // the latest wins, newest first
  achievements: EarnedRow[]; // every achievement the player holds, in the order earned
  bestDailyStreak: number; // the longest run of days whose daily deal the player won on its day
}

export interface StatsQuery {
  historyOffset: number;
  historyLimit: number;
  winsLimit: number;
  today: string; // YYYY-MM-DD, UTC: a streak still runs when its last day is today or yesterday
  yesterday: string;
}

export interface BestTime {
  player_id: string;
  nickname: string | null;
  time_ms: number; // the ranked time: finished_at - shown_at
  hints: number;
  shuffles: number;
  undos: number;
  finished_at: number;
}

/** A deal's own record (`#deal-stats`): players shown it, players who won it. */
export interface DealRecord {
  opened: number;
  won: number;
}

/** A player's result on one daily deal, for the calendar. */
export interface DailyResult {
  layout: string; // the deal's layout (only the layout of its day makes it that day's daily deal)
  day: string; // YYYY-MM-DD: the deal's day
  onDay: boolean; // won in a game started on its day
  clean: boolean; // some win of it was clean
}

/** One game for an export: its summary and the key to read the next page after it. */
export interface ExportRow extends GameSummary {
  rowid: number;
}

/** The state of a transfer token (PlayersStore.findTransfer). */
export type TransferState =
  { state: 'valid'; playerId: string; expiresAt: number } | { state: 'expired' | 'used' | 'missing' };

// ---------------------------------------------------------------------------------------------
// Stores

/** Anonymous players. A row exists from the player's first write (a game), never from a visit. */
export interface PlayersStore {
  find(id: string): Promise<PlayerRow | undefined>;
  /**
   * Sets the name shown on the daily table and its lookalike key (services/names.ts): 'taken' when
   * another player's name has the same key, 'missing' when there is no such player.
   */
  setNickname(id: string, nickname: string | null, key: string | null): Promise<'ok' | 'taken' | 'missing'>;
  /** Stores a transfer token's hash for a player, valid until `expiresAt`; also forgets tokens long expired. */
  createTransfer(tokenHash: string, playerId: string, now: number, expiresAt: number): Promise<void>;
  findTransfer(tokenHash: string, now: number): Promise<TransferState>;
  /** Uses a valid token once: its player id, or the state that refused it. Atomic: two uses, one wins. */
  takeTransfer(tokenHash: string, now: number): Promise<TransferState>;
}

/**
 * Stored deals: a cache of a pure function of (layout, seed, mode, generator version), and the
 * record of every link ever shown, so a link keeps its board after the generator changes.
 */
export interface DealsStore {
  find(key: DealKey): Promise<DealRow | undefined>;
  findById(id: number): Promise<DealRow | undefined>;
  /** Stores a deal unless one is stored for its key already; returns the stored one (first writer wins). */
  store(key: DealKey, generator: string, dealJson: string, now: number): Promise<DealRow>;
  /**
   * Deletes deals nobody played (no game points at them; daily deals and `keep` excepted): those
   * stored before `before`, then the oldest past the newest `max`; at most `limit` of each per
   * call. Returns how many went. A deal someone played is never deleted.
   */
  pruneUnplayed(opts: { before: number; max: number; keep: readonly number[]; limit: number }): Promise<number>;
}

/** Games and their move logs. */
export interface GamesStore {
  /** Writes the game, and its player's row when missing, atomically. */
  create(game: NewGame): Promise<void>;
  findById(id: string): Promise<GameRow | undefined>;
  /**
   * Writes a replayed move log with its counters and, on a win, the finish: one atomic write,
   * only if the game's `move_count` is still `expectedCount` and it is unfinished. False otherwise
   * (another writer came first, or the game is finished): nothing was written.
   */
  saveMoves(saved: SavedMoves): Promise<boolean>;
  latestUnfinished(playerId: string): Promise<GameSummary | undefined>;
  /** How many games the player started at or after `since` (ms epoch). */
  countStartedSince(playerId: string, since: number): Promise<number>;
  unfinishedOfDeal(playerId: string, dealId: number): Promise<GameRow | undefined>;
  /**
   * A player's stats: per-layout totals (with medians), streaks, a page of history and the latest
   * wins. Costs about the same at 10 or 100,000 games: aggregates and indexes, never every game.
   */
  statsOf(playerId: string, query: StatsQuery): Promise<StatsRows>;
  /**
   * Records that the server showed a player a deal at `at`, unless it did before; returns when it first
   * did (the start of the player's ranked times on it). A time proved earlier than the one stored (a
   * signed stamp of a page shown before the player had a cookie: services/first-shown.ts) moves it back. A
   * player's first showing counts in the deal's record.
   */
  recordFirstShown(playerId: string, dealId: number, at: number): Promise<number>;
  /** When the server first showed a player a deal, if it did (a read: no write). */
  findFirstShown(playerId: string, dealId: number): Promise<number | undefined>;
  dealRecord(dealId: number): Promise<DealRecord>;
  /** Best ranked time of each player who won a deal (only wins on its daily table with `dailyOnly`), fastest first. */
  bestTimes(dealId: number, limit: number, dailyOnly?: boolean): Promise<BestTime[]>;
  /** A daily win's place on its table: 1 + the players whose best daily time there is faster than `timeMs`. */
  dailyRank(dealId: number, playerId: string, timeMs: number): Promise<number>;
  /**
   * The player's wins of deals in `mode` whose seeds lie between `fromSeed` and `toSeed` (daily seeds), one row
   * per layout and seed, in seed order: the caller keeps the rows of each day's own layout.
   */
  dailyResults(playerId: string, mode: Mode, fromSeed: string, toSeed: string): Promise<DailyResult[]>;
  /** Days in a row, ending `today` or `yesterday`, whose daily deal the player won in a game started on its day. */
  dailyStreak(playerId: string, today: string, yesterday: string): Promise<number>;
  /** Has the player any win on a daily table? (The right to a name.) */
  hasDailyWin(playerId: string): Promise<boolean>;
  /** Up to `limit` of the player's games in start order, after the game with rowid `after` (0: from the first). */
  exportPage(playerId: string, after: number, limit: number): Promise<ExportRow[]>;
  /** Per-layout totals only (the home page's marks). */
  layoutTotals(playerId: string): Promise<LayoutTotals[]>;
  hasWon(playerId: string, dealId: number): Promise<boolean>;
  /** The player's best own time (ms, own_ms) winning a layout in a mode, leaving out one game; null if none. */
  bestWinTime(playerId: string, layout: string, mode: Mode, exceptGameId: string): Promise<number | null>;
  /**
   * The achievements the player holds, in the order earned (a handful of rows). Achievements are written by
   * `saveMoves` alone, in a win's transaction (bookkeeping.ts; achievements.ts has the rules).
   */
  achievementsOf(playerId: string): Promise<EarnedRow[]>;
}

/** Replay links of games (docs/server.md, "Replays"). */
export interface ReplaysStore {
  /**
   * The game's replay token: the stored one, or `token` stored now when the game has none (first writer
   * wins: two processes asked at once answer the same token).
   */
  tokenFor(gameId: string, token: string, now: number): Promise<string>;
  find(token: string): Promise<ReplayRow | undefined>;
  /** Keeps the review of a finished game's log with its replay, unless one is kept already. */
  keepReview(token: string, review: string): Promise<void>;
}

/** Challenge links (docs/server.md, "Challenges"). */
export interface ChallengesStore {
  /**
   * The game's challenge: the stored one, or `made` stored now when the game has none (first writer wins: two
   * processes asked at once answer the same row).
   */
  challengeFor(made: {
    id: string;
    gameId: string;
    playerId: string;
    timeMs: number;
    now: number;
  }): Promise<ChallengeRow>;
  find(id: string): Promise<ChallengeRow | undefined>;
  /** Records that a game answers a challenge (a game answers one at most: the first recorded stays). */
  answer(challengeId: string, gameId: string): Promise<void>;
  /** The player's latest game that answers the challenge, if any. */
  answerOf(playerId: string, challengeId: string): Promise<string | undefined>;
  /** The player's challenges, newest first, at most `limit`, each with how its friends' games went. */
  sentBy(playerId: string, limit: number): Promise<SentChallenge[]>;
}

/**
 * Players' own layouts, by content: a row is never changed or deleted once written, so a link to
 * `/layouts/c-…` or a deal of it works forever.
 */
export interface CustomLayoutsStore {
  find(id: string): Promise<CustomLayoutRow | undefined>;
  /** Stores the layout unless its id is stored already; returns the stored row and whether it is new (first writer wins). */
  store(row: CustomLayoutRow): Promise<{ row: CustomLayoutRow; created: boolean }>;
  /** The display names of those ids that are stored. */
  names(ids: readonly string[]): Promise<Map<string, string>>;
  /** The player's own names of those ids that they named. */
  playerNames(playerId: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** The player's named layouts, the latest named first, at most `limit`. */
  playerLayouts(playerId: string, limit: number): Promise<LayoutNameRow[]>;
  /**
   * Keeps the player's name of a stored layout (a new row, or the player's row changed); a new row only while the
   * player has fewer than `max` (else 'full', nothing written). The player's row is made if it is not there yet.
   */
  keepName(playerId: string, layout: string, name: string, now: number, max: number): Promise<NameKept>;
}

/** Small server settings, such as the generated cookie secret. */
export interface SettingsStore {
  get(key: string): Promise<string | undefined>;
  /** The stored value, or `make()` stored now; two servers starting together agree on one. */
  getOrCreate(key: string, make: () => string): Promise<string>;
  delete(key: string): Promise<void>;
}

/** The stores of one backend, as the `stores` plugin decorates them (plugins/stores.ts). */
export interface Stores {
  players: PlayersStore;
  deals: DealsStore;
  games: GamesStore;
  customLayouts: CustomLayoutsStore;
  settings: SettingsStore;
  replays: ReplaysStore;
  challenges: ChallengesStore;
}
