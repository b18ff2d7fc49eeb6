import type { IncomingMessage } from 'node:http';
import type { Context } from '@campus/api';
import type { Services } from '@campus/core';

export type CreateContext = (req: IncomingMessage) => Context;

/** The same context for REST and /trpc: the services and the request's credentials. */
export const contextFactory =
  (services: Services, track?: () => () => void): CreateContext =>
  (req) => ({ services, authorization: req.headers.authorization, ...(track ? { track } : {}) });

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
