import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import {
  allowedMethods,
  isDecodablePath,
  matchRestRoute,
  resolveLocation,
  RETRY_AFTER_UNAVAILABLE_S,
  toHttpError,
  type Context,
  type RestRoute,
} from '@campus/api';
import { AppError, badRequest } from '@campus/core';
import type { Logger } from 'pino';
import { setRouteLabel } from '../metrics';
import type { CreateContext } from './context';
import { pathOf, sendJson, type NodeHandler } from './front';
import { beginIdempotentCall, type IdempotentCall } from './idempotency';
import { writeEventStream } from './sse';

/**
 * The REST adapter: every procedure with trpc-to-openapi meta, served at its documented method
 * and path (trailing slash optional). It calls the procedure directly with the request's
 * context, so tRPC's middleware and zod validation run exactly as over /trpc; the success status
 * (201/204) comes from the procedure's meta and every failure goes through `toHttpError`.
 *
 * It replaces trpc-to-openapi's own handler, which (3.3.0) rewrote the shared zod schemas to
 * coerce every number in JSON bodies, answered errors in a format of its own, and built a
 * caller and a Fetch Request per request. The routes and the OpenAPI document still come from
 * the same meta, and its route policy (rate limits, language) runs inside the procedure.
 *
 * Input: path parameters over the query string (GET, DELETE) or over the JSON body (POST,
 * PATCH, PUT). Empty query values are dropped, so `?busca=` means no filter.
 */
export function createRestHandler(
  createContext: CreateContext,
  logger: Logger,
  options: { heartbeatMs?: number | undefined } = {},
): NodeHandler {
  return (req, res, next) => {
    const path = pathOf(req);
    if (!isDecodablePath(path)) {
      next(badRequest('Caminho com codificação inválida (percent-encoding de UTF-8)'));
      return;
    }
    const method = req.method ?? 'GET';
    const found = matchRestRoute(method, path);
    if (!found) return methodNotAllowed(req, res, next);
    const { route, params } = found;
    setRouteLabel(req, route.path);

    let input: unknown;
    if (route.rest.takesInput) {
      const source =
        method === 'GET' || method === 'HEAD' || (method === 'DELETE' && !route.meta.bodyOnDelete)
          ? queryOf(req)
          : (req as { body?: unknown }).body;
      input =
        source === undefined ||
        (typeof source === 'object' && source !== null && !Array.isArray(source))
          ? { ...(source as object | undefined), ...params }
          : source; // an array or a scalar body: the schema refuses it with a 400
    }

    const ctx = createContext(req, res, 'rest');
    if (route.type === 'subscription') {
      // A reconnecting EventSource says where it stopped; the stream resumes after it.
      const lastEventId = req.headers['last-event-id'];
      if (typeof lastEventId === 'string' && input && typeof input === 'object') {
        input = { ...input, lastEventId };
      }
      stream({ req, res, route, input, ctx, logger }, options.heartbeatMs).catch(next);
      return;
    }
    serve({ req, res, route, input, ctx, logger }).catch(next);
  };
}

/** One REST request matched to its route, with its input and context. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  route: RestRoute;
  input: unknown;
  ctx: Context;
  logger: Logger;
}

/** Calls the route's procedure directly, as tRPC's own adapters do, with the parsed input. */
const runProcedure = ({ route, input, ctx }: Exchange, signal?: AbortSignal) =>
  route.procedure({
    ctx,
    path: route.path,
    type: route.type,
    getRawInput: async () => input,
    signal,
    batchIndex: 0,
  });

/** What a 429 TOO_MANY_STREAMS asks the client to wait. */
const STREAM_RETRY_AFTER_S = 5;

/** Answers a failure with the REST error body; a 5xx is logged as `what`. */
function sendError({ req, res, route, logger }: Exchange, error: unknown, what: string) {
  const { status, body } = toHttpError(error);
  setErrorHeaders(res, status);
  // Too many open streams: one may close soon (a tab closed, a token expired).
  if (status === 429 && route.type === 'subscription') {
    res.setHeader('Retry-After', String(STREAM_RETRY_AFTER_S));
  }
  if (status >= 500) {
    logger.error({ err: error, procedure: route.path, reqId: req.headers['x-request-id'] }, what);
  }
  sendJson(res, status, body);
}

/** Runs the procedure and writes its answer; a create with an `Idempotency-Key` is claimed first. */
async function serve(exchange: Exchange) {
  const { req, res, route, input, ctx } = exchange;
  const fail = (error: unknown) => sendError(exchange, error, 'request failed');

  let call: IdempotentCall;
  try {
    call = await beginIdempotentCall(req, res, route, input, ctx);
  } catch (error) {
    return fail(error);
  }
  if (call.kind === 'answered') return;
  if (call.kind === 'refused') return fail(call.error);

  let data: unknown;
  try {
    data = await runProcedure(exchange);
  } catch (error) {
    if (call.kind === 'first') await call.abort().catch(() => {});
    return fail(error);
  }
  if (call.kind === 'first') await call.finish(route.rest.successStatus, data);
  if (route.rest.successStatus === 204) {
    res.statusCode = 204;
    res.end();
    return;
  }
  const location = route.meta.location && resolveLocation(route.meta.location, input, data);
  if (location) res.setHeader('Location', location);
  // Written directly: no ETag, no freshness check (Express's `send` would re-derive both).
  // A document of its own media type (a calendar file) is sent as the procedure answered it.
  const { contentType } = route.meta;
  const body = Buffer.from(contentType ? String(data) : JSON.stringify(data));
  res.statusCode = route.rest.successStatus;
  res.setHeader('Content-Type', `${contentType ?? 'application/json'}; charset=utf-8`);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A live stream over REST: errors before it starts are ordinary JSON errors. */
async function stream(exchange: Exchange, heartbeatMs: number | undefined) {
  const { res } = exchange;
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  let events: AsyncIterable<unknown>;
  try {
    events = (await runProcedure(exchange, controller.signal)) as AsyncIterable<unknown>;
  } catch (error) {
    controller.abort();
    sendError(exchange, error, 'stream failed');
    return;
  }
  await writeEventStream(res, events, controller, heartbeatMs);
}

/** The query string as Express 5's default ("simple") parser reads it: node:querystring. */
function queryOf(req: IncomingMessage): Record<string, unknown> {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  const query: Record<string, unknown> = {};
  if (at < 0) return query;
  for (const [key, value] of Object.entries(parseQuery(url.slice(at + 1)))) {
    if (value !== '' && value !== undefined) query[key] = value;
  }
  return query;
}

/** A 401 names the scheme it wants (RFC 9110 §11.6.1); a 503 says when to retry. */
export function setErrorHeaders(res: ServerResponse, status: number) {
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_S));
}

/**
 * A documented path asked with a method it does not serve: 405 with `Allow` (OPTIONS: 204 with
 * `Allow`, when CORS has not answered it as a preflight). An unknown path goes on to the 404.
 */
function methodNotAllowed(
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) {
  const path = pathOf(req);
  const allowed = allowedMethods(path);
  if (allowed.length === 0) return next();
  res.setHeader('Allow', [...allowed, 'OPTIONS'].join(', '));
  if (req.method === 'OPTIONS') {
    res.statusCode = 204;
    res.end();
    return;
  }
  const { status, body } = toHttpError(
    new AppError(
      'METHOD_NOT_SUPPORTED',
      `Método ${req.method} não aceito em ${path}; use ${allowed.join(', ')}`,
    ),
  );
  sendJson(res, status, body);
}
