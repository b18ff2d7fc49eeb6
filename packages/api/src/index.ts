export { appRouter, type AppRouter } from './root';
export {
  createCallerFactory,
  rateLimitHeaders,
  rateLimitedError,
  type Context,
  type Meta,
  type RateLimitClass,
  type RateLimitDecision,
  type RoutePolicy,
} from './trpc';
export { toHttpError, errorBodySchema, RETRY_AFTER_UNAVAILABLE_S, type ErrorBody } from './errors';
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
  type RestRoute,
  type Route,
} from './routes';
export { claimIdempotencyKey, malformedKey, type IdempotencyClaim } from './idempotency';
export { setOutputCheck, type OutputCheck } from './output-check';
