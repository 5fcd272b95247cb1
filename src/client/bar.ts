/**
 * Keeps the play page's words whole in every language (board.css, "The bar"): the bar shows signs where its
 * labels do not fit, and portrait counters get a second line when they need one. Rechecked on width changes.
 */

const overflows = (button: HTMLElement): boolean => {
  const label = button.querySelector<HTMLElement>('.label');
  return label !== null && label.offsetWidth > 0 && button.scrollWidth > button.clientWidth + 0.5;
};

const wraps = (counters: HTMLElement): boolean => {
  const shown = [...counters.children].filter(
    (el): el is HTMLElement => el instanceof HTMLElement && el.offsetParent !== null,
  );
  const first = shown[0];
  return first !== undefined && shown.some((el) => el.offsetTop > first.offsetTop + first.offsetHeight / 2);
};

/** Shows the bar's words when they fit, else its signs; gives the counters a second line if needed. */
export function fitChrome(bar: HTMLElement, counters: HTMLElement | null): void {
  const body = bar.ownerDocument.body;
  if (counters) {
    body.classList.remove('counters-wrap');
    if (wraps(counters)) body.classList.add('counters-wrap'); // only portrait has a row to grow
  }
  bar.classList.remove('compact');
  const buttons = [...bar.querySelectorAll<HTMLElement>('button, a')]; // a replay's steps are links
  if (buttons.some(overflows)) bar.classList.add('compact');
}

export function watchChrome(bar: HTMLElement, counters: HTMLElement | null): void {
  let width = -1;
  const check = (): void => {
    const now = bar.ownerDocument.documentElement.clientWidth;
    if (now === width) return; // only the width decides
    width = now;
    fitChrome(bar, counters);
  };
  new ResizeObserver(check).observe(bar);
  // Web fonts arriving late would change the words' widths (the site has none today: no recheck then).
  const fonts = bar.ownerDocument.fonts;
  if (fonts?.size) void fonts.ready.then(() => fitChrome(bar, counters));
}
