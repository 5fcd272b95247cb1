/**
 * Measured difficulty on the server: `/play/:layout?difficulty=BAND` in both modes, its bound and
 * its budget, the band on the deal page, the daily page and the home page's choice, and wins per band in
 * /api/stats and on /stats (both backends: vitest.config.ts runs this file on PostgreSQL too).
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { BANDS, deal as realDeal, type Band, type Deal } from '../../../src/engine/index.ts';
import { MAX_BAND_SEEDS } from '../../../src/server/services/dealer.ts';
import { build, createGame, newPlayer, postMoves, query, solutionMoves } from '../helper.ts';

/** Follows a band redirect: the deal it lands on, as the API serves it. */
async function landOn(app: FastifyInstance, url: string): Promise<{ location: string; deal: Deal }> {
  const res = await app.inject({ url });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(302);
  const location = res.headers.location as string;
  const m = /^\/play\/([a-z0-9-]+)\/([A-Za-z0-9]{8})(\?mode=classic)?$/.exec(location);
  expect(m, location).not.toBeNull();
  const deal = (await app.inject({ url: `/api/deals/${m![1]}/${m![2]}${m![3] ?? ''}` })).json() as Deal;
  return { location, deal };
}

const BOUNDARY = 'difficulty-test-boundary';

/** Uploads a GNOME map of tiles given in whole tiles; returns its layout id. */
async function uploadLayout(app: FastifyInstance, tiles: readonly (readonly [number, number, number])[]) {
  const cookie = await newPlayer(app);
  const map = `<mahjongg>\n  <map name="Row">\n${tiles.map(([x, y, z]) => `    <tile x="${x}" y="${y}" z="${z}"/>`).join('\n')}\n  </map>\n</mahjongg>\n`;
  const body =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="row.map"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${map}\r\n--${BOUNDARY}--\r\n`;
  const res = await app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: body,
  });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
  return /^\/layouts\/(c-[0-9a-f]{12})$/.exec(res.headers.location as string)![1]!;
}

/**
 * Four tiles in a row: only the two ends are free, so every winnable deal pairs them, and random play clears
 * every deal of it: all its deals are easy, in both modes.
 */
const ROW_OF_FOUR: [number, number, number][] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [3, 0, 0],
];

describe('/play/:layout?difficulty=BAND', () => {
  test.each(['relaxed', 'classic'] as const)(
    '%s: redirects to a fresh seed whose deal is in the band, for every band',
    async (mode) => {
      // Sixteen searches at once may deal more than a client's minute of band seeds and CPU time.
      const app = await build({
        dealer: { newDeals: false, bandSeeds: false },
        cpu: { clientBurstMs: 60_000, clientPerMinuteMs: 60_000 },
      });
      for (const band of BANDS) {
        const url = `/play/turtle?difficulty=${band}${mode === 'classic' ? '&mode=classic' : ''}`;
        const first = await landOn(app, url);
        expect(first.deal.difficulty.band).toBe(band);
        expect(first.deal.mode).toBe(mode);
        expect(first.location.endsWith('?mode=classic')).toBe(mode === 'classic');
        const second = await landOn(app, url);
        expect(second.deal.difficulty.band).toBe(band);
        expect(second.location).not.toBe(first.location); // a fresh seed each time
      }
    },
  );

  test('the deal page it lands on shows the band, and offers another deal of it', async () => {
    const app = await build();
    const { location, deal } = await landOn(app, '/play/turtle?difficulty=hard&mode=classic');
    const page = await app.inject({ url: location });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(
      /<h1 class="play-title">.*<span class="badge band" data-band="hard"[^>]*>.*Hard<\/span>/s,
    );
    const share = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 0 });
    expect(page.body).toContain(
      `title="Random play loses this deal ${share.format(deal.difficulty.score / 100)} of the time"`,
    );
    expect(page.body).toContain(
      'href="/play/turtle?difficulty=hard&amp;mode=classic" data-win="band">Another deal: Hard</a>',
    );
    // In another language: the band's name, its tooltip and the button, from the catalog.
    const de = await app.inject({ url: location, headers: { cookie: 'lang=de' } });
    expect(de.body).toMatch(
      /<span class="badge band" data-band="hard" title="Zufälliges Spielen[^"]*">.*Schwer<\/span>/s,
    );
    expect(de.body).toContain('data-win="band">Noch eine Partie: Schwer</a>');
  });

  test('an empty difficulty is any deal; a bad one is a 400 that says which bands there are', async () => {
    const app = await build();
    const any = await app.inject({ url: '/play/turtle?difficulty=&mode=relaxed' });
    expect(any.statusCode).toBe(302);
    expect(any.headers.location).toMatch(/^\/play\/turtle\/[A-Za-z0-9]{8}$/);
    for (const bad of ['impossible', 'HARD', 'hard%00', 'easy,hard']) {
      const res = await app.inject({ url: `/play/turtle?difficulty=${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Difficulty is easy, medium, hard or expert');
    }
    const twice = await app.inject({ url: '/play/turtle?difficulty=easy&difficulty=hard' });
    expect(twice.statusCode).toBe(400);
    expect((await app.inject({ url: '/play/nosuch?difficulty=easy' })).statusCode).toBe(404);
  });

  test('a layout with no deal in the band: a 404 page after MAX_BAND_SEEDS seeds, with the bands it did find', async () => {
    // Three fruitless searches: more than a minute's new deals and band seeds.
    const app = await build({ dealer: { newDeals: false, bandSeeds: false } });
    const id = await uploadLayout(app, ROW_OF_FOUR);
    const easy = await landOn(app, `/play/${id}?difficulty=easy`);
    expect(easy.deal.difficulty).toEqual({ band: 'easy', score: 0 });
    for (const mode of ['relaxed', 'classic'] as const) {
      const res = await app.inject({
        url: `/play/${id}?difficulty=expert${mode === 'classic' ? '&mode=classic' : ''}`,
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<h1>No deal found: Expert</h1>');
      expect(res.body).toContain(
        `We dealt ${MAX_BAND_SEEDS} new Custom layout ${id} deals (${mode === 'classic' ? 'Classic' : 'New game'}), and none had ` +
          `this difficulty: they were Easy (${MAX_BAND_SEEDS}).`,
      );
      const query = mode === 'classic' ? '&amp;mode=classic' : '';
      expect(res.body).toContain(`href="/play/${id}?difficulty=easy${query}">New Custom layout ${id} deal: Easy</a>`);
      expect(res.body).toContain(
        `href="/play/${id}${query.replace('&amp;', '?')}">Any new Custom layout ${id} deal</a>`,
      );
    }
    // The same page in Arabic (right to left), every word from the catalog.
    const ar = await app.inject({ url: `/play/${id}?difficulty=expert`, headers: { cookie: 'lang=ar' } });
    expect(ar.statusCode).toBe(404);
    expect(ar.body).toContain('<html lang="ar" dir="rtl"');
    expect(ar.body).toContain('<h1>لم نجد توزيعة: خبير</h1>');
    expect(ar.body).toContain(`كانت: سهل (${MAX_BAND_SEEDS})`);
    for (const english of ['No deal found', 'none had this difficulty', 'Any new', 'Custom layout']) {
      expect(ar.body).not.toContain(english);
    }
  });

  test("every seed a search deals is paid from the client's share of the server's band seeds", async () => {
    const app = await build({ dealer: { bandSeeds: { perMinute: 100, perClientPerMinute: 10 } } });
    const id = await uploadLayout(app, ROW_OF_FOUR);
    // Two chunks of 4 seeds fit in 10 a minute; the third is refused, and so is the next search.
    const res = await app.inject({ url: `/play/${id}?difficulty=hard` });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toContain('searched 10 deals by difficulty this minute');
    expect((await app.inject({ url: `/play/${id}?difficulty=easy` })).statusCode).toBe(429);
    // Another network has its own share; all of them together share the server's pool.
    const other = await app.inject({ url: `/play/${id}?difficulty=easy`, remoteAddress: '198.51.100.7' });
    expect(other.statusCode).toBe(302);
  });

  test("a search is charged to the client's CPU budget as it deals, at most one burst in all", async () => {
    // A chunk of 4 seeds of a 4-tile layout is charged 4 × (1 + 4/16) = 5 ms (services/costs.ts).
    const app = await build({ cpu: { clientBurstMs: 12, clientPerMinuteMs: 12 } });
    const id = await uploadLayout(app, ROW_OF_FOUR);
    const from = '203.0.113.8';
    // Fruitless: 8 chunks, charged 5 + 5 + 2 and then nothing more, so it reaches its answer.
    expect((await app.inject({ url: `/play/${id}?difficulty=expert`, remoteAddress: from })).statusCode).toBe(404);
    const refused = await app.inject({ url: `/play/${id}?difficulty=easy`, remoteAddress: from });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/more work than one network may \(band\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject({ url: `/play/${id}?difficulty=easy`, remoteAddress: '198.51.100.8' })).statusCode).toBe(
      302,
    );
  });

  test('the seeds of band searches are not the player\'s new deals: "New game" still works after two', async () => {
    const app = await build();
    const id = await uploadLayout(app, ROW_OF_FOUR);
    // Two fruitless searches deal 2 × MAX_BAND_SEEDS seeds, more than the 60 new deals a player has a minute.
    for (let i = 0; i < 2; i++)
      expect((await app.inject({ url: `/play/${id}?difficulty=expert` })).statusCode).toBe(404);
    // The player's whole minute of new deals is left: 60 new games, then "Slow down".
    for (let i = 0; i < 60; i++) {
      const next = await app.inject({ url: `/play/${id}` });
      expect(next.statusCode).toBe(302);
      const page = await app.inject({ url: next.headers.location as string });
      expect(page.statusCode, `new game ${i + 1}`).toBe(200);
    }
    const next = await app.inject({ url: `/play/${id}` });
    expect((await app.inject({ url: next.headers.location as string })).statusCode).toBe(429);
  });
});

describe('the band elsewhere', () => {
  test("the home page offers each layout by difficulty, plain links; the daily page shows today's band", async () => {
    const app = await build();
    const home = await app.inject({ url: '/' });
    // Links, not forms: the browser's form scan at load would lay out each card's closed disclosure on its own.
    expect(home.body).not.toContain('<form class="band-pick"');
    const easy = home.body.match(/<a class="button band-link" href="\/play\/[a-z0-9-]+\?difficulty=easy">/g) ?? [];
    expect(easy.length).toBeGreaterThanOrEqual(40);
    for (const band of ['easy', 'medium', 'hard', 'expert']) {
      expect(home.body).toContain(
        `<a class="button band-link" href="/play/turtle?difficulty=${band}">${band[0]!.toUpperCase()}${band.slice(1)}<span class="visually-hidden">: Turtle</span></a>`,
      );
      expect(home.body).toContain(
        `<a class="button band-link" href="/play/turtle?difficulty=${band}&amp;mode=classic">${band[0]!.toUpperCase()}${band.slice(1)}<span class="visually-hidden">: Turtle (Classic)</span></a>`,
      );
    }
    expect(home.body).toContain('<span class="band-links-mode">Classic</span>');
    const he = await app.inject({ url: '/', headers: { cookie: 'lang=he' } });
    expect(he.body).toMatch(
      /<a class="button band-link" href="\/play\/turtle\?difficulty=easy">קל<span class="visually-hidden">: [^<]*צב[^<]*<\/span><\/a>/,
    );
    expect(he.body).toContain('>לפי רמת קושי</summary>');
    const daily = await app.inject({ url: '/daily' });
    expect(daily.body).toMatch(
      /<p class="daily-band">\s*<span class="badge band" data-band="(easy|medium|hard|expert)"/,
    );
  });

  test('the deal a search found is shown without dealing it again', async () => {
    let dealt = 0;
    const app = await build({
      dealer: {
        deal: (layout, seed, mode) => {
          dealt++;
          return realDeal(layout, seed, mode);
        },
      },
    });
    const res = await app.inject({ url: '/play/turtle?difficulty=medium' });
    expect(res.statusCode).toBe(302);
    const searched = dealt;
    expect(searched).toBeGreaterThan(0);
    expect((await app.inject({ url: res.headers.location as string })).statusCode).toBe(200);
    expect(dealt).toBe(searched);
  });
});

describe('wins per band', () => {
  test('/api/stats byBand and the stats page count games and wins by their band', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const won: Band[] = []; // the first two games are won, clean
    for (const band of ['easy', 'hard', 'easy'] as const) {
      const { deal } = await landOn(app, `/play/turtle?difficulty=${band}`);
      const game = await createGame(app, cookie, { layout: 'turtle', seed: deal.seed });
      expect(game.difficulty.band).toBe(band);
      if (won.length < 2) {
        expect((await postMoves(app, cookie, game.id, solutionMoves(game))).json().status).toBe('won');
        won.push(band);
      }
    }
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats.byBand).toEqual({
      easy: { played: 2, won: 1, cleanWins: 1 },
      medium: { played: 0, won: 0, cleanWins: 0 },
      hard: { played: 1, won: 1, cleanWins: 1 },
      expert: { played: 0, won: 0, cleanWins: 0 },
    });
    expect(stats.history.map((h: { band: string }) => h.band).sort()).toEqual(['easy', 'easy', 'hard']);
    const rows = await query<{ band: string }>(app, 'SELECT band FROM games');
    expect(rows.map((r) => r.band).sort()).toEqual(['easy', 'easy', 'hard']);
    const page = await app.inject({ url: '/stats', headers: { cookie } });
    expect(page.body).toContain('<h2 id="bands-title">By difficulty</h2>');
    expect(page.body).toMatch(/<tr data-band="hard">.*?<td class="num" data-label="Won" data-stat="band-won">1<\/td>/s);
    expect(page.body).toMatch(/<tr data-band="easy">.*?data-label="Played">2<\/td>/s);
  });
});
