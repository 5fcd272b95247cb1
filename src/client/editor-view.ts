/** The layout editor's drawing, as the server would render the draft (docs/client.md, "The layout editor"). */
import { makeGeometry } from '../engine/layout.ts';
import {
  EDITOR_NAME_MAX,
  cellsOf,
  draftQuery,
  gridOf,
  makeDraftCode,
  overlapping,
  pictureLabel,
  statusText,
  topLayerOf,
  type Draft,
  type DraftCheck,
} from '../shared/draft.ts';
import { layoutPicture } from '../shared/picture.ts';
import { ORDER_BUDGET } from '../engine/order.ts';
import { t } from './i18n.ts';

export const EDITOR_PATH = '/layouts/editor';

/** The elements the editor works on. */
export interface EditorDom {
  readonly root: HTMLElement;
  readonly form: HTMLFormElement; // the grid's GET and the save's POST
  readonly view: HTMLElement; // clips and scrolls the grid
  readonly grid: HTMLElement;
  readonly tiles: HTMLElement; // drawn under the cells
  readonly status: HTMLElement;
  readonly layers: HTMLElement; // tiles per layer
  readonly layer: HTMLElement;
  readonly preview: HTMLElement;
  readonly code: HTMLInputElement; // the form's `layout`
  readonly z: HTMLInputElement;
  readonly name: HTMLInputElement;
  readonly download: HTMLAnchorElement;
  readonly error: HTMLElement | null; // the server's refusal
  button(action: string): HTMLButtonElement | null;
}

/** The editor's elements, or null when the page is not the editor. */
export function findDom(doc: Document): EditorDom | null {
  const get = <T extends Element>(selector: string): T | null => doc.querySelector<T>(selector);
  const root = get<HTMLElement>('#editor');
  const form = get<HTMLFormElement>('#editor-form');
  const view = get<HTMLElement>('#editor-view');
  const grid = get<HTMLElement>('#editor-grid');
  const tiles = get<HTMLElement>('#editor-grid .editor-tiles');
  const status = get<HTMLElement>('#editor-status');
  const layers = get<HTMLElement>('#editor-layers');
  const layer = get<HTMLElement>('#editor-layer [data-layer]');
  const preview = get<HTMLElement>('#editor-preview');
  const code = get<HTMLInputElement>('#editor-form input[name="layout"]');
  const z = get<HTMLInputElement>('#editor-form input[name="z"]');
  const name = get<HTMLInputElement>('#editor-name');
  const download = get<HTMLAnchorElement>('[data-action="download"]');
  if (!root || !form || !view || !grid || !tiles || !status || !layers || !layer || !preview) return null;
  if (!code || !z || !name || !download) return null;
  return {
    root,
    form,
    view,
    grid,
    tiles,
    status,
    layers,
    layer,
    preview,
    code,
    z,
    name,
    download,
    error: get<HTMLElement>('#editor-error'),
    button: (action) => get<HTMLButtonElement>(`[data-action="${action}"]`),
  };
}

/** What the page shows besides the draft. */
export interface ViewState {
  readonly draft: Draft;
  readonly check: DraftCheck | null; // null while the worker checks
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly focus: { readonly x: number; readonly y: number }; // the keyboard's cell
}

const cellOf = (x: number, y: number): string => `${x},${y}`;

/** Makes the cell buttons of a width × height (half tiles) grid, unless they are there already. */
function ensureCells(dom: EditorDom, width: number, height: number): HTMLButtonElement[] {
  const cells = [...dom.grid.querySelectorAll<HTMLButtonElement>('button[data-cell]')];
  if (Number(dom.root.dataset.w) === width && Number(dom.root.dataset.h) === height && cells.length === width * height)
    return cells;
  for (const c of cells) c.remove();
  const made: HTMLButtonElement[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const b = dom.grid.ownerDocument.createElement('button');
      b.type = 'submit';
      b.name = 'cell';
      b.value = b.dataset.cell = cellOf(x, y);
      b.setAttribute('aria-label', `${x}, ${y}`);
      b.setAttribute('aria-pressed', 'false');
      made.push(b);
    }
  dom.grid.append(...made);
  dom.root.dataset.w = String(width);
  dom.root.dataset.h = String(height);
  dom.grid.style.setProperty('--w', String(width));
  dom.grid.style.setProperty('--h', String(height));
  return made;
}

/** Draws all that depends on the draft: grid, tiles, panel, form and address. */
export function draw(dom: EditorDom, state: ViewState): void {
  const { draft } = state;
  const { width, height } = gridOf(draft.slots);
  const cells = ensureCells(dom, width, height);
  const z = draft.z;
  const covered = new Uint8Array(width * height);
  for (const s of draft.slots)
    if (s.z === z) for (const [x, y] of cellsOf(s)) if (x < width && y < height) covered[y * width + x] = 1;
  const focusAt = state.focus.y * width + state.focus.x;
  cells.forEach((b, i) => {
    const pressed = covered[i] ? 'true' : 'false';
    if (b.getAttribute('aria-pressed') !== pressed) b.setAttribute('aria-pressed', pressed);
    const tab = i === focusAt ? '0' : '-1';
    if (b.getAttribute('tabindex') !== tab) b.setAttribute('tabindex', tab);
  });
  const clash = overlapping(draft.slots);
  let html = '';
  let above = ''; // outlines of higher tiles, drawn last
  draft.slots.forEach((s, i) => {
    const kind = s.z > z ? 'above' : s.z === z ? 'on' : s.z === z - 1 ? 'ghost' : 'below';
    const span = `<span class="et ${kind}${clash.has(i) ? ' clash' : ''}" style="--x:${s.x};--y:${s.y}"></span>`;
    if (kind === 'above') above += span;
    else html += span;
  });
  dom.tiles.innerHTML = html + above; // numbers and fixed words only
  dom.grid.setAttribute('aria-label', t('client.editor.gridLabel', { z: z + 1, width, height }));
  dom.layer.textContent = String(z + 1);
  drawPanel(dom, state);
  const code = makeDraftCode(draft.slots);
  dom.code.value = code;
  dom.z.value = String(z);
  if (dom.name.value.slice(0, EDITOR_NAME_MAX) !== draft.name && dom.name.ownerDocument.activeElement !== dom.name)
    dom.name.value = draft.name;
  dom.download.href = `${EDITOR_PATH}.layout${draftQuery({ ...draft, z: 0 })}`;
  const top = topLayerOf(draft.slots);
  setDisabled(dom.button('layer-up'), z >= top);
  setDisabled(dom.button('layer-down'), z <= 0);
  setDisabled(dom.button('undo'), !state.canUndo);
  setDisabled(dom.button('redo'), !state.canRedo);
  const address = `${EDITOR_PATH}${draftQuery(draft)}`;
  if (location.pathname + location.search !== address) history.replaceState(null, '', address);
}

/** The status panel: tile count, "can this be cleared?", tiles per layer, the picture. */
export function drawPanel(dom: EditorDom, state: ViewState): void {
  const { draft, check } = state;
  const s = dom.status;
  s.dataset.tiles = String(draft.slots.length);
  if (check === null) {
    delete s.dataset.clearable;
    delete s.dataset.reason;
    s.dataset.checking = '';
  } else {
    delete s.dataset.checking;
    s.dataset.clearable = check.clearable ? 'yes' : 'no';
    if (check.clearable) delete s.dataset.reason;
    else s.dataset.reason = check.reason;
  }
  const text = statusText(t, draft.slots.length, check, ORDER_BUDGET);
  if (s.textContent !== text) s.textContent = text;
  const perLayer: number[] = [];
  for (const t of draft.slots) perLayer[t.z] = (perLayer[t.z] ?? 0) + 1;
  const count = Math.max(perLayer.length, draft.z + 1);
  dom.layers.replaceChildren(
    ...Array.from({ length: count }, (_, k) => {
      const span = dom.layers.ownerDocument.createElement('span');
      if (k === draft.z) span.className = 'current';
      span.textContent = t('client.editor.layerCount', { z: k + 1, n: perLayer[k] ?? 0 });
      return span;
    }).flatMap((span) => [span, ' ']),
  );
  const label = pictureLabel(t, draft.name, draft.slots.length, Math.max(1, perLayer.length));
  // SVG built from numbers; its one text, the label, is escaped by layoutPicture.
  dom.preview.innerHTML = draft.slots.length > 0 ? layoutPicture(makeGeometry(draft.slots), label) : '';
  setDisabled(dom.button('save'), check !== null && !check.clearable);
}

function setDisabled(button: HTMLButtonElement | null, disabled: boolean): void {
  if (button && button.disabled !== disabled) button.disabled = disabled;
}

export const cellButton = (dom: EditorDom, x: number, y: number): HTMLButtonElement | null =>
  dom.grid.querySelector<HTMLButtonElement>(`button[data-cell="${cellOf(x, y)}"]`);
