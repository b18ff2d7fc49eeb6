import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { createDocument } from 'zod-openapi';
import { z } from 'zod';
import { errorBodySchema } from './errors';
import { appRouter } from './root';
import { finishResponses, conventionComponents, documentConventions } from './openapi-conventions';
import { restRoutes, type RestRoute } from './routes';
import { streamPaths } from './streams/openapi';
import type { Meta } from './trpc';

/** The error schema as an OpenAPI component, rendered by the same generator as the rest. */
const errorComponent = createDocument({
  openapi: '3.1.0',
  info: { title: '', version: '' },
  components: { schemas: { Error: errorBodySchema } },
}).components!.schemas!.Error!;

/**
 * The OpenAPI 3.1 document. trpc-to-openapi writes every success as 200 and its own error shape;
 * both are corrected here so the document says what the server does. `hostPaths`: what the
 * host serves beside the procedures (its probes), so that nothing it answers is unlisted.
 */
export function buildOpenApiDocument(
  baseUrl: string,
  hostPaths: OpenAPIObject['paths'] = {},
): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Campus API',
    description:
      'Feed, partidas, cadastro de estudantes, localidades, administração e exemplos. ' +
      'Os mesmos procedimentos atendem REST (aqui), tRPC em /trpc e este documento.',
    version: '1.0.0',
    baseUrl,
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    // Subscriptions are documented by `streamPaths` (the generator refuses them).
    filter: ({ metadata }) => !(metadata as Meta).sse,
  });
  const streams = streamPaths();
  Object.assign((doc.paths ??= {}), streams.paths);
  const byRoute = new Map<string, Meta>(
    restRoutes.map((route) => [
      `${route.rest.method.toLowerCase()} ${route.meta.openapi!.path}`,
      route.meta,
    ]),
  );
  doc.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  doc.components = {
    ...doc.components,
    ...conventionComponents,
    schemas: {
      ...doc.components?.schemas,
      // What only the streams' events name (the shared shapes are the generator's already).
      ...(Object.fromEntries(
        Object.entries(streams.schemas).filter(([name]) => !doc.components?.schemas?.[name]),
      ) as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>),
      Error: errorComponent,
    },
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const operation = item[method];
      if (!operation?.responses) continue;
      // Public operations say so explicitly (an empty requirement), rather than by omission.
      operation.security ??= [];
      const status = byRoute.get(`${method} ${path}`)?.successStatus;
      if (status) {
        const success = operation.responses['200'];
        delete operation.responses['200'];
        operation.responses[String(status)] =
          status === 204 ? { description: success?.description ?? 'No content' } : success;
        // An idempotent create answers 200 when it found the thing already there.
        const flag = byRoute.get(`${method} ${path}`)?.createdFlag;
        if (flag && success && 'content' in success)
          operation.responses['200'] = {
            ...success,
            description: `Already there (${flag}: false)`,
          };
      }
      // A document answered as is (the calendar files), not JSON.
      const contentType = byRoute.get(`${method} ${path}`)?.contentType;
      const answer = operation.responses[String(status ?? 200)];
      if (contentType && answer && 'content' in answer) {
        answer.content = { [contentType]: { schema: { type: 'string' } } };
      }
      // The generator shares one error object per status across operations (the first
      // description wins); each operation gets its own procedure's descriptions back.
      const declared = byRoute.get(`${method} ${path}`)?.openapi?.errorResponses;
      const described = (code: string): string | undefined =>
        declared && !Array.isArray(declared)
          ? (declared as Record<string, string>)[code]
          : undefined;
      for (const [code, response] of Object.entries(operation.responses)) {
        if (Number(code) < 400) continue;
        operation.responses[code] = {
          description: described(code) ?? response.description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
      }
      documentConventions(operation, method, byRoute.get(`${method} ${path}`));
      if (byRoute.get(`${method} ${path}`)?.upload) operation.requestBody = multipartBody;
    }
  }
  hostPaths = structuredClone(hostPaths);
  for (const item of Object.values(hostPaths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Parameters<typeof finishResponses>[0] })
        .responses;
      if (responses) finishResponses(responses, undefined);
    }
  }
  Object.assign((doc.paths ??= {}), hostPaths);
  deleteBodies(doc, restRoutes);
  requestExamples(doc, restRoutes);
  countsAreNotNegative(doc.components.schemas);
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item as Record<string, Json>))
      countsAreNotNegative(operation.responses);
  // Drop the generator's own error components, now unreferenced.
  for (const name of Object.keys(doc.components.schemas ?? {})) {
    if (name.startsWith('error.')) delete doc.components.schemas![name];
  }
  return doc;
}

type Json = Record<string, unknown>;

/** An upload's body (`upload` routes, docs/contract/media.md): the image and its description. */
const multipartBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        required: ['file'],
        properties: {
          file: {
            type: 'string' as const,
            format: 'binary',
            description: 'The image: JPEG, PNG or WebP (HEIC/AVIF where decodable), at most 10 MB',
          },
          alt: {
            type: 'string' as const,
            maxLength: 300,
            description: 'A description for screen readers (post photos only)',
          },
        },
      },
    },
  },
};

/**
 * A DELETE that takes its input as a JSON body (`bodyOnDelete`): the generator wrote the input
 * as query parameters; the document says what the server reads.
 */
function deleteBodies(doc: OpenAPIObject, routes: readonly RestRoute[]) {
  for (const route of routes) {
    if (!route.meta.bodyOnDelete) continue;
    const operation = doc.paths?.[route.meta.openapi!.path]?.delete as Json | undefined;
    const { input } = route;
    if (!operation || !input) continue;
    const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Json;
    delete schema.$schema;
    const fields = new Set(Object.keys((schema.properties as Json | undefined) ?? {}));
    operation.parameters = ((operation.parameters as Json[] | undefined) ?? []).filter(
      (p) => !(p.in === 'query' && fields.has(p.name as string)),
    );
    if ((operation.parameters as Json[]).length === 0) delete operation.parameters;
    operation.requestBody = { required: true, content: { 'application/json': { schema } } };
  }
}

/**
 * A request body's example is its input schema's first `.meta({ examples })` entry (set in core,
 * next to the schema), as the media type's `example`: what Swagger UI's "Try it out" sends.
 * Without one it made a body up from the constraints (dates in year 604). The
 * response-validation test sends every one of them.
 */
function requestExamples(doc: OpenAPIObject, routes: readonly RestRoute[]) {
  for (const route of routes) {
    const operation = doc.paths?.[route.meta.openapi!.path]?.[
      route.rest.method.toLowerCase() as 'post'
    ] as Json | undefined;
    const content = (operation?.requestBody as { content?: Record<string, Json> } | undefined)
      ?.content;
    for (const media of Object.values(content ?? {})) {
      const schema = media.schema as { examples?: unknown[] } | undefined;
      if (schema) delete schema.examples;
      if (route.rest.example) media.example = route.rest.example;
    }
  }
}

/**
 * zod writes `z.number().int()` as the whole safe-integer range, so Swagger UI showed counts of
 * -9007199254740991. Every integer this API answers is a count, a page, a size or a duration:
 * the document says so (minimum 0), and the response-validation test holds the server to it.
 */
function countsAreNotNegative(value: unknown) {
  if (Array.isArray(value)) return value.forEach(countsAreNotNegative);
  if (typeof value !== 'object' || value === null) return;
  const schema = value as Json;
  if (schema.type === 'integer' && schema.minimum === Number.MIN_SAFE_INTEGER) {
    schema.minimum = 0;
    if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  }
  for (const child of Object.values(schema)) countsAreNotNegative(child);
}
