import {
  rateLimitHeaders,
  rateLimitedError,
  type RateLimitClass,
  type RateLimitDecision,
} from '@campus/api';
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { sendError } from '../http/errors';
import { countRefusal } from '../metrics';
import type { Limiter } from './limiter';

/**
 * The key a client is counted under: an IPv4 address as is (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address by its /64 prefix, since one subscriber is usually given a whole /64
 * and could otherwise rotate through 2^64 addresses.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  // `req.ip` is a valid address (from the socket, or parsed by Express's trust-proxy handling).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::1.2.3.4`) sits in the low 64 bits: it does not change the prefix.
  const groups = address.includes('::')
    ? [
        ...headGroups,
        ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'),
        ...tailGroups,
      ]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

export interface RateLimits {
  global: Limiter;
  auth: Limiter;
  /** Password checks per account (keyed by the procedure); absent → not limited. */
  account?: Limiter;
  /** Refreshes per refresh token (keyed by the procedure); absent → not limited. */
  refresh?: Limiter;
}

/**
 * A limiter as procedures see it (`Context.rateLimit`): one hit per call, under the client's key.
 * `countsGlobal` is false where the host's `globalRateLimit` has already counted the request
 * (REST). A store failure lets the call through and is logged: the limits protect the service,
 * they must not take it down with the store.
 */
export function procedureRateLimit(
  limits: RateLimits,
  client: string,
  countsGlobal: boolean,
  log: Logger,
): (limit: RateLimitClass, key?: string) => Promise<RateLimitDecision | undefined> {
  return async (limit, key) => {
    if (limit === 'global' && !countsGlobal) return undefined;
    const limiter = limits[limit];
    if (!limiter) return undefined;
    try {
      return await limiter.hit(key ?? client);
    } catch (error) {
      log.warn({ err: error, limit }, 'rate limit store unavailable; request allowed');
      return undefined;
    }
  };
}

/**
 * The per-address ceiling on every request that does not reach a procedure through /trpc (those
 * are counted per call by the procedures' own middleware, batches included): the REST
 * operations, the static lists, the probes, the docs and the web app. The client is `req.ip`
 * (Express's `trust proxy` setting decides whether X-Forwarded-For counts).
 */
export function globalRateLimit(limiter: Limiter, log: Logger): RequestHandler {
  return function globalCeiling(req, res, next) {
    const allowOnFailure = (error: unknown) => {
      log.warn(
        { err: error, reqId: req.headers['x-request-id'] },
        'rate limit store unavailable; request allowed',
      );
      next();
    };
    const decide = (decision: RateLimitDecision) =>
      decision.allowed ? next() : refuse(res, decision);
    let decision: ReturnType<Limiter['hit']>;
    try {
      decision = limiter.hit(clientKey(req.ip));
    } catch (error) {
      return allowOnFailure(error);
    }
    // The batched limiter decides at once; the exact one after its round trip.
    if (decision instanceof Promise) decision.then(decide, allowOnFailure);
    else decide(decision);
  };
}

function refuse(res: Response, decision: RateLimitDecision) {
  res.set(rateLimitHeaders(decision));
  // Refused before any procedure is matched: no procedure to name.
  countRefusal('global', '');
  sendError(res, rateLimitedError('global'));
}
