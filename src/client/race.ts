/**
 * The race page's live part (views/play.eta `#race`; docs/contracts.md, "Live races"): follows the room's
 * stream of server-sent events and puts each update of the standings in place. The server renders them (in the
 * page's language, with "me" for this viewer), so this only swaps the markup and says the news once. The
 * browser reconnects by itself after a drop (the server asks for 2 s), to any process of a fleet.
 */
interface RaceEvent {
  readonly html: string; // the standings, #race-live
  readonly ended: boolean; // the order stands: nothing more will change
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
    const news = race.querySelector('#race-news');
    const said = next.dataset.news ?? '';
    if (news && said && news.textContent !== said) news.textContent = said; // a live region: said once
    if (update.ended) source.close();
  });
  source.addEventListener('closed', () => source.close()); // the room closed after its idle time
  addEventListener('pagehide', () => source.close());
}

const race = document.querySelector<HTMLElement>('#race');
if (race?.dataset.race) follow(race, race.dataset.race);
