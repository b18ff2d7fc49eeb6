import type { IncomingMessage } from 'node:http';
import {
  appRouter,
  RETRY_AFTER_UNAVAILABLE_S,
  routes,
  setOutputCheck,
  type OutputCheck,
} from '@campus/api';
import type { Services } from '@campus/core';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import cors from 'cors';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { accessLog } from './http/access-log';
import { contextFactory } from './http/context';
import { docsRouter } from './http/docs';
import { inSequence, isUnder, pathOf, withFront, type App, type NodeHandler } from './http/front';
import {
  errorHandler,
  notFoundHandler,
  requireJsonBody,
  trpcRequestErrorHandler,
} from './http/errors';
import { requestId } from './http/request-id';
import { metricsMiddleware } from './metrics';
import { HOST_PATHS } from './http/host-paths';
import { probesRouter } from './http/probes';
import { createRestHandler } from './http/rest';
import { securityHeaders } from './http/security-headers';
import { staticListsHandler } from './http/static-lists';
import { webApp } from './http/web';
import { globalRateLimit, type RateLimits } from './rate-limit/middleware';

export interface AppOptions {
  services: Services;
  logger: Logger;
  /** Answers whether the database is reachable, for /ready. */
  ping: () => Promise<boolean>;
  corsOrigins?: string[];
  /** Per-address limits (decisions.md §10); absent → no limits (RATE_LIMIT=off, most tests). */
  rateLimits?: RateLimits;
  /** Express's "trust proxy", so that req.ip is the client behind a known proxy. */
  trustProxy?: boolean | number | string;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** A procedure call not finished within this is answered 503; absent → no bound. */
  requestTimeoutMs?: number;
  /** Counts procedure calls in flight (graceful shutdown). */
  track?: () => () => void;
  /** The built web app to serve at `/` (see `findWebRoot`); absent → the API only. */
  webRoot?: string;
  /** A comment line on idle REST event streams this often (default 15 s). */
  streamHeartbeatMs?: number;
  /**
   * What is checked of each answer against its output schema: nothing by default (production;
   * docs/decisions.md "Output validation"), `strict` in the test suites. Process-wide: the last
   * app created sets it.
   */
  outputCheck?: OutputCheck;
}

/** The most calls one /trpc batch may hold (extensions.md §F); larger batches → 400. */
export const MAX_BATCH_SIZE = 10;

export type { App };

/** Response headers a browser script on an allowed origin may read (extensions.md §F). */
const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'ETag',
  'Location',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Idempotent-Replayed',
];
/** How long a browser may reuse a preflight's answer. */
const CORS_MAX_AGE_S = 600;

/** The one JSON body parser, for REST and /trpc alike. */
const jsonBodyOptions = { limit: '100kb', type: ['application/json', 'application/*+json'] };
const jsonBody = express.json(jsonBodyOptions);

/**
 * /trpc bodies pass the same parser (media type, charset, size, Content-Encoding, syntax), and
 * tRPC then gets the body's text, not the parsed value: it would re-serialise an object with
 * JSON.stringify, which overflows the stack on a deeply nested body (a 500 instead of a 400).
 */
const trpcJsonBody: RequestHandler[] = [
  express.json({
    ...jsonBodyOptions,
    verify: (req, _res, raw) => {
      (req as { rawBody?: Buffer }).rawBody = raw;
    },
  }),
  function trpcBodyText(req, _res, next) {
    const raw = (req as { rawBody?: Buffer }).rawBody;
    if (raw) req.body = raw.toString('utf8');
    next();
  },
];

const PROBE_PATHS = [HOST_PATHS.health, HOST_PATHS.ready, HOST_PATHS.metrics];
const DOCS_PATHS = [HOST_PATHS.openapi, HOST_PATHS.docs];
const DOCS_AND_PROBES = [...PROBE_PATHS, ...DOCS_PATHS];
/** The paths the Express app serves itself: /trpc, the probes and the docs. */
const EXPRESS_OWN_PATHS = [HOST_PATHS.trpc, ...DOCS_AND_PROBES];

/**
 * `handler` for requests at one of `paths` or below it (any case, as Express routes match);
 * anything else goes straight on.
 */
function onlyUnder(paths: readonly string[], handler: RequestHandler): RequestHandler {
  const hostPaths: RequestHandler = (req, res, next) => {
    if (isUnder(paths, req.path)) handler(req, res, next);
    else next();
  };
  // A router's routes stay visible to what walks the app's layers (the inventory test).
  return Object.assign(hostPaths, { stack: (handler as { stack?: unknown }).stack });
}

const noStore: NodeHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * The server's request listener: the front (http/front.ts), then the Express app. Apart from
 * `listen`, so tests can drive it on port 0.
 */
export function createApp({
  services,
  logger,
  ping,
  corsOrigins = [],
  rateLimits,
  trustProxy = false,
  metricsToken,
  track,
  webRoot,
  requestTimeoutMs,
  streamHeartbeatMs,
  outputCheck = { mode: 'off' },
}: AppOptions): App {
  setOutputCheck(routes, outputCheck);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxy);
  // The client's address as `req.ip` gives it, for the front too (it runs before Express).
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
  const addressOf = (req: IncomingMessage) => proxyAddr(req, trust);
  const globalCeiling = rateLimits && globalRateLimit(rateLimits.global, logger, addressOf);
  const createContext = contextFactory({
    services,
    logger,
    rateLimits,
    track,
    requestTimeoutMs,
    addressOf,
  });

  // tRPC: every call, batched or not, is rate-limited by its procedure (route policy in its meta).
  // Bodies are parsed exactly as for REST (JSON, UTF-8, 100 kB), then handed to tRPC as `req.body`.
  app.use(
    HOST_PATHS.trpc,
    noStore,
    requireJsonBody,
    trpcJsonBody,
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(req, res, 'trpc'),
      maxBodySize: 100 * 1024,
      maxBatchSize: MAX_BATCH_SIZE,
      responseMeta: ({ errors }) => ({
        headers: {
          ...(errors.some((error) => error.code === 'UNAUTHORIZED')
            ? { 'WWW-Authenticate': 'Bearer' }
            : {}),
          ...(errors.some((error) => error.code === 'SERVICE_UNAVAILABLE')
            ? { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_S) }
            : {}),
        },
      }),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          logger.error({ err: error, path }, 'trpc request failed');
      },
    }),
    trpcRequestErrorHandler,
  );

  // The probes and the docs pass the global ceiling here (the API's requests in the front).
  // Their routers are entered only by their own paths: every other request would otherwise walk
  // their routes (a path match each).
  if (globalCeiling) app.use(onlyUnder(DOCS_AND_PROBES, globalCeiling));
  app.use(onlyUnder(PROBE_PATHS, probesRouter({ ping, metricsToken })));
  app.use(onlyUnder(DOCS_PATHS, docsRouter()));
  // What the REST adapter did not match (the front's `restApi`): the web app, then 404.
  app.use(webApp(webRoot));
  app.use(notFoundHandler);
  app.use(errorHandler);

  // The REST operations, in the front: Express has nothing to add to them but its cost.
  // API answers carry tokens and personal data: no cache keeps them unless a route says so
  // (the static lists set their own public caching).
  const restPipeline = inSequence([
    ...(globalCeiling ? [globalCeiling] : []),
    noStore,
    requireJsonBody,
    jsonBody,
    createRestHandler(createContext, logger, { heartbeatMs: streamHeartbeatMs }),
  ]);
  const rest: NodeHandler = function restApi(req, res, next) {
    if (isUnder(EXPRESS_OWN_PATHS, pathOf(req))) return next();
    restPipeline(req, res, (error) =>
      error === undefined || error === null ? next() : errorHandler(error, req, res),
    );
  };

  return withFront(
    [
      requestId,
      metricsMiddleware,
      accessLog(logger),
      securityHeaders(),
      // No origin allowed (the default): `cors` would set nothing and answer no preflight, at a
      // visible cost per request, so it is not run at all.
      ...(corsOrigins.length
        ? [
            cors({
              origin: corsOrigins,
              exposedHeaders: CORS_EXPOSED_HEADERS,
              maxAge: CORS_MAX_AGE_S,
            }),
          ]
        : []),
      staticListsHandler(globalCeiling),
      rest,
    ],
    app,
    logger,
  );
}
