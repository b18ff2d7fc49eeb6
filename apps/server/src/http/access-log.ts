import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'node:http' {
  interface IncomingMessage {
    /** The app's logger, set by `accessLog`, for handlers that log (lines carry `reqId`). */
    log?: Logger;
  }
}

/**
 * One line per request when it ends: info for 2xx/3xx, warn for 4xx, error for 5xx, and warn
 * when the client went away first. No headers or bodies are logged, so nothing needs redacting.
 *
 * It replaces pino-http, which built a child logger and serialised every request whether or
 * not its level was on: a fifth of the server's CPU per request at LOG_LEVEL=warn (bench/).
 * Here a request costs a timestamp and a listener until a line is actually written.
 */
export function accessLog(logger: Logger): RequestHandler {
  return function logRequest(req, res, next) {
    const started = performance.now();
    req.log = logger;
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 || aborted ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: req.headers['x-request-id'],
          req: {
            method: req.method,
            url: req.originalUrl,
            remoteAddress: req.socket.remoteAddress,
          },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        },
        aborted ? 'request aborted' : 'request completed',
      );
    });
    next();
  };
}
