/** The win panel (your time, the server's verdict, achievements, links) and the deal's record (#deal-stats). */
import { achievementText } from '../shared/achievements.ts';
import type { EarnedAnswer } from '../shared/api.ts';
import { formatTime, isCleanWin } from '../shared/display.ts';
import { setAttr, setText } from './dom.ts';
import { t } from './i18n.ts';
import type { State } from './render.ts';
import { elapsedMs, type Verified } from './state.ts';

/** The win panel: your time at once; ranked time, rank and best once the server has recorded the win. */
export function renderWin(s: State, now: number): void {
  const panel = s.dom.winPanel;
  if (!panel) return;
  const won = s.status === 'won';
  const key = won ? `${s.verified ? 'verified' : s.saving} ${s.replayUrl ?? ''} ${s.challengeUrl ?? ''}` : '';
  if (panel.dataset.key === key) return;
  const opening = panel.hidden && won;
  panel.dataset.key = key;
  panel.hidden = !won;
  if (!won) return;
  const part = (name: string): HTMLElement | null => panel.querySelector<HTMLElement>(`[data-win="${name}"]`);
  const show = (name: string, text: string | null): void => {
    const el = part(name);
    if (!el) return;
    el.hidden = text === null;
    if (text !== null) setText(el, text);
  };
  const yours = elapsedMs(s.clock, now);
  const v = s.verified;
  const ranked = v?.ranked && v.timeMs !== null && v.timeMs !== undefined ? v.timeMs : null;
  show('your-time', formatTime(yours));
  // Both clocks only when they differ by a second or more.
  const differs = ranked !== null && Math.floor(ranked / 1000) !== Math.floor(yours / 1000);
  const rankedBox = part('ranked');
  if (rankedBox) rankedBox.hidden = !differs;
  show('ranked-time', ranked === null ? '–' : formatTime(ranked));
  show('ranked-note', differs ? (part('ranked-note')?.textContent ?? '') : null);
  show('rank', v ? rankText(v, s.wentOffline) || null : null);
  const rank = part('rank');
  if (rank) rank.dataset.ranked = String(v?.ranked ?? '');
  show('best', v ? bestText(yours, v.previousBestMs, s.deal.mode) || null : null);
  const saving = part('saving');
  if (saving) {
    saving.hidden = v !== null;
    setText(
      saving,
      s.saving === 'offline' || s.saving === 'busy' || s.saving === 'refused'
        ? t('client.win.kept')
        : t('client.win.saving'),
    );
  }
  const verified = part('verified');
  if (verified) verified.hidden = v === null;
  const clean = isCleanWin(s.game);
  const { hints, shuffles, undos } = s.game;
  const title = panel.querySelector('h2');
  if (title) {
    title.dataset.clean = String(clean);
    setText(title, t(clean ? 'client.win.cleanTitle' : 'client.win.title'));
  }
  let help = part('help');
  if (!help && !clean) {
    help = s.dom.board.ownerDocument.createElement('p');
    help.className = 'win-help';
    help.dataset.win = 'help';
    part('ranked-note')?.before(help);
  }
  if (help) {
    help.hidden = clean;
    setText(help, t('client.win.help', { hints, shuffles, undos }));
  }
  renderEarned(part('achievements'), v?.achievements ?? []);
  const replay = part('replay');
  if (replay) {
    replay.hidden = s.replayUrl === null;
    const link = replay.querySelector('a');
    if (link && s.replayUrl !== null && link.getAttribute('href') !== s.replayUrl) {
      link.href = s.replayUrl;
      link.textContent = `${location.origin}${s.replayUrl}`;
    }
  }
  const challenge = part('challenge-link');
  if (challenge) {
    challenge.hidden = s.challengeUrl === null;
    const link = challenge.querySelector('a');
    if (link && s.challengeUrl !== null && link.getAttribute('href') !== s.challengeUrl) {
      link.href = s.challengeUrl;
      link.textContent = `${location.origin}${s.challengeUrl}`;
    }
  }
  const next = part('next');
  if (next instanceof HTMLAnchorElement && v?.next) {
    next.href = v.next.url;
    setText(next, t('client.win.try', { name: v.next.name }));
  }
  if (opening) part('new')?.focus();
}

/** The achievements a win earned, listed in the win panel once the server has recorded it. */
function renderEarned(list: HTMLElement | null, earned: readonly EarnedAnswer[]): void {
  if (!list) return;
  const key = earned.map((a) => a.id).join(' ');
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.hidden = earned.length === 0;
  const doc = list.ownerDocument;
  const items = earned.map((a) => {
    const li = doc.createElement('li');
    li.dataset.achievement = a.id;
    const name = doc.createElement('strong');
    const text = achievementText(a.id);
    name.textContent = text ? t(text.name) : a.name;
    li.append(name, ` ${text ? t(text.rule) : a.rule}`);
    return li;
  });
  const title = list.querySelector('h3');
  list.querySelector('ul')?.replaceChildren(...items);
  if (title) title.textContent = t('client.win.achievements', { n: earned.length });
}

/** The win's rank, or why it is unranked (docs/fair-play.md); `offline`: moves may have arrived together. */
export function rankText(v: Pick<Verified, 'ranked' | 'unranked' | 'dailyRank'>, offline = false): string {
  if (v.ranked === undefined || v.ranked === null) return '';
  if (!v.ranked) {
    if (v.unranked === 'legacy') return t('client.rank.legacy');
    if (v.unranked === 'play-on') return t('client.rank.playOn');
    return t(offline ? 'client.rank.offline' : 'client.rank.fast');
  }
  if (v.dailyRank) return t('client.rank.daily', { rank: v.dailyRank });
  return t('client.rank.record');
}

/** The player's best on this layout and mode; the gain is in shown whole seconds, so the numbers agree. */
export function bestText(timeMs: number | null, previousBestMs: number | null | undefined, mode: string): string {
  if (timeMs === null || previousBestMs === undefined) return '';
  if (previousBestMs === null) return t('client.best.first', { mode });
  const before = formatTime(previousBestMs);
  if (timeMs < previousBestMs) {
    const gain = Math.floor(previousBestMs / 1000) - Math.floor(timeMs / 1000);
    return gain >= 1
      ? t('client.best.faster', { mode, gain: formatTime(gain * 1000), before })
      : t('client.best.under', { mode, before });
  }
  return t('client.best.stays', { mode, before });
}

/** The deal's record (#deal-stats) updated from a win's answer (docs/contracts.md, "The play page"). */
export function renderRecord(s: State): void {
  const el = s.dom.record;
  const r = s.record;
  if (!el || !r || el.dataset.key === `${r.opened}/${r.won}/${r.best.length}/${r.best[0]?.timeMs}`) return;
  el.dataset.key = `${r.opened}/${r.won}/${r.best.length}/${r.best[0]?.timeMs}`;
  const doc = el.ownerDocument;
  setAttr(el, 'data-played', String(r.opened));
  setAttr(el, 'data-won', String(r.won));
  const counts = el.querySelector('.deal-stats-counts');
  if (counts) setText(counts, t('client.record.counts', { opened: r.opened, won: r.won }));
  const summary = el.querySelector('summary');
  let best = el.querySelector('.deal-stats-best');
  if (r.best[0] && summary) {
    if (!best) {
      best = doc.createElement('span');
      best.className = 'deal-stats-best';
      summary.append(` · ${t('client.record.best')} `, best);
    }
    setText(best, formatTime(r.best[0].timeMs));
  }
  const body = el.querySelector('.deal-stats-body');
  const note = el.querySelector('.deal-stats-note');
  if (!body || r.best.length === 0) return;
  el.querySelector('.deal-stats-empty')?.remove();
  const list = doc.createElement('ol');
  list.className = 'deal-best';
  list.setAttribute('aria-label', t('client.record.label'));
  for (const line of r.best) {
    const li = doc.createElement('li');
    if (line.you) li.className = 'you';
    const name = doc.createElement('span');
    name.className = 'deal-best-name';
    name.textContent = line.name || t('client.anonymous');
    if (line.you) name.append(' ', span(doc, 'pill', t('client.you')));
    li.append(name, ' ', span(doc, 'deal-best-time', formatTime(line.timeMs)));
    if (line.clean) li.append(' ', span(doc, 'deal-best-clean', t('client.clean')));
    list.append(li);
  }
  el.querySelector('.deal-best')?.remove();
  body.insertBefore(list, note);
}

function span(doc: Document, className: string, text: string): HTMLSpanElement {
  const el = doc.createElement('span');
  el.className = className;
  el.textContent = text;
  return el;
}
