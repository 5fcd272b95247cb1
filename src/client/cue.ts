/**
 * Scroll cues: a scrolling box says where its content goes on (`data-more="above below"`) and board.css shades
 * those edges. `watchMore` keeps it current and returns a function that stops watching.
 */

const SLACK = 2; // px that count as none

export function markMore(el: HTMLElement): void {
  const more: string[] = [];
  if (el.scrollTop > SLACK) more.push('above');
  if (el.scrollTop + el.clientHeight < el.scrollHeight - SLACK) more.push('below');
  const value = more.join(' ');
  if ((el.dataset.more ?? '') === value) return;
  if (value) el.dataset.more = value;
  else delete el.dataset.more;
}

export function watchMore(el: HTMLElement): () => void {
  let frame = 0;
  const update = (): void => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      markMore(el);
    });
  };
  el.addEventListener('scroll', update, { passive: true });
  // A size report comes with the page laid out: read at once, not in a later frame that may have to lay it out again.
  const sizes = new ResizeObserver(() => markMore(el));
  sizes.observe(el);
  for (const child of el.children) sizes.observe(child);
  const changes = new MutationObserver(update);
  changes.observe(el, { subtree: true, childList: true, characterData: true, attributeFilter: ['hidden'] });
  // No reading now (it would lay out the page in this task): a shown box's first size report marks it.
  return () => {
    el.removeEventListener('scroll', update);
    sizes.disconnect();
    changes.disconnect();
    cancelAnimationFrame(frame);
  };
}
