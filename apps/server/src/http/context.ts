import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '@campus/api';
import type { Services } from '@campus/core';
import type { Logger } from 'pino';
import { clientKey, procedureRateLimit, type RateLimits } from '../rate-limit/middleware';

/** REST requests have passed the host's global limit already; /trpc calls count it per call. */
export type Transport = 'rest' | 'trpc';

export type CreateContext = (
  req: IncomingMessage,
  res: ServerResponse,
  transport: Transport,
) => Context;

export interface ContextOptions {
  services: Services;
  logger: Logger;
  /** Absent → no limits (RATE_LIMIT=off, most tests). */
  rateLimits?: RateLimits | undefined;
  track?: (() => () => void) | undefined;
  /** See `AppOptions.requestTimeoutMs`. */
  requestTimeoutMs?: number | undefined;
  /** The client's address as Express's `req.ip` gives it (trust proxy), REST and /trpc alike. */
  addressOf: (req: IncomingMessage) => string | undefined;
}

/** The same context for REST and /trpc: the services, the request's credentials and the host's hooks. */
export const contextFactory =
  ({
    services,
    logger,
    rateLimits,
    track,
    requestTimeoutMs,
    addressOf,
  }: ContextOptions): CreateContext =>
  (req, res, transport) => ({
    services,
    authorization: req.headers.authorization,
    setHeader: (name, value) => {
      if (!res.headersSent) res.setHeader(name, value);
    },
    ...(rateLimits
      ? {
          rateLimit: procedureRateLimit(
            rateLimits,
            clientKey(addressOf(req)),
            transport === 'trpc',
            logger,
          ),
        }
      : {}),
    ...(track ? { track } : {}),
    ...(requestTimeoutMs ? { deadlineMs: requestTimeoutMs } : {}),
    // Over /trpc the procedure claims it (packages/api's trpc.ts); REST claims it itself.
    ...(transport === 'trpc' && typeof req.headers['idempotency-key'] === 'string'
      ? { idempotencyKey: req.headers['idempotency-key'] }
      : {}),
  });

/**
 * Counts procedure calls in flight, so shutdown can wait for them even when their client has
 * already gone (its socket closed, the handler still running against the database).
 */
export function inFlightTracker() {
  let running = 0;
  const waiters: Array<() => void> = [];
  return {
    track: () => {
      running++;
      let finished = false;
      return () => {
        if (finished) return;
        finished = true;
        running--;
        if (running === 0) waiters.splice(0).forEach((resolve) => resolve());
      };
    },
    idle: () => new Promise<void>((resolve) => (running === 0 ? resolve() : waiters.push(resolve))),
  };
}
