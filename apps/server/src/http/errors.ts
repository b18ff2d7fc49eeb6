import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@campus/core';
import { toHttpError } from '@campus/api';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import typeIs from 'type-is';
import { sendJson, type NodeHandler } from './front';
import { setErrorHeaders } from './rest';

export const notFoundHandler: RequestHandler = (req, res) => {
  res
    .status(404)
    .json({ code: 'NOT_FOUND', message: `Rota não encontrada: ${req.method} ${req.path}` });
};

/**
 * What Express, its router and body-parser throw on a malformed request, as a client error:
 * a path with a bad percent-escape, a compressed body that does not inflate, a body cut short.
 */
export function requestError(error: unknown): AppError | undefined {
  const { type, status, code } = error as { type?: string; status?: unknown; code?: unknown };
  if (type === 'entity.parse.failed')
    return new AppError('BAD_REQUEST', 'JSON malformado no corpo da requisição');
  if (type === 'entity.too.large')
    return new AppError('PAYLOAD_TOO_LARGE', 'Corpo da requisição maior que 100 kB');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Codificação do corpo não suportada');
  }
  // zlib's own codes: the body says gzip/deflate/br and is not, or is truncated.
  if (typeof code === 'string' && /^Z_|^ERR_(ZLIB|BROTLI)/.test(code)) {
    return new AppError(
      'BAD_REQUEST',
      'Corpo comprimido inválido ou incompleto (Content-Encoding)',
    );
  }
  if (error instanceof URIError)
    return new AppError('BAD_REQUEST', 'Caminho com codificação percentual inválida');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(
      status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status === 415
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : 'BAD_REQUEST',
      'Requisição malformada',
    );
  }
  return undefined;
}

/**
 * Failures outside the procedures: body parsing, size, media type, and anything unexpected. On
 * Node's API, for the front's API pipeline (app.ts) and, as Express's error middleware (four
 * parameters), for the rest of the app.
 */
export function errorHandler(
  error: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  _next?: unknown,
) {
  const translated = requestError(error) ?? error;
  const { status, body } = toHttpError(translated);
  if (status >= 500)
    req.log?.error({ err: error, reqId: req.headers['x-request-id'] }, 'unhandled error');
  if (res.headersSent) return;
  setErrorHeaders(res, status);
  sendJson(res, status, body);
}

/** POST, PATCH and PUT bodies must be JSON (decisions.md §4): anything else is a 415. */
export const requireJsonBody: NodeHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0;
  if (
    ['POST', 'PATCH', 'PUT'].includes(req.method ?? '') &&
    hasBody &&
    !typeIs(req, ['application/json', 'application/*+json'])
  ) {
    next(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'O corpo da requisição deve ser JSON (application/json)',
      ),
    );
    return;
  }
  next();
};

/**
 * The same malformed-request failures on /trpc (its bodies go through the same parser as REST),
 * answered in tRPC's envelope so its clients read them as TRPCClientErrors.
 */
export const trpcRequestErrorHandler: ErrorRequestHandler = (error, req, res, next) => {
  const app = requestError(error);
  if (!app || res.headersSent) return next(error);
  const { status, body } = toHttpError(app);
  res.status(status).json({
    error: {
      message: body.message,
      code:
        TRPC_ERROR_CODES_BY_KEY[body.code as keyof typeof TRPC_ERROR_CODES_BY_KEY] ??
        TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST,
      // `path` as tRPC gives it: the procedure(s) named in the URL (`a,b` for a batch).
      data: { code: body.code, httpStatus: status, path: req.path.slice(1), appCode: body.code },
    },
  });
};
