import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { countRequest } from '../metrics';
import { logRequestEnd } from './access-log';
import { assignRequestId } from './request-id';
import { securityHeaders } from './security-headers';

/**
 * The operators' per-request work, first for every request: its request id, helmet's headers,
 * `req.log`, and when its response closes, the metrics (if it finished) and the access log line.
 * One Express layer, one clock reading and one 'close' listener, not four middlewares each with
 * its own: every layer is a router step and every listener an allocation, on the cheapest
 * answers (a static list) a visible share of their CPU (docs/decisions.md, "Operations").
 */
export function operators(logger: Logger): RequestHandler {
  const setSecurityHeaders = securityHeaders();
  return function operatorsLayer(req, res, next) {
    const started = performance.now();
    assignRequestId(req, res);
    setSecurityHeaders(res);
    req.log = logger;
    // 'close' comes once, after 'finish' when the response was sent in full (`on`, not `once`,
    // which wraps the listener in another).
    res.on('close', () => {
      if (res.writableFinished) countRequest(req, res, started);
      logRequestEnd(logger, req, res, started);
    });
    next();
  };
}
