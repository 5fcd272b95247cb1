/** The race page's live standings and its 3-2-1 start (docs/client.md, "The race page"). */
interface RaceEvent {
  readonly html: string; // #race-live
  readonly ended: boolean; // nothing more will change
  readonly startsAt?: number | null; // ms epoch; null until started
  readonly startsIn?: number | null; // ms left when sent (negative: started)
}

const GO_MS = 700; // "Go!" shows this long

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
    const shown = document.createElement('span'); // new, so its animation reruns
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

/** The maker's Start button, sent without leaving the page. */
function bindStart(race: HTMLElement): void {
  race.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.classList.contains('race-start-form')) return;
    event.preventDefault();
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    fetch(form.action, { method: 'POST', credentials: 'same-origin', redirect: 'manual' })
      .then((res) => {
        if (res.type !== 'opaqueredirect' && !res.ok) form.submit(); // shows the server's error page
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
      return; // the next update brings the whole standings
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
    say(race, next.dataset.news ?? '');
    if (update.ended) source.close();
  });
  source.addEventListener('closed', () => source.close()); // idle room closed
  addEventListener('pagehide', () => source.close());
}

const race = document.querySelector<HTMLElement>('#race');
if (race?.dataset.race) {
  bindStart(race);
  if (race.dataset.startsIn) countDown(race, Number(race.dataset.startsIn));
  follow(race, race.dataset.race);
}
