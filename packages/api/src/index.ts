export { appRouter, type AppRouter } from './root';
export { createCallerFactory, type Context, type Meta } from './trpc';
export { toHttpError, errorBodySchema, type ErrorBody } from './errors';
export { buildOpenApiDocument } from './openapi';
export { matchRestRoute, restRoutes, type RestRoute } from './rest-routes';
export { staticListRoutes, type StaticListRoute } from './students/static-lists';
