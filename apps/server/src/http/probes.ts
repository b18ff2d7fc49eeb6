import type { OpenAPIObject } from 'trpc-to-openapi';
import { RETRY_AFTER_UNAVAILABLE_S } from '@campus/api';
import { Router } from 'express';
import { metricsHandler } from '../metrics';
import { methodNotAllowed } from './errors';
import { HOST_PATHS } from './host-paths';

export interface ProbeOptions {
  /** Answers whether the database is reachable. */
  ping: () => Promise<boolean>;
  /** Whether this process is stopping (SIGTERM): /ready says so, not a database fault. */
  stopping?: (() => boolean) | undefined;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
}

/**
 * `/health` (the process lives), `/ready` (the database answers and the process is not stopping)
 * and `/metrics` (Prometheus).
 */
export function probesRouter({ ping, stopping, metricsToken }: ProbeOptions): Router {
  const router = Router();
  router.get(HOST_PATHS.health, (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get(HOST_PATHS.ready, async (_req, res) => {
    // `ping` gives up within a second: a database that went away is reported, not waited on.
    const unready = stopping?.()
      ? 'Servidor encerrando; outra instância atende'
      : !(await ping()) && 'Banco de dados indisponível';
    if (!unready) return void res.json({ status: 'ready' });
    res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_S));
    res.status(503).json({ code: 'SERVICE_UNAVAILABLE', message: unready });
  });
  router.get(HOST_PATHS.metrics, (req, res, next) => {
    if (metricsToken && req.headers.authorization !== `Bearer ${metricsToken}`) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      res
        .status(401)
        .json({ code: 'UNAUTHORIZED', message: 'Token de métricas ausente ou inválido' });
      return;
    }
    metricsHandler(req, res, next);
  });
  const probes = new Set<string>([HOST_PATHS.health, HOST_PATHS.ready, HOST_PATHS.metrics]);
  router.use(function probeMethods(req, res, next) {
    if (!probes.has(req.path)) return next();
    methodNotAllowed(req, res, ['GET', 'HEAD']);
  });
  return router;
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Probes pass the global rate limit like every request. */
const tooManyRequests = {
  description: 'Too many requests from this client (`RATE_LIMITED`)',
  headers: {
    'Retry-After': { $ref: '#/components/headers/RetryAfter' },
    'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
    'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
    'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
  },
  content: errorContent,
};

const statusBody = (description: string, status: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { status: { type: 'string', const: status } },
        required: ['status'],
        additionalProperties: false,
      },
    },
  },
});

/** The probes in the OpenAPI document, so that nothing the server answers is unlisted. */
export const probePaths: NonNullable<OpenAPIObject['paths']> = {
  [HOST_PATHS.health]: {
    get: {
      operationId: 'getHealth',
      summary: 'The process is alive',
      tags: ['Operações'],
      security: [],
      responses: { '200': statusBody('The process is alive', 'ok'), '429': tooManyRequests },
    },
  },
  [HOST_PATHS.ready]: {
    get: {
      operationId: 'getReadiness',
      summary: 'The database answers',
      tags: ['Operações'],
      security: [],
      responses: {
        '200': statusBody('The database answers', 'ready'),
        '429': tooManyRequests,
        '503': {
          description: 'Database unavailable (`SERVICE_UNAVAILABLE`)',
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          content: errorContent,
        },
      },
    },
  },
  [HOST_PATHS.metrics]: {
    get: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics (Bearer METRICS_TOKEN when configured)',
      tags: ['Operações'],
      security: [],
      responses: {
        '200': {
          description: 'Prometheus text format',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        '401': {
          description: 'METRICS_TOKEN is set and was not sent',
          headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
          content: errorContent,
        },
        '429': tooManyRequests,
      },
    },
  },
};
