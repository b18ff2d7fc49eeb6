import {
  appRouter,
  errorHeaders,
  routes,
  setOutputCheck,
  toHttpError,
  type OutputCheck,
} from '@campus/api';
import type { Services } from '@campus/core';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { contextFactory, type ContextOptions } from './http/context';
import { docsRouter } from './http/docs';
import {
  errorHandler,
  malformedTarget,
  notFoundHandler,
  requireDecodablePath,
  trpcRequestErrorHandler,
} from './http/errors';
import { HOST_PATHS } from './http/host-paths';
import { BODY_LIMIT_BYTES, requireJsonBody, trpcJsonBody } from './http/json-body';
import { operators } from './http/operators';
import { probesRouter } from './http/probes';
import { restRouter } from './http/rest';
import { mediaFilesRouter } from './http/media-files';
import { receiveUpload } from './http/uploads';
import { staticLists } from './http/static-lists';
import { webApp } from './http/web';
import { setRouteLabel, trpcRouteLabel } from './metrics';
import { globalRateLimit, type RateLimits } from './rate-limit/middleware';
import type { PasswordWork } from './http/password-work';
import type { Tracing } from './tracing';

export interface AppOptions {
  services: Services;
  logger: Logger;
  /** Answers whether the database is reachable, for /ready. */
  ping: () => Promise<boolean>;
  /** Whether the process is stopping, for /ready (start.ts: from SIGTERM on). */
  stopping?: () => boolean;
  corsOrigins?: string[];
  /** Per-address limits (docs/contract/protocol.md); absent → no limits (RATE_LIMIT=off, most tests). */
  rateLimits?: RateLimits;
  /** Express's "trust proxy", so that req.ip is the client behind a known proxy. */
  trustProxy?: boolean | number | string;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** A procedure call not finished within this is answered 503; absent → no bound. */
  requestTimeoutMs?: number;
  /** Whether that deadline calls the call's database work back (core's `asyncContextIsCheap`). */
  deadlineCallsBackWork?: boolean;
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
  /** Spans per request, procedure call and SQL statement; absent → tracing off. */
  tracing?: Tracing;
  /** The bound on password hashing (docs/operations.md, "Password checks"); absent → none. */
  passwordWork?: PasswordWork;
  /** Whether the database can be reached (core's `databaseHealth`); absent → not checked. */
  database?: ContextOptions['database'];
}

/** The most calls one /trpc batch may hold (docs/contract/protocol.md); larger batches → 400. */
export const MAX_BATCH_SIZE = 10;

/** Response headers a browser script on an allowed origin may read (docs/contract/protocol.md). */
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

/** The /trpc paths of the upload procedures (multipart bodies, `receiveUpload`). */
const uploadProcedures = new Set(routes.filter((r) => r.meta.upload).map((r) => r.path));

const PROBE_PATHS = [HOST_PATHS.health, HOST_PATHS.ready, HOST_PATHS.metrics];
const DOCS_PATHS = [HOST_PATHS.openapi, HOST_PATHS.docs];

/**
 * `handler` for requests at one of `paths` or below it (any case, as Express routes match);
 * anything else goes straight on, without walking the router's routes (a path match each).
 */
function onlyUnder(paths: readonly string[], handler: RequestHandler): RequestHandler {
  const hostPaths: RequestHandler = (req, res, next) => {
    const path = req.path.toLowerCase();
    const mine = paths.some((p) => path === p || (path.startsWith(p) && path[p.length] === '/'));
    if (mine) handler(req, res, next);
    else next();
  };
  // A router's routes stay visible to what walks the app's layers (the inventory test).
  return Object.assign(hostPaths, { stack: (handler as { stack?: unknown }).stack });
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** A /trpc request's metrics label: its procedure, or `trpc:batch` (the path below the mount). */
const labelTrpc: RequestHandler = (req, _res, next) => {
  setRouteLabel(req, trpcRouteLabel(req.path.slice(1)));
  next();
};

/** The tRPC adapter at /trpc: the same procedures, context and policies as the REST router. */
function trpcHandler(createContext: ReturnType<typeof contextFactory>, logger: Logger) {
  return createExpressMiddleware({
    router: appRouter,
    createContext: ({ req, res }) => createContext(req, res, 'trpc'),
    maxBodySize: BODY_LIMIT_BYTES,
    maxBatchSize: MAX_BATCH_SIZE,
    // The headers a failure asks for, as the REST router sets them (`errorHeaders`).
    responseMeta: ({ errors }) => ({
      headers: Object.assign(
        {},
        ...errors.map((error) => {
          const { status, body } = toHttpError(error);
          return errorHeaders(status, body.reason);
        }),
      ) as Record<string, string>,
    }),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        logger.error({ err: error, path }, 'trpc request failed');
    },
  });
}

/**
 * The server's one request handler: an Express app (`http.createServer(app)` or `app.listen`).
 * In order: the operators' middlewares (request id, metrics, access log, security headers,
 * CORS); /trpc; the per-address ceiling for everything else; the static lists from memory; the
 * probes and the docs; the REST router (documented operations only); the web app; the 404.
 */
export function createApp({
  services,
  logger,
  ping,
  stopping,
  corsOrigins = [],
  rateLimits,
  trustProxy = false,
  metricsToken,
  track,
  webRoot,
  requestTimeoutMs,
  deadlineCallsBackWork,
  streamHeartbeatMs,
  outputCheck = { mode: 'off' },
  tracing,
  passwordWork,
  database,
}: AppOptions): Express {
  setOutputCheck(routes, outputCheck);
  const createContext = contextFactory({
    services,
    logger,
    rateLimits,
    track,
    requestTimeoutMs,
    deadlineCallsBackWork,
    tracing,
    passwordWork,
    database,
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxy);

  if (tracing) app.use(tracing.requests);
  app.use(operators(logger));
  // No origin allowed (the default): `cors` would set nothing and answer no preflight, at a
  // visible cost per request, so it is not mounted at all.
  if (corsOrigins.length)
    app.use(
      cors({ origin: corsOrigins, exposedHeaders: CORS_EXPOSED_HEADERS, maxAge: CORS_MAX_AGE_S }),
    );

  // tRPC: every call, batched or not, is rate-limited by its procedure (route policy in its meta).
  // Bodies are parsed exactly as for REST (JSON, UTF-8, 100 kB), then handed to tRPC as `req.body`.
  // One router: a request elsewhere passes one path match here, not one per step.
  const trpc = express.Router();
  trpc.use(
    requireDecodablePath,
    labelTrpc,
    noStore,
    receiveUpload((req) => uploadProcedures.has(req.path.slice(1))),
    requireJsonBody,
    trpcJsonBody,
    trpcHandler(createContext, logger),
    trpcRequestErrorHandler,
  );
  app.use(HOST_PATHS.trpc, trpc);

  // Everything else passes the per-address ceiling here, once per request.
  if (rateLimits) app.use(globalRateLimit(rateLimits.global, logger));
  app.use(staticLists);
  app.use(onlyUnder(PROBE_PATHS, probesRouter({ ping, stopping, metricsToken })));
  app.use(onlyUnder(DOCS_PATHS, docsRouter()));
  app.use(mediaFilesRouter(services.media));
  app.use(restRouter(createContext, logger, { heartbeatMs: streamHeartbeatMs }));
  app.use(webApp(webRoot));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return answeringMalformedTargets(app);
}

/**
 * The app, with the one request its router never sees answered in the error format: a target
 * that does not parse (`GET http://[::1/post`) makes Express's router give up before the first
 * middleware and call the final handler, whose own answer is an HTML 404. Called as a server's
 * handler (`app(req, res)`), the app gets `malformedTarget` as that final handler instead; every
 * property (`listen`, `use`, …) is the app's own.
 */
function answeringMalformedTargets(app: Express): Express {
  return new Proxy(app, {
    apply: (target, thisArg, [req, res, next]: Parameters<Express>) =>
      Reflect.apply(target, thisArg, [req, res, next ?? malformedTarget(res)]),
  });
}
