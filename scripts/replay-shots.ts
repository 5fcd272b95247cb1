/**
 * Screenshots of a replay and of the stats page's achievements at the three review sizes (desktop, portrait
 * and landscape phone), in English in the light theme and the dark one and in Arabic (right to left) in the light one. Starts the app on a free local port with a
 * throwaway database, plays through its API as a player would (a game whose win is lost and found again by
 * undos, and a few wins that earn achievements), shares the replay and opens it in a fresh context.
 *
 * Run: npx tsx scripts/replay-shots.ts [OUT_DIR]   (default screenshots/replay)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { layoutById } from '../src/engine/builtins.ts';
import {
  applyMoves,
  availablePairs,
  deal,
  newGame,
  presenceOf,
  solve,
  type Game,
  type Move,
} from '../src/engine/index.ts';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';

const OUT = resolve(process.argv[2] ?? 'screenshots/replay');
mkdirSync(OUT, { recursive: true });

/** A log on the turtle deal `seed`: its solution until a pair loses the win, that pair and two more, three undos, then the solution's way on. */
function losingLog(seed: string): Move[] | undefined {
  const made = deal(layoutById('turtle')!, seed);
  if (!made.ok) return undefined;
  const d = made.value.deal;
  const start = newGame(d);
  if (!start.ok) return undefined;
  let state: Game = start.value;
  const log: Move[] = [];
  for (const [a, b] of d.solution.slice(0, 50)) {
    const losing = availablePairs(state).find(([p, q]) => {
      const next = applyMoves(state, [{ type: 'match', a: p, b: q }]);
      return next.ok && solve(next.value.geom, presenceOf(next.value), next.value.faces).result === 'unsolvable';
    });
    if (losing && log.length > 8) {
      log.push({ type: 'match', a: losing[0], b: losing[1] });
      const after = applyMoves(state, log.slice(-1));
      if (!after.ok) return undefined;
      const more = availablePairs(after.value).slice(0, 2);
      for (const [p, q] of more) log.push({ type: 'match', a: p, b: q });
      log.push(...Array.from({ length: 1 + more.length }, (): Move => ({ type: 'undo' })));
      return log;
    }
    log.push({ type: 'match', a, b });
    const next = applyMoves(state, [{ type: 'match', a, b }]);
    if (!next.ok) return undefined;
    state = next.value;
  }
  return undefined;
}

const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(app.url + '/stats');
  const api = async (path: string, body?: unknown): Promise<{ status: number; json: unknown }> =>
    page.evaluate(
      async ([path, body]) => {
        const res = await fetch(path as string, {
          method: 'POST',
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, json: await res.json() };
      },
      [path, body] as const,
    );
  // A few wins that earn achievements: clean wins on several layouts, one classic.
  for (const [layout, seed, mode] of [
    ['turtle', 'shots-1', 'relaxed'],
    ['cat', 'shots-2', 'relaxed'],
    ['zen', 'shots-3', 'relaxed'],
    ['turtle', 'shots-4', 'classic'],
  ] as const) {
    const created = (await api('/api/games', { layout, seed, mode })).json as { id: string; solution: number[][] };
    const moves = created.solution.map(([a, b]) => ({ type: 'match', a, b }));
    await api(`/api/games/${created.id}/moves`, { at: 0, moves });
  }
  let seed = '';
  let log: Move[] | undefined;
  for (let n = 1; n < 60 && !log; n++) {
    seed = `replay-shot-${n}`;
    log = losingLog(seed);
  }
  if (!log) throw new Error('no deal with a losing move found');
  const game = (await api('/api/games', { layout: 'turtle', seed })).json as { id: string; solution: number[][] };
  // The rest of the game: the solution's pairs not yet played, after the undos (the position is the solution's again).
  const played = new Set(
    log
      .filter((m): m is Extract<Move, { type: 'match' }> => m.type === 'match')
      .slice(0, log.filter((m) => m.type === 'match').length - log.filter((m) => m.type === 'undo').length)
      .map((m) => `${m.a},${m.b}`),
  );
  const rest = game.solution.filter(([a, b]) => !played.has(`${a},${b}`)).slice(0, 20);
  const moves = [...log, { type: 'shuffle' }, ...rest.map(([a, b]) => ({ type: 'match', a, b }))];
  const answer = await api(`/api/games/${game.id}/moves`, { at: 0, moves });
  if (answer.status !== 200) {
    // the shuffle changed the faces: play the log alone
    await api(`/api/games/${game.id}/moves`, { at: 0, moves: log });
  }
  const { url } = (await api(`/api/games/${game.id}/replay`)).json as { url: string };
  const lostAt = log.findIndex((m) => m.type === 'undo') - 2; // the losing pair, before the two after it
  const looks = [
    ['en', 'light'],
    ['en', 'dark'],
    ['ar', 'light'],
  ] as const;
  for (const [lang, theme] of looks) {
    const name = (size: string, what: string): string =>
      join(OUT, `${lang === 'en' ? '' : `${lang}-`}${theme}-${size}-${what}.png`);
    for (const size of REVIEW_SIZES) {
      const viewer = await reviewContext(browser, size); // a fresh browser: no cookie of the player
      await viewer.addCookies([
        { name: 'theme', value: theme, url: app.url },
        { name: 'lang', value: lang, url: app.url },
      ]);
      const view = await viewer.newPage();
      await view.goto(`${app.url}${url}?move=${lostAt + 1}`);
      await view.waitForSelector('button[data-action="play"]:not([hidden])');
      await view.screenshot({ path: name(size.name, 'replay') });
      if (size.name === 'portrait') {
        await view.locator('.menu-toggle').click();
        await view.screenshot({ path: name(size.name, 'replay-course') });
      }
      await viewer.close();
      const own = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        hasTouch: size.width < 900,
        isMobile: size.width < 900,
        storageState: await context.storageState(),
      });
      await own.addCookies([
        { name: 'theme', value: theme, url: app.url },
        { name: 'lang', value: lang, url: app.url },
      ]);
      const stats = await own.newPage();
      await stats.goto(`${app.url}/stats`);
      await stats.locator('#achievements').scrollIntoViewIfNeeded();
      await stats.screenshot({ path: name(size.name, 'achievements') });
      await stats.screenshot({ path: name(size.name, 'stats-full'), fullPage: true });
      await own.close();
    }
  }
  // The win panel: a fresh player's first win, clean, played by clicks; then Share replay.
  for (const [lang, size] of [
    ...REVIEW_SIZES.filter((r) => r.name !== 'landscape').map((r) => ['en', r] as const),
    ['ar', REVIEW_SIZES.find((r) => r.name === 'portrait')!] as const,
  ]) {
    const player = await reviewContext(browser, size);
    await player.addCookies([{ name: 'lang', value: lang, url: app.url }]);
    await player.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const win = await player.newPage();
    await win.goto(`${app.url}/play/garden/win-panel-${lang}-${size.name}`);
    await win.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    const dealt = await win.$eval(
      '#deal-data',
      (el) => JSON.parse(el.textContent!) as { deal: { solution: number[][] } },
    );
    for (const [a, b] of dealt.deal.solution) {
      await win.locator(`#board .tile[data-slot="${a}"]`).click();
      await win.locator(`#board .tile[data-slot="${b}"]`).click();
    }
    await win.locator('[data-win="achievements"]').waitFor({ state: 'visible' });
    await win.locator('[data-do="share-replay"]').click();
    await win.locator('[data-win="replay"]').waitFor({ state: 'visible' });
    await win.waitForTimeout(600); // the panel's arrival
    await win.screenshot({ path: join(OUT, `${lang === 'en' ? '' : `${lang}-`}light-${size.name}-win-panel.png`) });
    await player.close();
  }
  console.log(`replay ${url}, win lost at move ${lostAt + 1}; screenshots in ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
