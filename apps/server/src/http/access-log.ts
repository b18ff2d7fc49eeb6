import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

declare module 'node:http' {
  interface IncomingMessage {
    /** The app's logger, set by the operators' layer, for handlers that log (lines carry `reqId`). */
    log?: Logger;
  }
}

/**
 * One line per request when it has ended (its response's 'close'): info for 2xx/3xx, warn for
 * 4xx, error for 5xx, and warn when the client went away first. No headers or bodies are
 * logged, and query values only when they are numbers, so nothing personal reaches the log.
 * `started` is the request's `performance.now()` when it arrived (the operators' layer).
 *
 * It replaces pino-http, which built a child logger and serialised every request whether or
 * not its level was on: a fifth of the server's CPU per request at LOG_LEVEL=warn (bench/).
 * Here a request costs nothing until a line is actually written.
 */
export function logRequestEnd(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  started: number,
): void {
  const aborted = !res.writableFinished;
  const status = res.statusCode;
  const level = status >= 500 ? 'error' : status >= 400 || aborted ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      reqId: req.headers['x-request-id'],
      req: {
        method: req.method,
        // `originalUrl`: a mount (/trpc) shortens `url`.
        url: withoutQueryValues((req as { originalUrl?: string }).originalUrl ?? req.url ?? ''),
        remoteAddress: req.socket.remoteAddress,
      },
      res: { statusCode: status },
      responseTime: Math.round(performance.now() - started),
    },
    aborted ? 'request aborted' : 'request completed',
  );
}

/**
 * The URL with each query value replaced, but numbers (page, limit): a query may carry an
 * e-mail address or a search for a person's name, which the log must not keep.
 */
export function withoutQueryValues(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const [key = '', value] = pair.split('=', 2);
      return value === undefined || /^\d{1,9}$/.test(value) ? pair : `${key}=…`;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}
