/**
 * GET /stats/export.csv and .json: every game of the player, oldest first, streamed a page at a time; the time
 * is the player's own, the ranked time the server's (docs/fair-play.md, "Two clocks"). No games: 404.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_STATUS, sendError } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import type { ExportRow } from '../../stores/types.ts';
import { held } from '../../services/achievements.ts';
import { dealUrl } from '../../../shared/display.ts';

const PAGE = 500;

export interface ExportGame {
  layout: string;
  seed: string;
  mode: string;
  started: string; // ISO 8601, UTC
  finished: string | null;
  result: 'won' | 'stuck' | 'unfinished';
  timeMs: number | null;
  ranked: boolean;
  hints: number;
  shuffles: number;
  undos: number;
  moves: number;
  link: string;
  rankedMs: number | null;
  band: string | null; // null before deals had bands
  achievements: string[];
}

export const CSV_COLUMNS = [
  'layout',
  'seed',
  'mode',
  'started',
  'finished',
  'result',
  'time_ms',
  'ranked',
  'hints',
  'shuffles',
  'undos',
  'moves',
  'link',
  'ranked_ms',
  'band',
  'achievements',
] as const;

export function exportGame(row: ExportRow, origin: string, earned: readonly string[] = []): ExportGame {
  return {
    layout: row.layout,
    seed: row.seed,
    mode: row.mode,
    started: new Date(row.started_at).toISOString(),
    finished: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    result: row.result === 'won' ? 'won' : row.status === 'stuck' ? 'stuck' : 'unfinished',
    timeMs: row.finished_at === null ? null : row.own_ms,
    ranked: row.ranked_ms !== null,
    hints: row.hints,
    shuffles: row.shuffles,
    undos: row.undos,
    moves: row.move_count,
    link: `${origin}${dealUrl(row.layout, row.seed, row.mode)}`,
    rankedMs: row.ranked_ms,
    band: row.band,
    achievements: [...earned],
  };
}

/** One CSV field, quoted when needed; a leading = + - @ is neutralised so it never runs as a formula. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(game: ExportGame): string {
  const values = [
    game.layout,
    game.seed,
    game.mode,
    game.started,
    game.finished,
    game.result,
    game.timeMs,
    game.ranked,
    game.hints,
    game.shuffles,
    game.undos,
    game.moves,
    game.link,
    game.rankedMs,
    game.band,
    game.achievements.join(' '),
  ];
  return `${values.map(csvField).join(',')}\r\n`;
}

export default async function pagesExport(fastify: FastifyInstance): Promise<void> {
  const repo = fastify.gamesStore;
  // Absolute links from PUBLIC_ORIGIN only, never from the client's Host header.
  const originOf = (): string => fastify.publicOrigin ?? '';

  /** Game id → achievement ids earned. */
  async function earnedOf(playerId: string): Promise<(gameId: string) => string[]> {
    const byGame = new Map<string, string[]>();
    for (const row of held(await repo.achievementsOf(playerId)))
      byGame.set(row.game_id, [...(byGame.get(row.game_id) ?? []), row.achievement]);
    return (gameId) => byGame.get(gameId) ?? [];
  }

  async function pagesOf(request: FastifyRequest): Promise<AsyncGenerator<ExportRow[]> | undefined> {
    if (request.isNewPlayer) return undefined;
    const first = await repo.exportPage(request.playerId, 0, PAGE);
    if (first.length === 0) return undefined;
    const playerId = request.playerId;
    return (async function* () {
      let page = first;
      while (page.length > 0) {
        yield page;
        if (page.length < PAGE) return;
        page = await repo.exportPage(playerId, page[page.length - 1]!.rowid, PAGE);
      }
    })();
  }

  const stamp = (): string => new Date(fastify.now()).toISOString().slice(0, 10);
  const NONE = 'you have no games to export yet: play one, and it is here';

  fastify.get('/stats/export.csv', { config: { rateLimit: LIMITS.export } }, async (request, reply) => {
    const pages = await pagesOf(request);
    if (!pages) return sendError(request, reply, 'ERR_NO_GAMES', NONE);
    const origin = originOf();
    const earned = await earnedOf(request.playerId);
    const lines = (async function* () {
      yield `${CSV_COLUMNS.join(',')}\r\n`;
      for await (const page of pages)
        yield page.map((row) => csvLine(exportGame(row, origin, earned(row.id)))).join('');
    })();
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="mahjong-games-${stamp()}.csv"`)
      .send(Readable.from(lines));
  });

  fastify.get('/stats/export.json', { config: { rateLimit: LIMITS.export } }, async (request, reply) => {
    const pages = await pagesOf(request);
    if (!pages) return reply.code(ERROR_STATUS.ERR_NO_GAMES).send({ error: NONE, code: 'ERR_NO_GAMES' });
    const origin = originOf();
    const earned = await earnedOf(request.playerId);
    const chunks = (async function* () {
      let first = true;
      yield '[';
      for await (const page of pages) {
        for (const row of page) {
          yield `${first ? '\n' : ',\n'}${JSON.stringify(exportGame(row, origin, earned(row.id)))}`;
          first = false;
        }
      }
      yield '\n]\n';
    })();
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="mahjong-games-${stamp()}.json"`)
      .send(Readable.from(chunks));
  });
}
