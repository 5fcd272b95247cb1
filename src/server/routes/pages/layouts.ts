/**
 * Your own layouts: the upload form and POST /layouts, a custom layout's page and rename, and GET
 * /api/layouts/:id for offline play (docs/contracts.md, "Pages"). Multipart is parsed only in this context.
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
import { MAP_NAME_MAX, MAX_UPLOAD_BYTES, NAME_MAX, typedName } from '../../services/upload.ts';
import { customName, customPicture, type CustomLayoutInfo } from '../../services/custom-layouts.ts';
import { layoutById } from '../../../engine/builtins.ts';
import { geometryOf } from '../../../engine/index.ts';
import { boardPreview, spreadFaces } from '../../view-models/head.ts';
import { sendMiss } from '../../services/misses.ts';
import { scriptData } from '../../view-models/script-json.ts';

interface FormState {
  error?: string; // English; the page shows the code's sentence
  code?: ErrorCode;
  mapName?: string;
  title?: string;
}

const NO_FILE = 'choose a .layout or .map file to upload';
const NO_LAYOUT = 'a .desktop file only names the KMahjongg .layout beside it: choose the .layout too';
const TWO_LAYOUTS = 'send one layout file at a time (for a KMahjongg .layout, its .desktop may come beside it)';

const isDesktop = (filename: string): boolean => /\.desktop$/i.test(filename);

interface UploadForm {
  bytes: Buffer;
  filename: string;
  desktop?: Buffer;
  mapName: string;
  title: string;
}

type FormError = { error: string; status: number; code?: ErrorCode; mapName: string; title: string };

const KB = 1024;

const LayoutPageParamsSchema = z.object({ id: LayoutIdSchema });
const RenameSchema = z.object({
  name: z
    .string()
    .max(NAME_MAX * 4)
    .default(''),
});

/** The upload form, with the last refusal (and the reader's English detail). */
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
    form: { error, mapName: form.mapName ?? '', title: form.title ?? '' },
    maxKb: MAX_UPLOAD_BYTES / KB,
    mapNameMax: MAP_NAME_MAX,
    nameMax: NAME_MAX,
  });
}

async function readForm(request: FastifyRequest): Promise<UploadForm | FormError> {
  const files: { bytes: Buffer; filename: string }[] = [];
  let mapName = '';
  let title = '';
  const refuse = (error: string, status: number, code?: ErrorCode): FormError => ({
    error,
    status,
    code,
    mapName,
    title,
  });
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const f = part as MultipartFile;
        if (f.fieldname !== 'file') {
          await f.toBuffer().catch(() => undefined);
          return refuse(
            `unexpected file field ${JSON.stringify(f.fieldname.slice(0, 40))}; the layout goes in the field called file`,
            400,
          );
        }
        files.push({ bytes: await f.toBuffer(), filename: f.filename ?? '' });
      } else {
        const v = part as MultipartValue;
        if (v.fieldname === 'name') {
          if (typeof v.value !== 'string' || v.valueTruncated || v.value.length > MAP_NAME_MAX)
            return { error: `a map name is at most ${MAP_NAME_MAX} characters`, status: 400, mapName: '', title };
          mapName = v.value.trim();
        } else if (v.fieldname === 'title') {
          const typed = typeof v.value === 'string' && !v.valueTruncated ? typedName(v.value) : undefined;
          if (!typed?.ok)
            return {
              error: typed?.message ?? `a layout's name is at most ${NAME_MAX} characters`,
              status: 400,
              code: 'ERR_LAYOUT_NAME',
              mapName,
              title: '',
            };
          title = typed.name;
        }
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      return refuse(`the file is larger than ${MAX_UPLOAD_BYTES / KB} KB; a layout file is a few KB`, 413);
    if (code === 'FST_FILES_LIMIT') return refuse(TWO_LAYOUTS, 413);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      return refuse('the form has too many fields; send the file, a map name for a .map, and a name', 413);
    // The parser's own errors carry no status: they are the client's.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === undefined || (status >= 400 && status < 500))
      return refuse('the upload could not be read (the form data was cut off or malformed); send the form again', 400);
    throw error;
  }
  // A .layout may come with its .desktop.
  const desktops = files.filter((f) => isDesktop(f.filename));
  const layouts = files.filter((f) => !isDesktop(f.filename) && (f.filename !== '' || f.bytes.length > 0));
  if (layouts.length > 1 || desktops.length > 1) return refuse(TWO_LAYOUTS, 400);
  const layout = layouts[0];
  if (!layout) return desktops.length > 0 ? refuse(NO_LAYOUT, 400, 'ERR_LAYOUT') : refuse(NO_FILE, 400);
  return { ...layout, desktop: desktops[0]?.bytes, mapName, title };
}

/** The layout's page, named as the viewer named it, else neutrally. */
async function renderLayoutPage(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  info: CustomLayoutInfo,
  status = 200,
  rename: { error?: { message: string; detail: string | null }; value?: string } = {},
): Promise<FastifyReply> {
  const id = info.id;
  const i18n = request.i18n;
  const path = `/layouts/${id}`;
  const neutral = customName(id, i18n); // never another player's words
  const own = request.isNewPlayer ? undefined : await fastify.layouts.ownName(request.playerId, id);
  const name = own ?? neutral;
  const geom = geometryOf(info.layout);
  return reply.code(status).page('custom-layout', {
    title: name,
    // Shared and cached for everyone: always the neutral name.
    preview: geom.ok
      ? boardPreview(fastify.previews, fastify.publicOrigin, request.i18n, {
          title: neutral,
          path,
          layout: id,
          name: neutral,
          geom: geom.value,
          faces: spreadFaces(info.layout.slots.length),
        })
      : undefined,
    nav: 'play',
    layout: { ...info, name, picture: customPicture(info, i18n, name) },
    own: own !== undefined && {
      neutral,
      value: rename.value ?? own,
      error: rename.error ?? null,
      action: `${path}/name`,
    },
    nameMax: NAME_MAX,
    shareUrl: `${fastify.publicOrigin ?? ''}${path}`,
    newUrl: newDealUrl(id, 'relaxed'),
    classicUrl: newDealUrl(id, 'classic'),
    editUrl: `/layouts/editor?from=${id}`,
    layoutData: scriptData({ id, name, slots: info.layout.slots.map((s) => [s.x, s.y, s.z]) }),
  });
}

export default async function pagesLayouts(fastify: FastifyInstance): Promise<void> {
  await fastify.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
      files: 2,
      fields: 4,
      fieldSize: MAP_NAME_MAX * 4,
      parts: 7,
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
    if ('error' in form) return renderForm(request, reply, form.status, form);
    const uploaded = await fastify.layouts.upload({
      bytes: form.bytes,
      filename: form.filename,
      mapName: form.mapName,
      desktop: form.desktop && { bytes: form.desktop, lang: request.i18n.lang },
      title: form.title,
      playerId: request.playerId,
      client: clientKey(request.ip),
    });
    if (!uploaded.ok) {
      if (uploaded.retryAfterS !== undefined) reply.header('retry-after', String(uploaded.retryAfterS));
      return renderForm(request, reply, ERROR_STATUS[uploaded.code], {
        error: uploaded.message,
        code: uploaded.code,
        mapName: form.mapName,
        title: form.title,
      });
    }
    request.log.info({ layout: uploaded.id, created: uploaded.created }, 'layout uploaded');
    return reply.redirect(`/layouts/${uploaded.id}`, 303);
  });

  app.get('/layouts/:id', { schema: { params: LayoutPageParamsSchema } }, async (request, reply) => {
    const { id } = request.params;
    const info = await fastify.layouts.custom(id);
    if (!info) {
      if (layoutById(id)) return reply.redirect(newDealUrl(id, 'relaxed'), 302); // a built-in has no page: play it
      return sendMiss(
        request,
        reply,
        'ERR_UNKNOWN_LAYOUT',
        `there is no layout called ${id}; was the link copied whole?`,
      );
    }
    return renderLayoutPage(fastify, request, reply, info);
  });

  app.post(
    '/layouts/:id/name',
    {
      schema: { params: LayoutPageParamsSchema, body: RenameSchema },
      attachValidation: true,
      config: { rateLimit: LIMITS.uploadLayout },
    },
    async (request: FastifyRequest<{ Params: { id: string }; Body: z.infer<typeof RenameSchema> }>, reply) => {
      const info = LayoutIdSchema.safeParse(request.params.id).success
        ? await fastify.layouts.custom(request.params.id)
        : undefined;
      if (!info)
        return sendMiss(request, reply, 'ERR_UNKNOWN_LAYOUT', `there is no layout called ${request.params.id}`);
      const refuse = (status: number, code: ErrorCode, message: string, value?: string) =>
        renderLayoutPage(fastify, request, reply, info, status, {
          error: errorPage(request.i18n, status, code, message, request.id),
          value,
        });
      if (request.validationError)
        return refuse(400, 'ERR_LAYOUT_NAME', `a layout's name is at most ${NAME_MAX} characters`);
      const typed = typedName(request.body.name);
      if (!typed.ok) return refuse(400, 'ERR_LAYOUT_NAME', typed.message);
      if (typed.name === '')
        return refuse(400, 'ERR_LAYOUT_NAME', "type the layout's new name (at most 40 characters)");
      const refused = await fastify.layouts.rename(request.playerId, info.id, typed.name, clientKey(request.ip));
      if (refused) {
        if (refused.retryAfterS !== undefined) reply.header('retry-after', String(refused.retryAfterS));
        return refuse(ERROR_STATUS[refused.code], refused.code, refused.message, typed.name);
      }
      request.log.info({ layout: info.id }, 'layout renamed');
      return reply.redirect(`/layouts/${info.id}`, 303);
    },
  );

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
      // A custom layout never changes under its id; a built-in may.
      return reply
        .header('cache-control', builtin ? 'public, max-age=300' : 'public, max-age=86400')
        .send({ id, name: layout.name, tiles: layout.slots.length, slots: layout.slots.map((s) => [s.x, s.y, s.z]) });
    },
  );
}
