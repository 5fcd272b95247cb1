/** `GET /api/openapi.json`, from the routes' zod schemas (docs/http.md, "The API description"). */
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../errors.ts';
import { COMPONENTS } from '../schemas/components.ts';
import { preSerialized } from '../schemas/responses.ts';

export const isApiRoute = (url: string): boolean => url.startsWith('/api/') || url === '/healthz';

export const OPENAPI_URL = '/api/openapi.json';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const DESCRIPTION = `The JSON API of the Mahjong solitaire server. Every refusal is \`{"error", "code"}\` with a \
stable \`ERR_…\` code (the ApiError schema); 429 and some 503 answers carry \`Retry-After\`. A player is \
anonymous: a signed cookie made by the first GET that needs one (\`mj_player\`, \`__Host-mj_player\` over \
https). POSTs need that cookie and must come from the site's own origin. Rules, limits and codes: the project's \
README.md and docs/server.md.`;

const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

const componentsOf = createJsonSchemaTransformObject({ schemaRegistry: COMPONENTS });

const STATUS_TEXT: Readonly<Record<string, string>> = {
  200: 'OK',
  201: 'Created',
  400: 'A malformed request, or one that breaks its schema (the message says where)',
  403: 'Not yours, or a POST without the player cookie or from another site',
  404: 'Nothing at this address, or no such layout or game',
  409: 'Cannot be done now; the code says why',
  413: 'The body is too large',
  415: 'The API takes JSON bodies only',
  429: 'Too many requests, or a budget spent; Retry-After says when to try again',
  500: 'Our bug, logged under the request id the message quotes',
  503: 'Cannot answer now: busy, shutting down, or the database is away',
};

interface Document {
  paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }> | undefined>;
  components?: { schemas?: Record<string, unknown> };
}

/** Answers described by status; unused `…Input` schemas dropped. */
function finish<T extends object>(made: T): T {
  const document = made as Document;
  for (const path of Object.values(document.paths ?? {}))
    for (const operation of Object.values(path ?? {})) {
      const responses = operation.responses ?? {};
      for (const [status, response] of Object.entries(responses))
        if (response.description === 'Default Response') response.description = STATUS_TEXT[status] ?? status;
    }
  const schemas = document.components?.schemas;
  if (!schemas) return made;
  const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const used = Object.entries(schemas).filter(([id]) => text.includes(`"#/components/schemas/${id}"`));
  return { ...made, components: { ...document.components, schemas: Object.fromEntries(used) } };
}

export interface OpenApiOptions {
  publicOrigin?: string;
}

async function openapiPlugin(fastify: FastifyInstance, opts: OpenApiOptions): Promise<void> {
  const fromZod = createJsonSchemaTransform({ schemaRegistry: COMPONENTS, skipList: [] });
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Mahjong solitaire', version: VERSION, description: DESCRIPTION },
      ...(opts.publicOrigin ? { servers: [{ url: opts.publicOrigin }] } : {}),
      components: {
        securitySchemes: {
          player: {
            type: 'apiKey',
            in: 'cookie',
            name: 'mj_player',
            description: 'The anonymous player, signed by the server (`__Host-mj_player` over https)',
          },
        },
      },
    },
    transform(document) {
      if (!isApiRoute(document.url)) return { schema: { hide: true }, url: document.url };
      const transformed = fromZod(document);
      const method = document.route.method;
      const writes = (Array.isArray(method) ? method : [method]).includes('POST');
      return writes ? { ...transformed, schema: { ...transformed.schema, security: [{ player: [] }] } } : transformed;
    },
    transformObject: (document) => finish(componentsOf(document)),
  });

  let text: string | undefined; // made at the first request
  fastify.get(
    OPENAPI_URL,
    {
      schema: {
        summary: 'This document',
        response: { 200: OpenApiDocumentSchema, ...errorResponses() },
      },
      config: { player: false },
    },
    async (_request, reply) => {
      text ??= JSON.stringify(fastify.swagger());
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(preSerialized(text));
    },
  );
}

export default fp(openapiPlugin, { name: 'openapi' });
