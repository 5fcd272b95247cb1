/**
 * Phone benchmark (docs/client.md, "Measures"): `npm run bench:lighthouse`.
 *
 * 1. Lighthouse 12.2.3 (its default mobile profile: a Moto G Power's 412×823 screen, simulated slow 4G
 *    and a 4× slower CPU) against Debian's Chromium, on the play page of a fresh turtle deal (a new seed
 *    each run, a new visitor), the home page and the daily page: the performance, accessibility and best
 *    practices scores, Total Blocking Time, Cumulative Layout Shift, LCP and the main thread's work. RUNS runs each; the median is what
 *    the goals are checked on (the machine's other work moves single runs, so each run says the load it started at).
 * 2. Tap to paint on a phone (390×844, touch; on this CPU, and 4× slower by the DevTools protocol): a tap on a free
 *    tile sent as touch events; from the finger's lift (touchend) to the page's answer (the tile selected)
 *    and to the start of the frame that shows it (the next requestAnimationFrame after the change).
 *    Goal: the answer goes out in the very next frame (≤ one frame, 16.7 ms, after the change).
 *
 * The app runs in this process on a free loopback port with a fresh database, as the browser tests
 * start it. Options (environment): BENCH_RUNS (default 3), CHROMIUM (default /usr/bin/chromium).
 * Prints one line per run and a table of medians with the goals.
 */
import { loadavg } from 'node:os';
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, launch, startApp } from '../test/client/browser.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Run {
  score: number; // performance, 0–100
  a11y: number; // accessibility, 0–100
  bp: number; // best practices, 0–100
  tbt: number; // ms
  cls: number;
  lcp: number; // ms
  mainThread: number; // ms of main-thread work (simulated)
  load: number; // the machine's 1-minute load average as the run started
  speed: number; // Lighthouse's benchmark index of this machine, taken during the run (higher is faster)
  failed?: string[]; // the accessibility and best-practices audits that did not pass, with the elements they name
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function lighthouseRun(url: string, port: number): Promise<Run> {
  const load = Math.round(loadavg()[0]! * 10) / 10;
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const audit = (id: string): number => lhr.audits[id]?.numericValue ?? NaN;
  // A score under 100 says nothing on its own: name each failed audit and the elements it points at.
  const failed = (['accessibility', 'best-practices'] as const).flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => {
        const details = lhr.audits[ref.id]?.details as { items?: { node?: { selector?: string } }[] } | undefined;
        const nodes = (details?.items ?? []).map((item) => item.node?.selector).filter(Boolean);
        return nodes.length ? `${ref.id} (${nodes.join(', ')})` : ref.id;
      }),
  );
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    bp: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
    tbt: Math.round(audit('total-blocking-time')),
    cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
    lcp: Math.round(audit('largest-contentful-paint')),
    mainThread: Math.round(audit('mainthread-work-breakdown')),
    load,
    speed: Math.round(lhr.environment.benchmarkIndex),
    ...(failed.length ? { failed } : {}),
  };
}

interface Tap {
  answer: number; // ms from touchend to the tile selected (the click's work done)
  frame: number; // ms from then to the frame that shows it
}

/** Tap → next frame on a phone: `count` taps on free tiles of fresh pages. */
async function tapToPaint(base: string, count: number, cpuSlowdown: number): Promise<Tap[]> {
  const browser = await launch();
  const times: Tap[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        hasTouch: true,
        isMobile: true,
      });
      // A player who has done the first game's lesson (it would cover the board of a new visitor).
      await context.addCookies([{ name: 'mj_prefs', value: 'tutorial-done', url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/play/turtle/tap-${i}-${Date.now().toString(36)}`);
      await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
      await page.waitForTimeout(500);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      const at = await page.$eval('#board .tile[data-free]', (el) => {
        const r = el.getBoundingClientRect();
        const w = window as unknown as { __tap: { lift: number; answer: number; painted: number | null } };
        w.__tap = { lift: 0, answer: 0, painted: null };
        el.addEventListener('touchend', () => (w.__tap.lift = performance.now()), { once: true, passive: true });
        new MutationObserver((_, observer) => {
          if (!el.classList.contains('selected')) return;
          observer.disconnect();
          w.__tap.answer = performance.now();
          // The frame that shows the change: the next animation frame's callback runs just before it is drawn.
          requestAnimationFrame(() => (w.__tap.painted = performance.now()));
        }).observe(el, { attributes: true, attributeFilter: ['class'] });
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...at, id: 1 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const tap = await page.waitForFunction(() => {
        const t = (window as unknown as { __tap: { lift: number; answer: number; painted: number | null } }).__tap;
        return t.painted === null ? null : { answer: t.answer - t.lift, frame: t.painted - t.answer };
      });
      const { answer, frame } = (await tap.jsonValue()) as Tap;
      times.push({ answer: Math.round(answer * 10) / 10, frame: Math.round(frame * 10) / 10 });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}

if (!HAS_CHROMIUM) {
  console.error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  process.exit(2);
}

const app = await startApp({ tutorial: true }); // a new visitor's play page opens the first game's lesson
const chrome = await launchChrome({
  chromePath: process.env.CHROMIUM ?? CHROMIUM,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
const pages = [
  { name: 'play (turtle, fresh deal)', path: () => `/play/turtle/lh-${Math.random().toString(36).slice(2, 10)}` },
  { name: 'home', path: () => '/' },
  { name: 'daily', path: () => '/daily' },
];
const results = new Map<string, Run[]>();
try {
  console.log(
    `Lighthouse 12.2.3, mobile profile, ${RUNS} runs per page (load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')})`,
  );
  for (const p of pages) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await lighthouseRun(`${app.url}${p.path()}`, chrome.port);
      runs.push(run);
      console.log(`  ${p.name} #${i + 1}: ${JSON.stringify(run)}`);
    }
    results.set(p.name, runs);
  }
} finally {
  await chrome.kill();
}
const taps = await tapToPaint(app.url, 5, 1);
const slowTaps = await tapToPaint(app.url, 5, 4);
await app.close();

console.log(
  '\npage                        perf  a11y   b.p.   TBT ms   CLS     LCP ms   main thread ms   (medians)   load (runs)',
);
for (const [name, runs] of results) {
  const m = (k: Exclude<keyof Run, 'failed'>): number => median(runs.map((r) => r[k]));
  console.log(
    `${name.padEnd(28)}${String(m('score')).padStart(4)}${String(m('a11y')).padStart(6)}${String(m('bp')).padStart(7)}` +
      `${String(m('tbt')).padStart(9)}${String(m('cls')).padStart(8)}` +
      `${String(m('lcp')).padStart(9)}${String(m('mainThread')).padStart(17)}` +
      `${''.padStart(14)}${Math.min(...runs.map((r) => r.load))}–${Math.max(...runs.map((r) => r.load))}`,
  );
}
const frames = taps.map((t) => t.frame);
for (const [name, list] of [
  ['this CPU', taps],
  ['4× slower CPU', slowTaps],
] as const)
  console.log(
    `tap at 390×844, ${name}: lift → answer ${list.map((t) => t.answer).join(', ')} ms ` +
      `(median ${median(list.map((t) => t.answer))}); answer → its frame ${list.map((t) => t.frame).join(', ')} ms ` +
      `(median ${median(list.map((t) => t.frame))})`,
  );
const play = results.get(pages[0]!.name)!;
const goals = [
  ['play page performance ≥ 95', median(play.map((r) => r.score)) >= 95],
  ['play page TBT ≤ 200 ms', median(play.map((r) => r.tbt)) <= 200],
  ['play page CLS ≤ 0.05', median(play.map((r) => r.cls)) <= 0.05],
  [
    'home and daily performance ≥ 95',
    [1, 2].every((i) => median(results.get(pages[i]!.name)!.map((r) => r.score)) >= 95),
  ],
  [
    'accessibility and best practices 100 on play, home and daily',
    [...results.values()].every((runs) => runs.every((r) => r.a11y === 100 && r.bp === 100)),
  ],
  ['a tap paints in the next frame (its answer to its frame ≤ 16.7 ms, median)', median(frames) <= 16.7],
] as const;
for (const [goal, met] of goals) console.log(`${met ? 'met    ' : 'NOT MET'}  ${goal}`);
