/** Writes to the DOM only what changed: a restyle or a screen reader's re-reading costs more than the compare. */

/** Sets attribute `name` to `value`, or removes it when null. */
export const setAttr = (el: Element, name: string, value: string | null): void => {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
};

/** Sets an element's text (none: nothing). */
export const setText = (el: Element | null, text: string): void => {
  if (el && el.textContent !== text) el.textContent = text;
};
