/**
 * The auditors' shared part (test/client/audit-browser.test.ts, test/server/routes/vnu.test.ts): the pages every
 * audit visits, with the state they need made first through the real app (a player with games, a custom
 * layout, a transfer link), and axe-core run in the page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The axe-core rule sets we hold the pages to: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AuditPage {
  readonly name: string;
  readonly path: string;
}

/** A past daily deal's day: the first one (the calendar starts there). */
export const PAST_DAILY = '2026-11-30';

/**
 * Makes what the pages need as a new player, over HTTP as a browser would (its cookie, same-origin POSTs): three
 * games (two won, by script), a replay of one, a challenge of the other, a custom layout and a transfer link. Returns that player's cookie (`name=value`)
 * and every page to audit.
 */
export async function auditPages(
  base: string,
): Promise<{ cookie: { name: string; value: string }; pages: AuditPage[] }> {
  let cookie = '';
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { origin: base, ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    const set = res.headers.get('set-cookie');
    if (set && !cookie) cookie = set.split(';')[0]!;
    return res;
  };
  const json = async (path: string, body: unknown) =>
    (
      await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json() as Promise<{
      id: string;
      solution: number[][];
    }>;
  await call('/');
  const won: string[] = [];
  for (const seed of ['audit-1', 'audit-2']) {
    const g = await json('/api/games', { layout: 'garden', seed });
    await json(`/api/games/${g.id}/moves`, { moves: g.solution.map(([a, b]) => ({ type: 'match', a, b })) });
    won.push(g.id);
  }
  const replay = ((await (await call(`/api/games/${won[0]}/replay`, { method: 'POST' })).json()) as { url?: string })
    .url;
  // A challenge link of the other win (the stats page then lists it too).
  const challenge = (
    (await (await call(`/api/games/${won[1]}/challenge`, { method: 'POST' })).json()) as { url?: string }
  ).url;
  const g = await json('/api/games', { layout: 'turtle', seed: 'audit-3' });
  await json(`/api/games/${g.id}/moves`, { moves: [{ type: 'match', a: g.solution[0]![0], b: g.solution[0]![1] }] });
  // A custom layout, uploaded as a player would: twelve tiles on one layer.
  const tiles = Array.from({ length: 12 }, (_, i) => `<tile x="${(i % 6) * 2}" y="${Math.floor(i / 6) * 2}"/>`);
  const form = new FormData();
  form.append('file', new Blob([`<mahjongg><map name="Audit">${tiles.join('')}</map></mahjongg>`]), 'audit.map');
  const layout = (await call('/layouts', { method: 'POST', body: form })).headers.get('location') ?? '';
  // A live race this player opened (its page opens the room's stream).
  const race = (
    await call('/races', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layout: 'garden', seed: 'audit-race' }),
    })
  ).headers.get('location');
  const transfer = await (await call('/stats/transfer', { method: 'POST' })).text();
  const link = /\/transfer\/[A-Za-z0-9_-]+/.exec(transfer)?.[0];
  if (!layout.startsWith('/layouts/c-') || !link || !cookie || !replay || !race?.startsWith('/race/') || !challenge)
    throw new Error(`audit set-up failed: ${JSON.stringify({ layout, link, cookie, replay, race, challenge })}`);
  const [name, ...value] = cookie.split('=');
  return {
    cookie: { name: name!, value: value.join('=') },
    pages: [
      { name: 'home', path: '/' },
      { name: 'play', path: '/play/turtle/audit-play' },
      { name: 'play classic', path: '/play/turtle/audit-play?mode=classic' },
      { name: 'play resumed', path: '/play/turtle/audit-3' },
      { name: 'daily', path: '/daily' },
      { name: 'past daily', path: `/daily/${PAST_DAILY}` },
      { name: 'stats', path: '/stats' },
      { name: 'upload', path: '/layouts/new' },
      { name: 'custom layout', path: layout },
      { name: 'editor', path: '/layouts/editor' },
      { name: 'transfer', path: link },
      { name: 'offline', path: '/offline' },
      { name: 'replay', path: `${replay}?move=3` },
      { name: 'race', path: race },
      { name: 'challenge', path: challenge },
      { name: 'tiles traditional', path: '/tiles/traditional' }, // a set's faces preview
      { name: 'tiles large', path: '/tiles/large' },
      { name: 'not found', path: '/no-such-page' },
    ],
  };
}

/**
 * The rules that judge colours. A theme changes colours only (one class on the root, the same markup), so the
 * audit of the second and third theme runs these, where the first runs every rule of AXE_TAGS.
 */
export const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core's violations on the page as it is now: one line each (rule, impact, the first nodes). Every rule of
 * AXE_TAGS, or only the `rules` given.
 */
export async function axeViolations(page: Page, rules?: readonly string[]): Promise<string[]> {
  // Colours are judged at rest: wait for the transitions and finite animations under way (a button fading
  // into the theme's colours would be measured half way on a busy machine).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 3000)),
    ]),
  );
  // As a DevTools evaluation (the page's CSP allows no inline script); once per page load, not per audit.
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: AXE_TAGS };
  const results = (await page.evaluate(
    async (only) =>
      (
        globalThis as unknown as {
          axe: {
            run(
              ctx: Document,
              o: object,
            ): Promise<{
              violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[];
            }>;
          };
        }
      ).axe.run(document, { runOnly: only, resultTypes: ['violations'] }),
    runOnly,
  )) as { violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[] };
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}`)
        .join(' | ')}`,
  );
}
