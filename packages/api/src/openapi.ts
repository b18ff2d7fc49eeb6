import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { createDocument } from 'zod-openapi';
import { errorBodySchema } from './errors';
import { appRouter } from './root';
import { conventionComponents, documentConventions } from './openapi-conventions';
import { restRoutes } from './routes';
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
  });
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
    schemas: { ...doc.components?.schemas, Error: errorComponent },
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
    }
  }
  Object.assign((doc.paths ??= {}), hostPaths);
  // Drop the generator's own error components, now unreferenced.
  for (const name of Object.keys(doc.components.schemas ?? {})) {
    if (name.startsWith('error.')) delete doc.components.schemas![name];
  }
  return doc;
}
