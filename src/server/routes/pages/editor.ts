/**
 * The layout editor: GET /layouts/editor works without script (every cell a submit button), the `.layout`
 * download, and POST /layouts/editor to save (docs/http.md, "The layout editor").
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
const MINUTE = 60_000;

/** Pairs the page's own "can this be cleared?" may try: a bound on a page's cost. */
export const PAGE_CHECK_BUDGET = 20_000;

/** Drafts an address may ask for a minute (an edit without script is two requests). */
const EDITOR_LIMIT = { max: 240, timeWindow: MINUTE } as const;

/** Main-thread ms by the draft's tiles (docs/operations.md, "CPU budgets"). */
export const EDITOR_COST = { pageMs: 3, pagePerTileMs: 0.04, editMs: 0.5, editPerTileMs: 0.002 } as const;
const pageCostMs = (tiles: number): number => EDITOR_COST.pageMs + tiles * EDITOR_COST.pagePerTileMs;
const editCostMs = (tiles: number): number => EDITOR_COST.editMs + tiles * EDITOR_COST.editPerTileMs;
/** A code's tiles from its length (four characters a tile). */
const tilesOfCode = (code: string | undefined): number => Math.ceil((code?.length ?? 0) / 4);

const SAVE_BODY_LIMIT = 16 * 1024; // bytes: a 1,000-tile draft is 4,000 characters

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

/** A typed name made safe to show ('' stays ''). */
const draftName = (raw: string | undefined): string => (raw === undefined || raw.trim() === '' ? '' : cleanName(raw));

const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?…]$/.test(s) ? '' : '.'}`;

const fileName = (name: string): string => (name.replace(/[^A-Za-z0-9 _-]+/g, '').trim() || 'layout').slice(0, 40);

interface PageState {
  readonly error?: string; // in the player's language
  readonly detail?: string; // English detail, where it helps
}

function renderEditor(reply: FastifyReply, status: number, draft: Draft, state: PageState = {}): FastifyReply {
  const i18n = reply.request.i18n;
  const { slots, z } = draft;
  const grid = gridOf(slots);
  const geom = slots.length > 0 ? makeGeometry(slots) : undefined;
  const check = checkDraft(slots, PAGE_CHECK_BUDGET, geom);
  const clash = overlapping(slots);
  const tiles = slots
    .map((s, i) => ({ ...s, clash: clash.has(i) }))
    .map((s) => ({ ...s, kind: s.z > z ? 'above' : s.z === z ? 'on' : s.z === z - 1 ? 'ghost' : 'below' }))
    .sort((a, b) => (a.kind === 'above' ? 1 : 0) - (b.kind === 'above' ? 1 : 0)); // outlines on top
  // Each covered cell of layer z marked once, not searched per cell.
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
    editor: true,
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
  if (go === 'name') return { ok: true, draft }; // Enter in the name field: just the new name
  return null;
}

export default async function pagesEditor(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** Charges the editor's work; true when refused (the page is sent). */
  const spent = async (request: FastifyRequest, reply: FastifyReply, ms: number): Promise<boolean> => {
    const refusal = await fastify.cpuBudget.charge(clientKey(request.ip), ms, 'editor');
    if (refusal) sendRefusal(request, reply, refusal);
    return refusal !== undefined;
  };
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
        const name = builtin ? builtinName(builtin, request.i18n) : layout.name;
        const opened = draftOf(layout.slots, name);
        if (!opened) return render(reply, 400, EMPTY_DRAFT, { error: request.i18n.t('editor.tooLarge', { name }) });
        return reply.redirect(`${EDITOR_PATH}${draftQuery(opened)}`, 303);
      }
      // Charged by the code's length before it is read.
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
      // An odd count or unclearable shape is still a file; overlapping tiles are not.
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
      config: { rateLimit: LIMITS.uploadLayout },
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
        name: typed.name || request.i18n.t('client.editor.myLayout'),
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
