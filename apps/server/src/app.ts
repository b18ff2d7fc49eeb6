import { appRouter } from '@campus/api';
import type { Services } from '@campus/core';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { accessLog } from './http/access-log';
import { contextFactory } from './http/context';
import { docsRouter } from './http/docs';
import { errorHandler, notFoundHandler, requireJsonBody } from './http/errors';
import { requestId } from './http/request-id';
import { metricsHandler, metricsMiddleware } from './metrics';
import { createRestHandler } from './http/rest';
import { staticListsRouter } from './http/static-lists';
import { webApp } from './http/web';
import type { Limiter } from './rate-limit/limiter';
import { isAuthRoute, rateLimit } from './rate-limit/middleware';

export interface AppOptions {
  services: Services;
  logger: Logger;
  /** Answers whether the database is reachable, for /ready. */
  ping: () => Promise<boolean>;
  corsOrigins?: string[];
  /** Per-address limits (decisions.md §10); absent → no limits (RATE_LIMIT=off, most tests). */
  rateLimits?: { global: Limiter; auth: Limiter };
  /** Express's "trust proxy", so that req.ip is the client behind a known proxy. */
  trustProxy?: boolean | number | string;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** Counts procedure calls in flight (graceful shutdown). */
  track?: () => () => void;
  /** The built web app to serve at `/` (see `findWebRoot`); absent → the API only. */
  webRoot?: string;
}

/** The Express app, apart from `listen` so tests can drive it on port 0. */
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
}: AppOptions): Express {
  const createContext = contextFactory(services, track);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxy);

  app.use(requestId);
  app.use(metricsMiddleware);
  app.use(accessLog(logger));
  app.use(helmet());
  app.use(cors({ origin: corsOrigins.length ? corsOrigins : false, exposedHeaders: ['x-request-id'] }));

  if (rateLimits) {
    app.use(rateLimit(rateLimits.global));
    app.use(rateLimit(rateLimits.auth, isAuthRoute));
  }

  // The static lists are answered from memory with their own caching (ETag, public): before the
  // no-store default and the body parsing they never need.
  app.use(staticListsRouter());

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const ok = await ping();
    res.status(ok ? 200 : 503).json(ok ? { status: 'ready' } : { code: 'SERVICE_UNAVAILABLE', message: 'Banco de dados indisponível' });
  });
  app.get('/metrics', (req, res, next) => {
    if (metricsToken && req.headers.authorization !== `Bearer ${metricsToken}`) {
      res.status(401).json({ code: 'UNAUTHORIZED', message: 'Token de métricas ausente ou inválido' });
      return;
    }
    metricsHandler(req, res, next);
  });
  app.use(docsRouter());

  // API answers carry tokens and personal data: no cache keeps them unless a route says so
  // (the static helper lists set their own public caching).
  app.use(function noStore(_req, res, next) {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req }) => createContext(req),
      maxBodySize: 100 * 1024,
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error, path }, 'trpc request failed');
      },
    }),
  );

  app.use(requireJsonBody);
  app.use(express.json({ limit: '100kb', type: ['application/json', 'application/*+json'] }));
  app.use(createRestHandler(createContext, logger));
  app.use(webApp(webRoot));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
