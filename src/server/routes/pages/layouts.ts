/**
 * Your own layouts (docs/contracts.md, "Pages"):
 * - GET /layouts/new: the upload form (a file, and for a GNOME .map the map's name).
 * - POST /layouts (multipart: `file`, optional `name`): reads, checks and stores the layout
 *   (services/custom-layouts.ts), then 303 to its page. A bad file re-shows the form with the
 *   reason: 400 (413 past MAX_UPLOAD_BYTES; 429/503 past the budget of new layouts).
 * - GET /layouts/:id: a custom layout's page: picture, tiles, who may play it, new games.
 * - GET /api/layouts/:id: a layout's slots as JSON, built in or custom: everything a browser needs to
 *   deal it itself with the engine (offline play).
 * Multipart is parsed only here: the plugin is registered in this route plugin's own context.
 */
import multipart, { type MultipartFile, type MultipartValue } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newDealUrl } from '../../../shared/display.ts';
import { CODE_OF_STATUS, ERROR_STATUS, errorPage, errorResponses, type ErrorCode } from '../../errors.ts';
import { LayoutSlotsSchema } from '../../../shared/answers.ts';
import { LIMITS } from '../../plugins/security.ts';
import { LayoutIdSchema } from '../../schemas/common.ts';
import { clientKey } from '../../services/limits.ts';
import { MAP_NAME_MAX, MAX_UPLOAD_BYTES } from '../../services/upload.ts';
import { customName, customPicture } from '../../services/custom-layouts.ts';
import { layoutById } from '../../../engine/builtins.ts';
import { geometryOf } from '../../../engine/index.ts';
import { boardPreview, spreadFaces } from '../../view-models/head.ts';
import { sendMiss } from '../../services/misses.ts';
import { scriptData } from '../../view-models/script-json.ts';

interface FormState {
  error?: string; // why the file was refused (English: the page shows it in the player's language by its code)
  code?: ErrorCode; // the refusal's code; by the status when not given
  mapName?: string; // the map name that was sent, shown back (escaped)
}

const NO_FILE = 'choose a .layout or .map file to upload';

const KB = 1024;

const LayoutPageParamsSchema = z.object({ id: LayoutIdSchema });

/**
 * The upload form, with why the last file was refused: a sentence in the player's language for its code,
 * and, for a file we could not read as a layout, what exactly was wrong (the reader's English, marked so).
 */
function renderForm(request: FastifyRequest, reply: FastifyReply, status: number, form: FormState = {}): FastifyReply {
  const i18n = request.i18n;
  let error: { message: string; detail: string | null } | null = null;
  if (form.error === NO_FILE) error = { message: i18n.t('upload.noFile'), detail: null };
  else if (form.error !== undefined) {
    const code = form.code ?? CODE_OF_STATUS[status] ?? 'ERR_BAD_REQUEST';
    const page = errorPage(i18n, status, code, form.error, request.id);
    error = { message: page.message, detail: page.detail };
  }
  return reply.code(status).page('upload', {
    title: i18n.t('upload.title'),
    nav: 'play',
    form: { error, mapName: form.mapName ?? '' },
    maxKb: MAX_UPLOAD_BYTES / KB,
    mapNameMax: MAP_NAME_MAX,
  });
}

/** The form's file and map name; a refusal message for anything else. */
async function readForm(
  request: FastifyRequest,
): Promise<{ bytes: Buffer; filename: string; mapName: string } | { error: string; status: number; mapName: string }> {
  let file: { bytes: Buffer; filename: string } | undefined;
  let mapName = '';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const f = part as MultipartFile;
        if (f.fieldname !== 'file') {
          await f.toBuffer().catch(() => undefined); // drain it
          return {
            error: `unexpected file field ${JSON.stringify(f.fieldname.slice(0, 40))}; the layout goes in the field called file`,
            status: 400,
            mapName,
          };
        }
        file = { bytes: await f.toBuffer(), filename: f.filename ?? '' };
      } else {
        const v = part as MultipartValue;
        if (v.fieldname !== 'name') continue; // nothing else is read
        if (typeof v.value !== 'string' || v.valueTruncated || v.value.length > MAP_NAME_MAX)
          return { error: `a map name is at most ${MAP_NAME_MAX} characters`, status: 400, mapName: '' };
        mapName = v.value.trim();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      return {
        error: `the file is larger than ${MAX_UPLOAD_BYTES / KB} KB; a layout file is a few KB`,
        status: 413,
        mapName,
      };
    if (code === 'FST_FILES_LIMIT') return { error: 'send one file at a time', status: 413, mapName };
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      return { error: 'the form has too many fields; send the file and, for a .map, a map name', status: 413, mapName };
    // The parser's own errors (a cut-off or malformed body: "Unexpected end of multipart data") carry
    // no status; they are the client's. A 5xx stays ours.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === undefined || (status >= 400 && status < 500))
      return {
        error: 'the upload could not be read (the form data was cut off or malformed); send the form again',
        status: 400,
        mapName,
      };
    throw error;
  }
  if (!file) return { error: NO_FILE, status: 400, mapName };
  return { ...file, mapName };
}

export default async function pagesLayouts(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES, // bigger files stop here: 413 on the form
      files: 1,
      fields: 4,
      fieldSize: MAP_NAME_MAX * 4, // bytes of a field's value: a longer map name is refused
      parts: 6,
      headerPairs: 20,
    },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/layouts/new', async (request, reply) => renderForm(request, reply, 200));

  app.post('/layouts', { config: { rateLimit: LIMITS.uploadLayout } }, async (request, reply) => {
    if (!request.isMultipart())
      return renderForm(request, reply, 415, {
        error: 'send the layout from the upload form (multipart/form-data, the file in the field called file)',
      });
    const form = await readForm(request);
    if ('error' in form) return renderForm(request, reply, form.status, { error: form.error, mapName: form.mapName });
    const uploaded = await fastify.layouts.upload({ ...form, client: clientKey(request.ip) });
    if (!uploaded.ok) {
      if (uploaded.retryAfterS !== undefined) reply.header('retry-after', String(uploaded.retryAfterS));
      return renderForm(request, reply, ERROR_STATUS[uploaded.code], {
        error: uploaded.message,
        code: uploaded.code,
        mapName: form.mapName,
      });
    }
    request.log.info({ layout: uploaded.id, created: uploaded.created }, 'layout uploaded');
    return reply.redirect(`/layouts/${uploaded.id}`, 303);
  });

  app.get('/layouts/:id', { schema: { params: LayoutPageParamsSchema } }, async (request, reply) => {
    const { id } = request.params;
    const info = await fastify.layouts.custom(id);
    if (!info) {
      if (layoutById(id)) return reply.redirect(newDealUrl(id, 'relaxed'), 302); // a built-in has no page of its own: play it
      return sendMiss(
        request,
        reply,
        'ERR_UNKNOWN_LAYOUT',
        `there is no layout called ${id}; was the link copied whole?`,
      );
    }
    const path = `/layouts/${id}`;
    const name = customName(id, request.i18n); // never the uploader's words: anyone may store a shape first
    const geom = geometryOf(info.layout);
    return reply.page('custom-layout', {
      title: name,
      // The preview: the layout with its set of faces spread over it (no deal: a layout page has none).
      preview: geom.ok
        ? boardPreview(fastify.previews, fastify.publicOrigin, request.i18n, {
            title: name,
            path,
            layout: id,
            name,
            geom: geom.value,
            faces: spreadFaces(info.layout.slots.length),
          })
        : undefined,
      nav: 'play',
      layout: { ...info, name, picture: customPicture(info, request.i18n) },
      shareUrl: `${fastify.publicOrigin ?? ''}${path}`,
      newUrl: newDealUrl(id, 'relaxed'),
      classicUrl: newDealUrl(id, 'classic'),
      editUrl: `/layouts/editor?from=${id}`,
      layoutData: scriptData({ id, name, slots: info.layout.slots.map((s) => [s.x, s.y, s.z]) }),
    });
  });

  app.get(
    '/api/layouts/:id',
    {
      schema: { params: LayoutPageParamsSchema, response: { 200: LayoutSlotsSchema, ...errorResponses() } },
      config: { player: false },
    },
    async (request, reply) => {
      const { id } = request.params;
      const builtin = layoutById(id);
      const info = builtin ? undefined : await fastify.layouts.custom(id);
      const layout = builtin ?? info?.layout;
      if (!layout) return sendMiss(request, reply, 'ERR_UNKNOWN_LAYOUT', `there is no layout called ${id}`);
      // A custom layout never changes under its id (ids are by content); a built-in may in a new version.
      return reply
        .header('cache-control', builtin ? 'public, max-age=300' : 'public, max-age=86400')
        .send({ id, name: layout.name, tiles: layout.slots.length, slots: layout.slots.map((s) => [s.x, s.y, s.z]) });
    },
  );
}
