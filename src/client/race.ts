/**
 * The race page's live part (views/play.eta `#race`; docs/contracts.md, "Live races"): follows the room's
 * stream of server-sent events and puts each update of the standings in place. The server renders them (in the
 * page's language, with "me" for this viewer), so this only swaps the markup and says the news once. The
 * browser reconnects by itself after a drop (the server asks for 2 s), to any process of a fleet.
 *
 * The start: once the room has one (`startsIn`, ms to go as the server sent it), a 3-2-1 covers the board and
 * the board takes no input until 0. It counts on this page's own clock from the moment the news came, so a
 * device whose clock is wrong counts the same seconds; the server refuses moves before its instant anyway.
 */
interface RaceEvent {
  readonly html: string; // the standings, #race-live
  readonly ended: boolean; // the order stands: nothing more will change
  readonly startsAt?: number | null; // ms epoch of the room's start; null until its maker starts it
  readonly startsIn?: number | null; // ms from the server's sending to the start (negative: started)
}

const GO_MS = 700; // "Go!" stays this long over the board; ms

/** Says `text` once in the race's live region. */
function say(race: HTMLElement, text: string): void {
  const news = race.querySelector('#race-news');
  if (news && text && news.textContent !== text) news.textContent = text;
}

/** Counts down `startsIn` ms over the board, then lets a seated racer play. Once a page. */
function countDown(race: HTMLElement, startsIn: number): void {
  if (race.dataset.counting) return;
  race.dataset.counting = 'true';
  const wrap = document.querySelector<HTMLElement>('.board-wrap');
  const box = document.querySelector<HTMLElement>('#race-countdown');
  const release = (): void => {
    if (race.dataset.seated === 'true') wrap?.removeAttribute('inert');
  };
  if (startsIn <= 0 || !box) return release();
  const digits = new Intl.NumberFormat(document.documentElement.lang || undefined);
  const goAt = performance.now() + startsIn;
  const show = (text: string, kind: string): void => {
    const shown = document.createElement('span'); // a new element: its animation runs again
    shown.textContent = text;
    box.replaceChildren(shown);
    box.dataset.count = kind;
  };
  box.hidden = false;
  say(race, box.dataset.ready ?? '');
  const tick = (): void => {
    const left = goAt - performance.now();
    const n = Math.ceil(left / 1000);
    if (n > 0) {
      if (box.dataset.count !== String(n)) show(digits.format(n), String(n));
      setTimeout(tick, left - (n - 1) * 1000 + 5);
      return;
    }
    release();
    show(box.dataset.go ?? '', 'go');
    say(race, box.dataset.go ?? '');
    setTimeout(() => {
      box.hidden = true;
      box.replaceChildren();
    }, GO_MS);
  };
  tick();
}

/** The maker's Start button: sent without leaving the page (the stream brings the start to everyone). */
function bindStart(race: HTMLElement): void {
  race.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.classList.contains('race-start-form')) return;
    event.preventDefault();
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    fetch(form.action, { method: 'POST', credentials: 'same-origin', redirect: 'manual' })
      .then((res) => {
        if (res.type !== 'opaqueredirect' && !res.ok) form.submit(); // the server's own words, as a page
      })
      .catch(() => form.submit());
  });
}

function follow(race: HTMLElement, id: string): void {
  const source = new EventSource(`/race/${encodeURIComponent(id)}/events`);
  source.addEventListener('race', (event) => {
    let update: RaceEvent;
    try {
      update = JSON.parse((event as MessageEvent<string>).data) as RaceEvent;
    } catch {
      return; // not ours: the next update brings the whole standings again
    }
    const made = document.createElement('template');
    made.innerHTML = update.html;
    const next = made.content.firstElementChild as HTMLElement | null;
    const live = race.querySelector('#race-live');
    if (!next || !live) return;
    live.replaceWith(next);
    if (typeof update.startsAt === 'number' && typeof update.startsIn === 'number') {
      race.dataset.startsAt = String(update.startsAt);
      countDown(race, update.startsIn);
    }
    say(race, next.dataset.news ?? ''); // a live region: said once
    if (update.ended) source.close();
  });
  source.addEventListener('closed', () => source.close()); // the room closed after its idle time
  addEventListener('pagehide', () => source.close());
}

const race = document.querySelector<HTMLElement>('#race');
if (race?.dataset.race) {
  bindStart(race);
  if (race.dataset.startsIn) countDown(race, Number(race.dataset.startsIn));
  follow(race, race.dataset.race);
}
