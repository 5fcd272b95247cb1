/**
 * The layout editor:
 * - GET /layouts/editor[?layout=CODE&z=N&name=…]: the editor with a draft (src/shared/draft.ts), rendered
 *   whole by the server so that it works before any script: every cell of the grid is a submit button of
 *   one GET form. `cell=x,y` (a click on a cell), `go=up|down` (the layer) and `go=left|right|higher|lower`
 *   (moving every tile) change the draft and answer 303 to the draft's own address; `from=ID` opens a
 *   built-in or custom layout in the editor (303). The page's script does the same in the browser.
 * - GET /layouts/editor.layout?layout=CODE&name=…: the draft as a KMahjongg `.layout` file, to download.
 * - POST /layouts/editor (form: `layout`, `name`): saves the draft as a custom layout, as an upload would be
 *   (services/custom-layouts.ts `save`: the same checks, budgets and rate limit), named `name` for the saver
 *   alone ("My layout" in their language when empty), then 303 to its page; a
 *   refusal re-shows the editor with the draft and the reason (400, 429, 503). Like every POST it needs the
 *   player cookie and our own origin (plugins/player.ts).
 * Every one of them is charged to the client's CPU budget by its draft's size before the work (EDITOR_COST;
 * docs/operations.md, "CPU budgets"): reading and editing a draft first, drawing and checking a page before it
 * is rendered. Past the budget: the error page, 429 with Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { layoutById } from '../../../engine/builtins.ts';
import { LayoutError, MAX_LAYER, MAX_TILES, makeGeometry, makeLayout, validateSlots } from '../../../engine/index.ts';
import { makeKmahjongg } from '../../../formats/kmahjongg.ts';
import {
  EDITOR_NAME_MAX,
  EMPTY_DRAFT,
  MAX_CODE,
  cellsOf,
  changeLayer,
  checkDraft,
  draftOf,
  draftQuery,
  editMessage,
  gridOf,
  makeDraftCode,
  moveDraft,
  overlapping,
  parseDraftCode,
  pictureLabel,
  statusText,
  toggleCell,
  topLayerOf,
  type Draft,
  type DraftEdit,
} from '../../../shared/draft.ts';
import { layoutPicture } from '../../../shared/picture.ts';
import { ERROR_STATUS, errorPage, sendError, sendRefusal } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { LayoutIdSchema } from '../../schemas/common.ts';
import { builtinName, familyInfos } from '../../services/layouts.ts';
import { clientKey } from '../../services/limits.ts';
import { cleanName, typedName } from '../../services/upload.ts';
import { scriptData } from '../../view-models/script-json.ts';

const EDITOR_PATH = '/layouts/editor';
const MINUTE = 60_000; // ms

/**
 * Candidate pairs the page's own answer to "can this be cleared?" may try (the script asks its worker with
 * the full search): enough for any layout drawn by hand, and a bound on what a page costs the server.
 */
export const PAGE_CHECK_BUDGET = 20_000;

/**
 * Edits without script are page loads that parse, check and draw a draft of up to 1,000 tiles: a person
 * makes a few a second at most (each is two requests, the edit and its redirect), so an address may ask
 * for this many drafts a minute.
 */
const EDITOR_LIMIT = { max: 240, timeWindow: MINUTE } as const;

/**
 * The main thread's time the editor takes, in ms, by the draft's tiles: a page (its check's search, its picture,
 * its grid and 400 KB of HTML) measured at 23-36 ms of CPU for 1,000 tiles, 8-14 ms for 144; reading, editing
 * and writing a draft's code 1.3-2.5 ms for 1,000 tiles (docs/operations.md, "CPU budgets").
 */
export const EDITOR_COST = { pageMs: 3, pagePerTileMs: 0.04, editMs: 0.5, editPerTileMs: 0.002 } as const;
const pageCostMs = (tiles: number): number => EDITOR_COST.pageMs + tiles * EDITOR_COST.pagePerTileMs;
const editCostMs = (tiles: number): number => EDITOR_COST.editMs + tiles * EDITOR_COST.editPerTileMs;
/** The tiles of a draft's code, known from its length before it is read (four characters a tile). */
const tilesOfCode = (code: string | undefined): number => Math.ceil((code?.length ?? 0) / 4);

const SAVE_BODY_LIMIT = 16 * 1024; // bytes: a draft of 1,000 tiles is 4,000 characters, with its name and layer

const CELL = /^(\d{1,3}),(\d{1,3})$/;

const EditorQuerySchema = z.object({
  layout: z.string().max(MAX_CODE, `a layout here has at most ${MAX_TILES} tiles`).optional(),
  z: z.coerce.number().int().min(0).max(MAX_LAYER).optional(),
  name: z
    .string()
    .max(EDITOR_NAME_MAX * 4, `a name is at most ${EDITOR_NAME_MAX} characters`)
    .optional(),
  from: LayoutIdSchema.optional(),
  cell: z.string().regex(CELL, 'a cell is written x,y').optional(),
  go: z.enum(['up', 'down', 'left', 'right', 'higher', 'lower', 'name']).optional(),
});

const EditorSaveSchema = z.object({
  layout: z.string().max(MAX_CODE, `a layout has at most ${MAX_TILES} tiles`).default(''),
  name: z
    .string()
    .max(EDITOR_NAME_MAX * 4, `a name is at most ${EDITOR_NAME_MAX} characters`)
    .default(''),
  z: z.coerce.number().int().min(0).max(MAX_LAYER).optional(),
});

/** A draft's name as typed, made safe to show: '' stays '' (the default name is the save's to choose). */
const draftName = (raw: string | undefined): string => (raw === undefined || raw.trim() === '' ? '' : cleanName(raw));

/** A sentence from a message: capital first letter, full stop. */
const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?…]$/.test(s) ? '' : '.'}`;

/** A download's file name: the draft's name in safe characters, or `layout`. */
const fileName = (name: string): string => (name.replace(/[^A-Za-z0-9 _-]+/g, '').trim() || 'layout').slice(0, 40);

interface PageState {
  readonly error?: string; // why the last request was refused, in the player's language
  readonly detail?: string; // what exactly, in English, where it helps (an address or form we could not read)
}

function renderEditor(reply: FastifyReply, status: number, draft: Draft, state: PageState = {}): FastifyReply {
  const i18n = reply.request.i18n;
  const { slots, z } = draft;
  const grid = gridOf(slots);
  const geom = slots.length > 0 ? makeGeometry(slots) : undefined; // made once, for the check and the picture
  const check = checkDraft(slots, PAGE_CHECK_BUDGET, geom);
  const clash = overlapping(slots);
  const tiles = slots
    .map((s, i) => ({ ...s, clash: clash.has(i) }))
    .map((s) => ({ ...s, kind: s.z > z ? 'above' : s.z === z ? 'on' : s.z === z - 1 ? 'ghost' : 'below' }))
    .sort((a, b) => (a.kind === 'above' ? 1 : 0) - (b.kind === 'above' ? 1 : 0)); // outlines on top
  // The cells of layer z that a tile covers, marked once: not a search of every tile for every cell.
  const covered = new Uint8Array(grid.width * grid.height);
  for (const s of slots)
    if (s.z === z)
      for (const [x, y] of cellsOf(s)) if (x < grid.width && y < grid.height) covered[y * grid.width + x] = 1;
  const cells: { x: number; y: number; on: boolean }[] = [];
  for (let y = 0; y < grid.height; y++)
    for (let x = 0; x < grid.width; x++) cells.push({ x, y, on: covered[y * grid.width + x] === 1 });
  const perLayer: number[] = [];
  for (const s of slots) perLayer[s.z] = (perLayer[s.z] ?? 0) + 1;
  const top = topLayerOf(slots);
  const label = pictureLabel(i18n.t, draft.name, slots.length, Math.max(1, perLayer.length));
  return reply.code(status).page('editor', {
    title: i18n.t('editor.title'),
    nav: 'play',
    editor: true, // views/layout.eta: the editor's own style and script
    draft,
    code: makeDraftCode(slots),
    grid,
    cells,
    tiles,
    layers: Array.from({ length: Math.max(perLayer.length, z + 1) }, (_, k) => perLayer[k] ?? 0),
    canUp: z < top,
    canDown: z > 0,
    check: { ...check, text: statusText(i18n.t, slots.length, check, PAGE_CHECK_BUDGET) },
    picture: geom ? layoutPicture(geom, label) : '',
    downloadUrl: `${EDITOR_PATH}.layout${draftQuery({ ...draft, z: 0 })}`,
    families: familyInfos(i18n).map((f) => ({
      name: f.name,
      layouts: f.layouts.map((l) => ({ id: l.id, name: l.name })),
    })),
    error: state.error,
    detail: state.detail && sentence(state.detail),
    nameMax: EDITOR_NAME_MAX,
    data: scriptData({ query: draftQuery(draft), code: makeDraftCode(slots), z, name: draft.name }),
  });
}

/** The edit a GET asks for, if any (a cell, a layer, a move). */
function editOf(draft: Draft, cell: string | undefined, go: string | undefined): DraftEdit | null {
  if (cell !== undefined) {
    const [, x, y] = CELL.exec(cell)!;
    return toggleCell(draft, Number(x), Number(y));
  }
  if (go === 'up' || go === 'down') return { ok: true, draft: changeLayer(draft, go === 'up' ? 1 : -1) };
  if (go === 'left') return moveDraft(draft, -1, 0);
  if (go === 'right') return moveDraft(draft, 1, 0);
  if (go === 'higher') return moveDraft(draft, 0, -1);
  if (go === 'lower') return moveDraft(draft, 0, 1);
  if (go === 'name') return { ok: true, draft }; // the form sent by Enter in the name field: just the new name
  return null;
}

export default async function pagesEditor(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** Charges `ms` of the editor's work to the request's client; true when refused (the 429/503 page is sent). */
  const spent = async (request: FastifyRequest, reply: FastifyReply, ms: number): Promise<boolean> => {
    const refusal = await fastify.cpuBudget.charge(clientKey(request.ip), ms, 'editor');
    if (refusal) sendRefusal(request, reply, refusal);
    return refusal !== undefined;
  };
  /** renderEditor, charged first by the draft's tiles. */
  const render = async (reply: FastifyReply, status: number, draft: Draft, state?: PageState) =>
    (await spent(reply.request, reply, pageCostMs(draft.slots.length)))
      ? reply
      : renderEditor(reply, status, draft, state);

  app.get(
    EDITOR_PATH,
    { schema: { querystring: EditorQuerySchema }, attachValidation: true, config: { rateLimit: EDITOR_LIMIT } },
    async (request, reply) => {
      if (request.validationError)
        return render(reply, 400, EMPTY_DRAFT, {
          error: request.i18n.t('editor.badAddress'),
          detail: request.validationError.message,
        });
      const q = request.query;
      if (q.from !== undefined) {
        const builtin = layoutById(q.from);
        const layout = builtin ?? (await fastify.layouts.custom(q.from))?.layout;
        if (!layout)
          return sendError(request, reply, 'ERR_UNKNOWN_LAYOUT', `there is no layout called ${q.from} to open`);
        if (await spent(request, reply, editCostMs(layout.slots.length))) return reply;
        const name = builtin ? builtinName(builtin, request.i18n) : layout.name; // a built-in in the player's language
        const opened = draftOf(layout.slots, name);
        if (!opened) return render(reply, 400, EMPTY_DRAFT, { error: request.i18n.t('editor.tooLarge', { name }) });
        return reply.redirect(`${EDITOR_PATH}${draftQuery(opened)}`, 303);
      }
      // Charged by the code's length before it is read; the page, if one is drawn, before it is drawn.
      if (await spent(request, reply, editCostMs(tilesOfCode(q.layout)))) return reply;
      const parsed = q.layout === undefined ? { ok: true as const, slots: [] } : parseDraftCode(q.layout);
      if (!parsed.ok)
        return render(
          reply,
          400,
          { ...EMPTY_DRAFT, name: draftName(q.name) },
          { error: request.i18n.t('editor.badAddress'), detail: parsed.message },
        );
      const draft: Draft = {
        slots: parsed.slots,
        z: Math.min(q.z ?? 0, topLayerOf(parsed.slots)),
        name: draftName(q.name),
      };
      const edit = editOf(draft, q.cell, q.go);
      if (edit === null) return render(reply, 200, draft);
      if (!edit.ok) return render(reply, 409, draft, { error: editMessage(request.i18n.t, edit.reason) });
      return reply.redirect(`${EDITOR_PATH}${draftQuery(edit.draft)}`, 303);
    },
  );

  app.get(
    `${EDITOR_PATH}.layout`,
    {
      schema: { querystring: EditorQuerySchema.pick({ layout: true, name: true }) },
      config: { rateLimit: EDITOR_LIMIT },
    },
    async (request, reply) => {
      if (await spent(request, reply, editCostMs(tilesOfCode(request.query.layout)))) return reply;
      const parsed = parseDraftCode(request.query.layout ?? '');
      if (!parsed.ok) return sendError(request, reply, 'ERR_LAYOUT', parsed.message);
      const valid = validateSlots(parsed.slots);
      // An odd count or an unclearable shape is still a layout file; tiles sharing room are not.
      if (!valid.ok && valid.error !== LayoutError.Odd) return sendError(request, reply, 'ERR_LAYOUT', valid.message);
      const name = draftName(request.query.name) || request.i18n.t('client.editor.myLayout');
      const text = makeKmahjongg(makeLayout('draft', name, '', parsed.slots));
      const file = fileName(name);
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}.layout"`)
        .header('cache-control', 'no-store')
        .send(text);
    },
  );

  app.post(
    EDITOR_PATH,
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: { body: EditorSaveSchema },
      attachValidation: true,
      config: { rateLimit: LIMITS.uploadLayout }, // what an upload may: each may deal a layout once
    },
    async (request: FastifyRequest<{ Body: z.infer<typeof EditorSaveSchema> }>, reply) => {
      if (request.validationError)
        return render(reply, 400, EMPTY_DRAFT, {
          error: request.i18n.t('editor.badForm'),
          detail: request.validationError.message,
        });
      const body = request.body;
      if (await spent(request, reply, editCostMs(tilesOfCode(body.layout)))) return reply;
      const parsed = parseDraftCode(body.layout);
      if (!parsed.ok)
        return render(reply, 400, EMPTY_DRAFT, {
          error: request.i18n.t('editor.badForm'),
          detail: parsed.message,
        });
      const name = draftName(body.name);
      const draft: Draft = { slots: parsed.slots, z: Math.min(body.z ?? 0, topLayerOf(parsed.slots)), name };
      if (parsed.slots.length === 0) return render(reply, 400, draft, { error: request.i18n.t('editor.saveEmpty') });
      const typed = typedName(body.name);
      if (!typed.ok) {
        const page = errorPage(request.i18n, 400, 'ERR_LAYOUT_NAME', typed.message, request.id);
        return render(reply, 400, draft, { error: page.message, detail: page.detail ?? undefined });
      }
      const saved = await fastify.layouts.save({
        slots: parsed.slots,
        name: typed.name || request.i18n.t('client.editor.myLayout'), // the field's placeholder, the saver's own name
        typed: typed.name !== '',
        playerId: request.playerId,
        client: clientKey(request.ip),
      });
      if (!saved.ok) {
        if (saved.retryAfterS !== undefined) reply.header('retry-after', String(saved.retryAfterS));
        const page = errorPage(request.i18n, ERROR_STATUS[saved.code], saved.code, saved.message, request.id);
        return render(reply, ERROR_STATUS[saved.code], draft, {
          error: page.message,
          detail: page.detail ?? undefined,
        });
      }
      request.log.info({ layout: saved.id, created: saved.created }, 'layout saved from the editor');
      return reply.redirect(`/layouts/${saved.id}`, 303);
    },
  );
}
