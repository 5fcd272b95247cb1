/**
 * The play page's words never broken or cut (board.css, "The bar"), in every language (the replay page's bar too):
 *
 * - the bar: where the labels of the page's language do not fit it as it is laid out now (long words on a
 *   narrow phone), it shows each button's sign instead (`.compact`); the labels stay the buttons' names;
 * - the counters: on a phone in portrait they have one line of their own; where their words need two, the
 *   page gives them two (`counters-wrap` on the body) and the board's view is that much smaller.
 *
 * Looked at again whenever the bar's width changes (a rotation, a resized window) and once the fonts have
 * loaded. Without script the bar is not shown, and the counters keep one line.
 */

/** Whether a button's label is wider than the room the button gives it. */
const overflows = (button: HTMLElement): boolean => {
  const label = button.querySelector<HTMLElement>('.label');
  return label !== null && label.offsetWidth > 0 && button.scrollWidth > button.clientWidth + 0.5;
};

/** Whether the counters' boxes take more than the one line their row has. */
const wraps = (counters: HTMLElement): boolean => {
  const shown = [...counters.children].filter(
    (el): el is HTMLElement => el instanceof HTMLElement && el.offsetParent !== null,
  );
  const first = shown[0];
  return first !== undefined && shown.some((el) => el.offsetTop > first.offsetTop + first.offsetHeight / 2);
};

/** Shows the bar's words when they all fit, else its signs; gives the counters a second line if they need it. */
export function fitChrome(bar: HTMLElement, counters: HTMLElement | null): void {
  const body = bar.ownerDocument.body;
  if (counters) {
    body.classList.remove('counters-wrap');
    if (wraps(counters)) body.classList.add('counters-wrap'); // only the portrait arrangement has a row to grow
  }
  bar.classList.remove('compact');
  const buttons = [...bar.querySelectorAll<HTMLElement>('button, a')]; // a replay's steps are links
  if (buttons.some(overflows)) bar.classList.add('compact');
}

/** Keeps the bar and the counters fitted as the page's width changes. */
export function watchChrome(bar: HTMLElement, counters: HTMLElement | null): void {
  let width = -1;
  const check = (): void => {
    const now = bar.ownerDocument.documentElement.clientWidth;
    if (now === width) return; // only the width decides; the check itself changes heights
    width = now;
    fitChrome(bar, counters);
  };
  new ResizeObserver(check).observe(bar);
  void bar.ownerDocument.fonts?.ready.then(() => fitChrome(bar, counters));
}
