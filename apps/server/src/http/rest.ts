import {
  allowedMethods,
  matchRestRoute,
  resolveLocation,
  type Context,
  type RestMatch,
  type RestRoute,
} from '@campus/api';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { setRouteLabel } from '../metrics';
import type { CreateContext } from './context';
import { methodNotAllowed, requireDecodablePath, sendError } from './errors';
import { jsonBody, requireJsonBody } from './json-body';
import { receiveUpload } from './uploads';
import { writeEventStream } from './sse';

declare module 'node:http' {
  interface IncomingMessage {
    /** The documented operation this request asked for (set by the REST router's first step). */
    restMatch?: RestMatch;
  }
}

/**
 * The REST adapter: one Express router for every procedure with trpc-to-openapi meta, at its
 * documented method and path (trailing slash optional), matched by the route list's one matcher
 * (packages/api/src/routes.ts: a literal segment wins over a parameter). Only those paths enter
 * its pipeline (no-store, JSON body, the call); a documented path with another method is a 405;
 * any other path leaves the router (`next('router')`) for the web app and the 404.
 *
 * The call goes straight to the procedure with the request's context, so tRPC's middleware and
 * zod validation run exactly as over /trpc; the success status (201/204) comes from the
 * procedure's meta and every failure goes through `toHttpError`. It replaces trpc-to-openapi's
 * own handler, which (3.3.0) rewrote the shared zod schemas to coerce every number in JSON
 * bodies and answered errors in a format of its own.
 *
 * Input: path parameters over the query string (GET, DELETE) or over the JSON body (POST,
 * PATCH, PUT). Empty query values are dropped, so `?busca=` means no filter.
 */
export function restRouter(
  createContext: CreateContext,
  logger: Logger,
  options: { heartbeatMs?: number | undefined } = {},
): Router {
  const router = Router();
  router.use(
    requireDecodablePath,
    function documentedOperation(req, res, next) {
      const found = matchRestRoute(req.method, req.path);
      if (found) {
        req.restMatch = found;
        setRouteLabel(req, found.route.path);
        // API answers carry tokens and personal data: no cache keeps them.
        res.setHeader('Cache-Control', 'no-store');
        return next();
      }
      const allowed = allowedMethods(req.path);
      if (allowed.length === 0) return next('router');
      res.setHeader('Cache-Control', 'no-store');
      methodNotAllowed(req, res, allowed);
    },
    receiveUpload((req) => req.restMatch?.route.meta.upload === true),
    requireJsonBody,
    jsonBody,
    restCall(createContext, logger, options.heartbeatMs),
  );
  return router;
}

/** Reads the matched operation's input, then calls it (a stream for a subscription). */
function restCall(
  createContext: CreateContext,
  logger: Logger,
  heartbeatMs: number | undefined,
): RequestHandler {
  return function callOperation(req, res, next) {
    const { route, params } = req.restMatch!;
    let input: unknown;
    if (route.rest.takesInput) {
      const fromQuery =
        req.method === 'GET' ||
        req.method === 'HEAD' ||
        (req.method === 'DELETE' && !route.meta.bodyOnDelete);
      const source = fromQuery ? queryOf(req) : (req.body as unknown);
      input =
        source === undefined ||
        (typeof source === 'object' && source !== null && !Array.isArray(source))
          ? { ...(source as object | undefined), ...params }
          : source; // an array or a scalar body: the schema refuses it with a 400
    }
    const ctx = createContext(req, res, 'rest');
    const exchange = { req, res, route, input, ctx, logger };
    if (route.type !== 'subscription') return void serve(exchange).catch(next);
    // A reconnecting EventSource says where it stopped; the stream resumes after it.
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && input && typeof input === 'object')
      exchange.input = { ...input, lastEventId };
    stream(exchange, heartbeatMs).catch(next);
  };
}

/** One REST request matched to its route, with its input and context. */
interface Exchange {
  req: Request;
  res: Response;
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

/** Answers a failure with the REST error body; a 5xx is logged as `what`. */
function fail({ req, res, route, logger }: Exchange, error: unknown, what: string) {
  sendError(res, error);
  if (res.statusCode >= 500)
    logger.error({ err: error, procedure: route.path, reqId: req.headers['x-request-id'] }, what);
}

/** Runs the procedure and writes its answer (a replayed create's answer too: same status, same Location). */
async function serve(exchange: Exchange) {
  const { res, route, input } = exchange;
  let data: unknown;
  try {
    data = await runProcedure(exchange);
  } catch (error) {
    return fail(exchange, error, 'request failed');
  }
  const { createdFlag } = route.meta;
  const existed = createdFlag && (data as Record<string, unknown>)[createdFlag] === false;
  res.status(existed ? 200 : route.rest.successStatus);
  if (route.rest.successStatus === 204) return void res.end();
  const location =
    !existed && route.meta.location && resolveLocation(route.meta.location, input, data);
  if (location) res.setHeader('Location', location);
  // A document of its own media type (a calendar file) is sent as the procedure answered it.
  const { contentType } = route.meta;
  if (contentType) res.type(contentType).send(String(data));
  else res.json(data);
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
    fail(exchange, error, 'stream failed');
    return;
  }
  await writeEventStream(res, events, controller, heartbeatMs);
}

/** `req.query` (Express's "simple" parser, node:querystring) without its empty values. */
function queryOf(req: Request): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (value !== '' && value !== undefined) query[key] = value;
  }
  return query;
}
