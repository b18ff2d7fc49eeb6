import type { Context } from '@campus/api';
import type { Services } from '@campus/core';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { clientKey, procedureRateLimit, type RateLimits } from '../rate-limit/middleware';
import { countRefusal } from '../metrics';
import type { Tracing } from '../tracing';
import type { PasswordWork } from './password-work';

/** REST requests have passed the host's global limit already; /trpc calls count it per call. */
export type Transport = 'rest' | 'trpc';

export type CreateContext = (req: Request, res: Response, transport: Transport) => Context;

export interface ContextOptions {
  services: Services;
  logger: Logger;
  /** Absent → no limits (RATE_LIMIT=off, most tests). */
  rateLimits?: RateLimits | undefined;
  track?: (() => () => void) | undefined;
  /** See `AppOptions.requestTimeoutMs`. */
  requestTimeoutMs?: number | undefined;
  deadlineCallsBackWork?: boolean | undefined;
  /** Absent → tracing off. */
  tracing?: Tracing | undefined;
  /** Whether the database can be reached (start.ts); absent → not checked (tests, PGlite). */
  database?: Context['database'] | undefined;
  /** The process's bound on password hashing; absent → unbounded (tests). */
  passwordWork?: PasswordWork | undefined;
}

/**
 * The same context for REST and /trpc: the services, the request's credentials and the host's
 * hooks. Built once per request (a /trpc batch shares it), with only the fields in use.
 */
export function contextFactory({
  services,
  logger,
  rateLimits,
  track,
  requestTimeoutMs,
  deadlineCallsBackWork,
  tracing,
  passwordWork,
  database,
}: ContextOptions): CreateContext {
  return (req, res, transport) => {
    const ctx: Context = {
      services,
      authorization: req.headers.authorization,
      setHeader: (name, value) => {
        if (!res.headersSent) res.setHeader(name, value);
      },
    };
    if (rateLimits)
      ctx.rateLimit = procedureRateLimit(
        rateLimits,
        clientKey(req.ip),
        transport === 'trpc',
        logger,
      );
    if (passwordWork) ctx.passwordWork = (work) => passwordWork.run(clientKey(req.ip), work);
    if (track) ctx.track = track;
    ctx.countRefusal = countRefusal;
    if (database) ctx.database = database;
    if (requestTimeoutMs) ctx.deadlineMs = requestTimeoutMs;
    if (deadlineCallsBackWork) ctx.deadlineCallsBackWork = true;
    if (tracing) ctx.traceCall = tracing.procedures(req, transport);
    // Claimed by the procedure, over either transport (packages/api's trpc.ts).
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string') ctx.idempotencyKey = key;
    if (req.upload) ctx.upload = req.upload;
    return ctx;
  };
}

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
