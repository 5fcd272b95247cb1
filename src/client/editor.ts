/** The layout editor's script: the form's edits in the browser (docs/client.md, "The layout editor"). */
import { makeLayout } from '../engine/layout.ts';
import { ORDER_BUDGET } from '../engine/order.ts';
import { t } from './i18n.ts';
import { makeKmahjongg } from '../formats/kmahjongg.ts';
import {
  EDITOR_NAME_MAX,
  changeLayer,
  editMessage,
  checkDraft,
  gridOf,
  makeDraftCode,
  moveDraft,
  parseDraftCode,
  toggleCell,
  topLayerOf,
  type Draft,
  type DraftCheck,
  type DraftEdit,
} from '../shared/draft.ts';
import type { CheckAnswer, CheckRequest } from './editor-worker.ts';
import { cellButton, draw, drawPanel, findDom, type EditorDom, type ViewState } from './editor-view.ts';
import { clampZoom, zoomIn, zoomOut } from './zoom.ts';

declare const __EDITOR_WORKER_FILE__: string; // set by scripts/build-client.ts

const UNDO_MAX = 500;
const CHECK_DELAY_MS = 60; // a burst of clicks is checked once
const STUCK_MS = 400; // older, a check is abandoned (worker restarted)
const MIN_CELL = 6; // CSS px
const TAP_CELL = 24; // on a phone; CSS px
const PHONE = '(pointer: coarse), (max-width: 600px)'; // as editor.css
const ASPECT = 4 / 3;
/** The move buttons' steps: half-tile cells right and down. */
const MOVE_STEPS: ReadonlyMap<string, readonly [dx: number, dy: number]> = new Map([
  ['move-left', [-1, 0]],
  ['move-right', [1, 0]],
  ['move-up', [0, -1]],
  ['move-down', [0, 1]],
]);

interface EditorState {
  draft: Draft;
  undo: Draft[]; // most recent last
  redo: Draft[];
  check: DraftCheck | null; // null while asked
  focus: { x: number; y: number };
  zoom: number | null; // CSS px; null: fitted
}

interface PageData {
  readonly query: string;
  readonly code: string;
  readonly z: number;
  readonly name: string;
}

function readData(doc: Document): PageData | null {
  try {
    const data = JSON.parse(doc.getElementById('editor-data')?.textContent ?? '') as PageData;
    return typeof data.code === 'string' ? data : null;
  } catch {
    return null;
  }
}

/** The server's draft, or the address's on a copy kept for offline use. */
function initialDraft(data: PageData): Draft {
  const fromServer = parseDraftCode(data.code);
  const server: Draft = { slots: fromServer.ok ? fromServer.slots : [], z: data.z, name: data.name };
  if (data.query !== '' || location.search === '') return server;
  const params = new URLSearchParams(location.search);
  const parsed = parseDraftCode(params.get('layout') ?? '');
  if (!parsed.ok) return server;
  const z = Math.min(Math.max(0, Number(params.get('z')) || 0), topLayerOf(parsed.slots));
  return { slots: parsed.slots, z, name: (params.get('name') ?? '').slice(0, EDITOR_NAME_MAX) };
}

/** Asks the worker whether the latest draft can be cleared; answers on the main thread without one. */
function makeChecker(onAnswer: (code: string, check: DraftCheck) => void) {
  let worker: Worker | null = null;
  let failed = false;
  let asked = 0; // latest request's id
  let busySince = 0; // oldest unanswered request's time
  let codeOf = new Map<number, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const start = (): Worker | null => {
    if (failed) return null;
    try {
      const w = new Worker(new URL(__EDITOR_WORKER_FILE__, import.meta.url), { type: 'module' });
      w.addEventListener('message', (e: MessageEvent<CheckAnswer>) => {
        busySince = e.data.id === asked ? 0 : performance.now(); // the worker starts the next one now
        const code = codeOf.get(e.data.id);
        codeOf.delete(e.data.id);
        if (e.data.id === asked && code !== undefined) onAnswer(code, e.data.check);
      });
      w.addEventListener('error', () => {
        failed = true; // main thread from now on
        worker = null;
        ask(lastDraft);
      });
      return w;
    } catch {
      failed = true;
      return null;
    }
  };
  let lastDraft: Draft | null = null;

  const ask = (draft: Draft | null): void => {
    if (!draft) return;
    const code = makeDraftCode(draft.slots);
    asked++;
    if (busySince !== 0 && performance.now() - busySince > STUCK_MS) {
      worker?.terminate(); // a search on an older draft: start afresh
      worker = null;
      codeOf = new Map();
      busySince = 0;
    }
    worker ??= start();
    if (!worker) {
      onAnswer(code, checkDraft(draft.slots, ORDER_BUDGET));
      return;
    }
    codeOf.set(asked, code);
    if (busySince === 0) busySince = performance.now();
    const request: CheckRequest = { id: asked, slots: draft.slots.map((s) => [s.x, s.y, s.z] as const) };
    worker.postMessage(request);
  };

  return (draft: Draft): void => {
    lastDraft = draft;
    clearTimeout(timer);
    timer = setTimeout(() => ask(draft), CHECK_DELAY_MS);
  };
}

function start(dom: EditorDom, data: PageData): void {
  const state: EditorState = {
    draft: initialDraft(data),
    undo: [],
    redo: [],
    check: null,
    focus: { x: 0, y: 0 },
    zoom: null,
  };
  const view = (): ViewState => ({
    draft: state.draft,
    check: state.check,
    canUndo: state.undo.length > 0,
    canRedo: state.redo.length > 0,
    focus: state.focus,
  });
  const check = makeChecker((code, answer) => {
    if (code !== makeDraftCode(state.draft.slots)) return; // an answer for a draft since changed
    state.check = answer;
    drawPanel(dom, view());
  });
  const say = (text: string): void => {
    dom.status.textContent = text; // for the live region; the next draw writes the status again
  };

  const redraw = (): void => {
    const hadFocus = dom.grid.contains(document.activeElement);
    draw(dom, view());
    fit();
    if (hadFocus && !dom.grid.contains(document.activeElement))
      cellButton(dom, state.focus.x, state.focus.y)?.focus({ preventScroll: true });
  };

  /** Makes `next` the draft, keeping the old one for undo (unless only the layer or name changed). */
  const commit = (next: Draft, record = true): void => {
    const before = state.draft;
    if (record && makeDraftCode(before.slots) !== makeDraftCode(next.slots)) {
      state.undo.push(before);
      if (state.undo.length > UNDO_MAX) state.undo.shift();
      state.redo = [];
    }
    const tilesChanged = makeDraftCode(before.slots) !== makeDraftCode(next.slots);
    state.draft = next;
    if (tilesChanged) {
      state.check = null;
      check(next);
    }
    dom.error?.remove();
    redraw();
  };

  const apply = (edit: DraftEdit): void => {
    if (edit.ok) commit(edit.draft);
    else say(editMessage(t, edit.reason));
  };

  const undo = (): void => {
    const previous = state.undo.pop();
    if (!previous) return;
    state.redo.push(state.draft);
    commit({ ...previous, name: state.draft.name }, false);
  };
  const redo = (): void => {
    const next = state.redo.pop();
    if (!next) return;
    state.undo.push(state.draft);
    commit({ ...next, name: state.draft.name }, false);
  };
  const layer = (dz: -1 | 1): void => commit(changeLayer(state.draft, dz), false);

  // --- zoom (zoom.ts's levels, as on the board)
  const fitTile = (): number => {
    const { width, height } = gridOf(state.draft.slots);
    const w = dom.view.clientWidth - 4;
    // A view as tall as its grid (narrow screens) fits the width.
    const cap = parseFloat(getComputedStyle(dom.view).maxHeight);
    const h = (Number.isFinite(cap) ? cap : dom.view.clientHeight) - 4;
    const least = matchMedia(PHONE).matches ? TAP_CELL : MIN_CELL;
    return 2 * Math.max(least, Math.min(w / width, h / (height * ASPECT)));
  };
  function fit(): void {
    const tile = state.zoom ?? fitTile();
    dom.grid.style.setProperty('--cell', `${(tile / 2).toFixed(2)}px`);
    dom.root.toggleAttribute('data-zoomed', state.zoom !== null);
  }
  /** Zooms to `zoom`, keeping the view's point (x, y) (default: its middle) in place. */
  const zoomTo = (zoom: number | null, at?: { x: number; y: number }): void => {
    const before = dom.grid.getBoundingClientRect().width;
    const box = dom.view.getBoundingClientRect();
    const px = at ? at.x - box.left : box.width / 2;
    const py = at ? at.y - box.top : box.height / 2;
    const gx = dom.view.scrollLeft + px;
    const gy = dom.view.scrollTop + py;
    state.zoom = zoom;
    fit();
    const k = dom.grid.getBoundingClientRect().width / before;
    dom.view.scrollLeft = gx * k - px;
    dom.view.scrollTop = gy * k - py;
  };

  // --- the grid: clicks and keys
  const focusCell = (x: number, y: number): void => {
    const { width, height } = gridOf(state.draft.slots);
    state.focus = { x: Math.max(0, Math.min(width - 1, x)), y: Math.max(0, Math.min(height - 1, y)) };
    draw(dom, view());
    cellButton(dom, state.focus.x, state.focus.y)?.focus();
  };

  dom.form.addEventListener('click', (e) => {
    const target = e.target instanceof Element ? e.target.closest('button') : null;
    if (!target || !dom.form.contains(target)) return;
    const cell = target.dataset.cell;
    if (cell !== undefined) {
      e.preventDefault();
      const [x, y] = cell.split(',').map(Number) as [number, number];
      state.focus = { x, y };
      apply(toggleCell(state.draft, x, y));
      return;
    }
    const action = target.dataset.action;
    if (action === 'layer-up' || action === 'layer-down') {
      e.preventDefault();
      layer(action === 'layer-up' ? 1 : -1);
    } else if (action?.startsWith('move-')) {
      e.preventDefault();
      const [dx, dy] = MOVE_STEPS.get(action) ?? [0, 0];
      apply(moveDraft(state.draft, dx, dy));
    } else if (action === 'undo') {
      e.preventDefault();
      undo();
    } else if (action === 'redo') {
      e.preventDefault();
      redo();
    } else if (action === 'zoom-in' || action === 'zoom-out' || action === 'zoom-fit') {
      e.preventDefault();
      const f = fitTile();
      zoomTo(action === 'zoom-fit' ? null : action === 'zoom-in' ? zoomIn(state.zoom, f) : zoomOut(state.zoom, f));
    }
  });

  // Enter in the name field would submit "keep the name"; saving offline says it needs the network.
  dom.form.addEventListener('submit', (e) => {
    const submitter = (e as SubmitEvent).submitter;
    if (submitter?.dataset.action !== 'save') e.preventDefault();
    else if (!navigator.onLine) {
      e.preventDefault();
      say(t('client.editor.offline'));
    }
  });

  // The download is made here (/layouts/editor.layout serves it without script).
  dom.download.addEventListener('click', (e) => {
    e.preventDefault();
    const { slots, name } = state.draft;
    if (slots.length === 0) return say(t('client.editor.nothingToDownload'));
    let text: string;
    try {
      text = makeKmahjongg(makeLayout('draft', name || t('client.editor.myLayout'), '', slots));
    } catch {
      return say(t('client.editor.clash'));
    }
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = `${(name.replace(/[^A-Za-z0-9 _-]+/g, '').trim() || 'layout').slice(0, 40)}.layout`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  });

  dom.name.addEventListener('input', () => {
    state.draft = { ...state.draft, name: dom.name.value.slice(0, EDITOR_NAME_MAX) };
    draw(dom, view());
  });

  dom.grid.addEventListener('keydown', (e) => {
    if (!(e.target instanceof HTMLButtonElement) || e.target.dataset.cell === undefined) return;
    const step = e.shiftKey ? 2 : 1;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      focusCell(state.focus.x + move[0], state.focus.y + move[1]);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      focusCell(e.key === 'Home' ? 0 : gridOf(state.draft.slots).width - 1, state.focus.y);
    }
  });
  dom.grid.addEventListener('focusin', (e) => {
    const cell = e.target instanceof HTMLElement ? e.target.dataset.cell : undefined;
    if (cell === undefined) return;
    const [x, y] = cell.split(',').map(Number) as [number, number];
    if (x !== state.focus.x || y !== state.focus.y) {
      state.focus = { x, y };
      draw(dom, view());
    }
  });

  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
    if (typing || e.altKey) return;
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && key === 'z' && !e.shiftKey) {
      e.preventDefault();
      undo();
    } else if ((e.ctrlKey || e.metaKey) && (key === 'y' || (key === 'z' && e.shiftKey))) {
      e.preventDefault();
      redo();
    } else if (e.key === 'PageUp' || e.key === 'PageDown') {
      e.preventDefault();
      layer(e.key === 'PageUp' ? 1 : -1);
    }
  });

  // --- pinch: two fingers zoom around their middle
  let pinch: { spread: number; tile: number } | null = null;
  const spread = (t: TouchList): number => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
  dom.view.addEventListener(
    'touchstart',
    (e) => {
      if (e.touches.length === 2) pinch = { spread: Math.max(1, spread(e.touches)), tile: state.zoom ?? fitTile() };
    },
    { passive: true },
  );
  dom.view.addEventListener(
    'touchmove',
    (e) => {
      if (!pinch || e.touches.length !== 2) return;
      e.preventDefault();
      const t = e.touches;
      const at = { x: (t[0]!.clientX + t[1]!.clientX) / 2, y: (t[0]!.clientY + t[1]!.clientY) / 2 };
      zoomTo(clampZoom((pinch.tile * spread(t)) / pinch.spread, fitTile()), at);
    },
    { passive: false },
  );
  dom.view.addEventListener('touchend', (e) => {
    if (e.touches.length < 2) pinch = null;
  });
  new ResizeObserver(() => fit()).observe(dom.view);

  for (const hidden of dom.root.querySelectorAll<HTMLElement>('[data-needs-script]')) hidden.hidden = false;
  dom.root.dataset.live = '';
  redraw();
  check(state.draft);
  (globalThis as { __editor?: unknown }).__editor = { state: () => state };
}

const dom = findDom(document);
const data = readData(document);
if (dom && data) start(dom, data);
