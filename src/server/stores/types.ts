/**
 * The storage interfaces routes and services depend on, written once over db/sql.ts for SQLite and PostgreSQL.
 * Every method is one atomic unit of work; times are ms epoch, server clock. See docs/storage.md, "Stores".
 */
import type { Band, Mode, Status } from '../../engine/index.ts';
import type { Unranked } from '../../shared/api.ts';
import type { DealKey } from '../schemas/common.ts';
import type { AchievementId } from './achievements.ts';

export interface PlayerRow {
  id: string; // the cookie's anonymous id
  nickname: string | null;
  created_at: number;
}

export interface DealRow {
  id: number;
  layout: string;
  seed: string;
  mode: Mode;
  generator: string;
  deal_json: string; // docs/contracts.md, "Deal JSON", as served
}

export interface GameRow {
  id: string;
  player_id: string;
  deal_id: number;
  status: Status;
  result: 'won' | null;
  moves_json: string; // accepted moves, hints left out
  boards: string; // the faces each shuffle gave, so replays skip the search
  move_count: number; // every accepted move, hints and checks included: the version a writer must have read
  tiles_left: number;
  hints: number;
  checks: number; // "can this still be won?" asks
  checks_no: number;
  shuffles: number;
  undos: number;
  started_at: number;
  updated_at: number;
  finished_at: number | null;
  shown_at: number;
  paced_at: number;
  unranked: Unranked | null;
  ranked_ms: number | null;
  daily: number;
  play_ms: number | null; // the page's own clock (the client's word)
  own_ms: number | null; // play_ms, else finished_at - shown_at
  layout: string; // per-layout stats need no join
  seed: string;
  mode: Mode;
  band: Band | null;
  play_on_from: number | null; // play-on game: the source game's move it began after
}

export type { Unranked };

/** A player's own name for a custom layout, shown to that player alone. */
export interface LayoutNameRow {
  layout: string;
  name: string;
  tiles: number;
  named_at: number;
}

export type NameKept = 'set' | 'full';

export interface CustomLayoutRow {
  id: string; // 'c-' + 12 hex of the normalized slots
  name: string;
  format: 'kmahjongg' | 'gnome' | 'editor';
  tiles: number;
  slots: string; // JSON [[x, y, z], ...], canonical order
  created_at: number;
}

export type GameSummary = Omit<
  GameRow,
  'moves_json' | 'boards' | 'player_id' | 'updated_at' | 'paced_at' | 'checks' | 'checks_no'
>;

export interface NewGame {
  id: string;
  playerId: string;
  dealId: number;
  layout: string;
  band: Band | null;
  status: Status;
  tilesLeft: number;
  now: number;
  shownAt: number;
  pacedAt: number;
}

export interface SavedMoves {
  id: string;
  expectedCount: number; // move_count read before the replay
  movesJson: string;
  boards: string;
  moveCount: number;
  status: Status;
  tilesLeft: number;
  hints: number;
  checks: number;
  checksNo: number;
  shuffles: number;
  undos: number;
  now: number;
  won: boolean; // finish the game in the same write
  pacedAt: number;
  unranked: Unranked | null;
  rankedMs: number | null;
  dailyDay: string | null; // a daily deal won on its day
  onTable: boolean;
  playMs: number | null; // kept as the most the page ever said
  playOnFrom?: number;
}

/** An achievement a player holds: the win that earned it. */
export interface EarnedRow {
  achievement: AchievementId;
  game_id: string;
  earned_at: number;
  layout: string;
  seed: string;
  mode: Mode;
}

export interface ReplayRow {
  token: string;
  game_id: string;
  created_at: number;
  review: string | null;
}

/** A challenge link: a won game's deal and the time to beat. */
export interface ChallengeRow {
  id: string;
  game_id: string;
  player_id: string;
  time_ms: number; // finished_at - shown_at of that win
  created_at: number;
}

export interface SentChallenge {
  id: string;
  game_id: string;
  time_ms: number;
  created_at: number;
  layout: string;
  seed: string;
  mode: Mode;
  players: number;
  games: number;
  ended: number;
  best_ms: number | null;
}

export interface LayoutTotals {
  layout: string;
  played: number;
  won: number;
  clean_wins: number;
  best_ms: number | null;
  median_ms: number | null;
}

export interface BandTotals {
  band: Band;
  played: number;
  won: number;
  clean_wins: number;
}

export interface WinRow {
  layout: string;
  finished_at: number;
  time_ms: number;
  clean: number;
}

export interface StatsRows {
  layouts: LayoutTotals[];
  bands: BandTotals[];
  streak: number; // ending today or yesterday
  bestStreak: number;
  dailyStreak: number;
  history: GameSummary[]; // newest first, `limit` after `offset`
  wins: WinRow[];
  achievements: EarnedRow[];
  bestDailyStreak: number;
}

export interface StatsQuery {
  historyOffset: number;
  historyLimit: number;
  winsLimit: number;
  today: string;
  yesterday: string;
}

export interface BestTime {
  player_id: string;
  nickname: string | null;
  time_ms: number;
  hints: number;
  shuffles: number;
  undos: number;
  finished_at: number;
}

export interface DealRecord {
  opened: number;
  won: number;
}

export interface DailyResult {
  layout: string; // only its day's layout makes it that day's daily deal
  day: string;
  onDay: boolean;
  clean: boolean;
}

export interface ExportRow extends GameSummary {
  rowid: number;
}

export type TransferState =
  { state: 'valid'; playerId: string; expiresAt: number } | { state: 'expired' | 'used' | 'missing' };

/** Anonymous players: a row from the first game, never from a visit. */
export interface PlayersStore {
  find(id: string): Promise<PlayerRow | undefined>;
  /** Sets the daily-table name and its lookalike key (services/names.ts). */
  setNickname(id: string, nickname: string | null, key: string | null): Promise<'ok' | 'taken' | 'missing'>;
  /** Stores a token's hash until `expiresAt`; forgets tokens long expired. */
  createTransfer(tokenHash: string, playerId: string, now: number, expiresAt: number): Promise<void>;
  findTransfer(tokenHash: string, now: number): Promise<TransferState>;
  /** Uses a valid token once (atomic: of two uses, one wins). */
  takeTransfer(tokenHash: string, now: number): Promise<TransferState>;
}

/** Stored deals: a cache of (layout, seed, mode, generator), kept so a shown link keeps its board. */
export interface DealsStore {
  find(key: DealKey): Promise<DealRow | undefined>;
  findById(id: number): Promise<DealRow | undefined>;
  /** Stores a deal unless its key has one; returns the stored one (first writer wins). */
  store(key: DealKey, generator: string, dealJson: string, now: number): Promise<DealRow>;
  /** Deletes unplayed deals (daily and `keep` excepted) older than `before` or past the newest `max`. */
  pruneUnplayed(opts: { before: number; max: number; keep: readonly number[]; limit: number }): Promise<number>;
}

export interface GamesStore {
  create(game: NewGame): Promise<void>;
  findById(id: string): Promise<GameRow | undefined>;
  /** Saves a replayed log, and a win's finish, if `move_count` is still `expectedCount`; false if not written. */
  saveMoves(saved: SavedMoves): Promise<boolean>;
  latestUnfinished(playerId: string): Promise<GameSummary | undefined>;
  countStartedSince(playerId: string, since: number): Promise<number>;
  unfinishedOfDeal(playerId: string, dealId: number): Promise<GameRow | undefined>;
  /** Totals, streaks, a page of history and recent wins, from aggregates and indexes (never every game). */
  statsOf(playerId: string, query: StatsQuery): Promise<StatsRows>;
  /** Records the first time a player was shown a deal (an earlier signed stamp moves it back); returns it. */
  recordFirstShown(playerId: string, dealId: number, at: number): Promise<number>;
  findFirstShown(playerId: string, dealId: number): Promise<number | undefined>;
  dealRecord(dealId: number): Promise<DealRecord>;
  bestTimes(dealId: number, limit: number, dailyOnly?: boolean): Promise<BestTime[]>;
  /** A daily win's place: 1 + players with a faster best daily time. */
  dailyRank(dealId: number, playerId: string, timeMs: number): Promise<number>;
  /** The player's wins of daily seeds in a range, one row per layout and seed, in seed order. */
  dailyResults(playerId: string, mode: Mode, fromSeed: string, toSeed: string): Promise<DailyResult[]>;
  dailyStreak(playerId: string, today: string, yesterday: string): Promise<number>;
  /** Any win on a daily table? (The right to a name.) */
  hasDailyWin(playerId: string): Promise<boolean>;
  /** Up to `limit` games in start order after rowid `after`. */
  exportPage(playerId: string, after: number, limit: number): Promise<ExportRow[]>;
  layoutTotals(playerId: string): Promise<LayoutTotals[]>;
  hasWon(playerId: string, dealId: number): Promise<boolean>;
  /** Best own_ms on a layout and mode, one game left out; null if none. */
  bestWinTime(playerId: string, layout: string, mode: Mode, exceptGameId: string): Promise<number | null>;
  /** Written only by `saveMoves` in a win's transaction (bookkeeping.ts). */
  achievementsOf(playerId: string): Promise<EarnedRow[]>;
}

/** Replay links (docs/server.md, "Replays"). */
export interface ReplaysStore {
  /** The stored token, or `token` stored now (first writer wins). */
  tokenFor(gameId: string, token: string, now: number): Promise<string>;
  find(token: string): Promise<ReplayRow | undefined>;
  keepReview(token: string, review: string): Promise<void>;
}

/** Challenge links (docs/server.md, "Challenges"). */
export interface ChallengesStore {
  /** The stored challenge, or `made` stored now (first writer wins). */
  challengeFor(made: {
    id: string;
    gameId: string;
    playerId: string;
    timeMs: number;
    now: number;
  }): Promise<ChallengeRow>;
  find(id: string): Promise<ChallengeRow | undefined>;
  /** A game answers one challenge at most: the first recorded stays. */
  answer(challengeId: string, gameId: string): Promise<void>;
  answerOf(playerId: string, challengeId: string): Promise<string | undefined>;
  sentBy(playerId: string, limit: number): Promise<SentChallenge[]>;
}

/** Players' own layouts, by content: rows are never changed or deleted, so links work forever. */
export interface CustomLayoutsStore {
  find(id: string): Promise<CustomLayoutRow | undefined>;
  /** Stores the layout unless its id exists; returns the stored row (first writer wins). */
  store(row: CustomLayoutRow): Promise<{ row: CustomLayoutRow; created: boolean }>;
  names(ids: readonly string[]): Promise<Map<string, string>>;
  playerNames(playerId: string, ids: readonly string[]): Promise<Map<string, string>>;
  playerLayouts(playerId: string, limit: number): Promise<LayoutNameRow[]>;
  /** Keeps the player's name for a layout; 'full' (nothing written) past `max` names. */
  keepName(playerId: string, layout: string, name: string, now: number, max: number): Promise<NameKept>;
}

export interface SettingsStore {
  get(key: string): Promise<string | undefined>;
  /** The stored value, or `make()` stored now; concurrent servers agree on one. */
  getOrCreate(key: string, make: () => string): Promise<string>;
  delete(key: string): Promise<void>;
}

export interface Stores {
  players: PlayersStore;
  deals: DealsStore;
  games: GamesStore;
  customLayouts: CustomLayoutsStore;
  settings: SettingsStore;
  replays: ReplaysStore;
  challenges: ChallengesStore;
}
