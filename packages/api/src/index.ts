export { appRouter, type AppRouter } from './root';
export {
  createCallerFactory,
  rateLimitHeaders,
  rateLimitedError,
  SSE,
  type Context,
  type Meta,
  type RateLimitClass,
  type RateLimitDecision,
  type RoutePolicy,
} from './trpc';
export {
  errorBodySchema,
  errorHeaders,
  RETRY_AFTER_UNAVAILABLE_S,
  serverBusy,
  toHttpError,
  type ErrorBody,
} from './errors';
export { buildOpenApiDocument } from './openapi';
export {
  allowedMethods,
  isDecodablePath,
  matchRestRoute,
  procedurePaths,
  resolveLocation,
  restRouteMatcher,
  restRoutes,
  routes,
  type RestBinding,
  type RestMatch,
  type RestRoute,
  type Route,
} from './routes';
export { setOutputCheck, type OutputCheck } from './output-check';
