/** The stats page's SVG chart of winning times; left to right in every language, as a plot. */
import type { WinTime } from '../services/stats.ts';
import { formatTime } from '../../shared/display.ts';
import type { Translator } from '../services/i18n.ts';

export const CHART_WINS = 50;

const W = 640; // viewBox
const H = 240;
const LEFT = 56; // room for the axis labels
const RIGHT = 16;
const TOP = 16;
const BOTTOM = 36;

const escapeText = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const num = (n: number): string => String(Math.round(n * 10) / 10);

/** A tick step for time in ms: 1, 2 or 5 times a power of ten minutes, or 10/15/30 s. */
export function tickStep(maxMs: number): number {
  const steps = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200].map((s) => s * 1000);
  return steps.find((s) => maxMs / s <= 5) ?? Math.ceil(maxMs / 5 / 3_600_000) * 3_600_000;
}

/** SVG markup of the chart, or '' when there are no wins. */
export function timesChart(allWins: readonly WinTime[], i18n: Pick<Translator, 't' | 'date'>): string {
  const formatDate = (ms: number): string => i18n.date(ms, 'day-short');
  const wins = allWins.slice(-CHART_WINS);
  if (wins.length === 0) return '';
  const maxMs = Math.max(...wins.map((w) => w.timeMs), 1000);
  const step = tickStep(maxMs);
  const top = Math.ceil(maxMs / step) * step;
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const xOf = (i: number): number => LEFT + (wins.length === 1 ? plotW / 2 : (i * plotW) / (wins.length - 1));
  const yOf = (ms: number): number => TOP + plotH - (ms / top) * plotH;

  const parts: string[] = [];
  for (let t = 0; t <= top; t += step) {
    const y = num(yOf(t));
    parts.push(`<line class="grid" x1="${LEFT}" x2="${W - RIGHT}" y1="${y}" y2="${y}"/>`);
    parts.push(
      `<text class="tick" x="${LEFT - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${formatTime(t)}</text>`,
    );
  }
  const first = wins[0]!;
  const last = wins[wins.length - 1]!;
  parts.push(`<text class="tick" x="${LEFT}" y="${H - 10}">${escapeText(formatDate(first.finishedAt))}</text>`);
  if (wins.length > 1)
    parts.push(
      `<text class="tick" x="${W - RIGHT}" y="${H - 10}" text-anchor="end">${escapeText(formatDate(last.finishedAt))}</text>`,
    );
  if (wins.length > 1)
    parts.push(
      `<polyline class="trend" points="${wins.map((w, i) => `${num(xOf(i))},${num(yOf(w.timeMs))}`).join(' ')}"/>`,
    );
  wins.forEach((w, i) => {
    parts.push(
      `<circle class="${w.clean ? 'win clean' : 'win'}" cx="${num(xOf(i))}" cy="${num(yOf(w.timeMs))}" r="4.5">` +
        `<title>${escapeText(i18n.t(w.clean ? 'stats.chartDotClean' : 'stats.chartDot', { date: formatDate(w.finishedAt), time: formatTime(w.timeMs) }))}</title></circle>`,
    );
  });
  const best = Math.min(...wins.map((w) => w.timeMs));
  const label = i18n.t('stats.chartLabel', { n: wins.length, best: formatTime(best), latest: formatTime(last.timeMs) });
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" direction="ltr" role="img" aria-label="${escapeText(label)}">${parts.join('')}</svg>`;
}
