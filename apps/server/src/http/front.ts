import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { toHttpError } from '@campus/api';
import type { Express } from 'express';
import type { Logger } from 'pino';

/**
 * A connect-style middleware on Node's own request and response. Express runs these as they
 * are; the front below runs them without Express.
 */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** `handlers` one after the other as one handler; an error skips the rest. */
export function inSequence(handlers: readonly NodeHandler[]): NodeHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown) => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      return handler(req, res, step);
    };
    step();
  };
}

/**
 * The path of a request's URL, as Express's `req.path` gives it: the origin form (`/a/b?q`) up to
 * its query; of the absolute form a client may send (`http://host/a/b`), its path.
 */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url[0] !== '/') {
    try {
      return new URL(url).pathname;
    } catch {
      return url; // `*` (OPTIONS *): no path
    }
  }
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** Whether `path` is one of `prefixes` or below one, in any case (as Express mounts match). */
export function isUnder(prefixes: readonly string[], path: string): boolean {
  const lower = path.toLowerCase();
  return prefixes.some(
    (prefix) => lower === prefix || (lower.startsWith(prefix) && lower[prefix.length] === '/'),
  );
}

/** A JSON answer, written as Express's `res.status(status).json(body)` writes it. */
export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** What the server runs: a request listener with the Express app behind its front. */
export type App = RequestListener & {
  /** The Express app the front hands every request it does not answer to. */
  express: Express;
  /** The front's middlewares, in order (the inventory test lists them). */
  front: readonly NodeHandler[];
  /** As Express 5's `app.listen`: a listen error (a taken port) goes to the callback. */
  listen(port: number, host: string, callback: (error?: Error) => void): Server;
};

/**
 * The request listener: `front` (the operators' work that every answer carries, and the static
 * lists, answered from memory), then the Express app for everything the front did not answer.
 *
 * Express, for a request it serves, swaps the prototypes of the request and the response and
 * walks its router. For a constant from memory (the static lists) that was three quarters of
 * the server's CPU per answer (docs/decisions.md, "A front before Express"), and a constant
 * needs none of it. The front's middlewares use Node's API only.
 */
export function withFront(front: readonly NodeHandler[], express: Express, logger: Logger): App {
  const run = inSequence(front);
  const listener: RequestListener = (req, res) => {
    run(req, res, (error) => {
      if (error === undefined || error === null) return express(req, res);
      // None of the front's middlewares fails today; an answer in the error format if one does.
      logger.error({ err: error, reqId: req.headers['x-request-id'] }, 'request failed');
      const { status, body } = toHttpError(error);
      if (!res.headersSent) sendJson(res, status, body);
      else res.destroy();
    });
  };
  return Object.assign(listener, {
    express,
    front,
    listen(port: number, host: string, callback: (error?: Error) => void) {
      const server = createServer(listener);
      let called = false;
      const done = (error?: Error) => {
        if (called) return;
        called = true;
        callback(error);
      };
      server.once('error', done);
      return server.listen(port, host, () => done());
    },
  });
}
