import { AppError } from '@campus/core';
import { errorHeaders, isDecodablePath, toHttpError } from '@campus/api';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { BODY_LIMIT_BYTES } from './json-body';

/** A failure answered in the error format, with the headers its status asks for. */
export function sendError(res: Response, error: unknown) {
  const { status, body } = toHttpError(error);
  res.set(errorHeaders(status, body.reason));
  res.status(status).json(body);
}

/** The refusal of a path that matches nothing (404), for any method. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, new AppError('NOT_FOUND', `Rota não encontrada: ${req.method} ${req.path}`));
};

/** The refusal of a path whose percent-encoding does not decode (`/post/%ZZ`). */
export const malformedPath = () =>
  new AppError('BAD_REQUEST', 'Caminho malformado: codificação percentual (UTF-8) inválida');

/** Refuses a path that does not decode, REST and /trpc alike (no route could match it). */
export const requireDecodablePath: RequestHandler = (req, _res, next) => {
  next(isDecodablePath(req.path) ? undefined : malformedPath());
};

/**
 * The final handler of the app (`answeringMalformedTargets` in app.ts): reached only when
 * Express's router could not parse the request target, so no route or middleware ran (400).
 */
export const malformedTarget =
  (res: Response) =>
  (error?: unknown): void => {
    if (res.headersSent) return void res.end();
    const fallback = new AppError(
      'BAD_REQUEST',
      'Alvo da requisição malformado: não é um caminho nem uma URL válida',
    );
    sendError(res, (error === undefined ? undefined : requestError(error)) ?? fallback);
  };

/**
 * A path served with another method: 405 with `Allow` (OPTIONS: 204 with `Allow`, when CORS
 * has not answered it as a preflight). The one writer of 405, for the REST operations and the
 * probes. `allowed` lists the path's methods, without OPTIONS.
 */
export function methodNotAllowed(
  req: { method: string; path: string },
  res: Response,
  allowed: readonly string[],
) {
  res.setHeader('Allow', [...allowed, 'OPTIONS'].join(', '));
  if (req.method === 'OPTIONS') return void res.status(204).end();
  const use = allowed.filter((method) => method !== 'HEAD').join(', ');
  sendError(
    res,
    new AppError(
      'METHOD_NOT_SUPPORTED',
      `Método ${req.method} não aceito em ${req.path}; use ${use}`,
    ),
  );
}

/** body-parser's refusals by their `type`, as client errors that say what was wrong. */
const BODY_ERRORS: Record<string, () => AppError> = {
  'entity.parse.failed': () =>
    new AppError('BAD_REQUEST', 'JSON malformado no corpo da requisição'),
  'entity.too.large': () =>
    new AppError(
      'PAYLOAD_TOO_LARGE',
      `Corpo da requisição maior que ${BODY_LIMIT_BYTES / 1024} kB`,
    ),
  'encoding.unsupported': () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'Codificação do corpo não suportada (Content-Encoding)'),
  'charset.unsupported': () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'Charset do corpo não suportado; use UTF-8'),
  'request.aborted': () => new AppError('BAD_REQUEST', 'Corpo da requisição interrompido'),
  'request.size.invalid': () =>
    new AppError('BAD_REQUEST', 'Corpo da requisição menor ou maior que o Content-Length'),
};

/**
 * What Express, its router and body-parser throw on a malformed request, as a client error:
 * a body that is not JSON, too large, in an unknown coding or charset, cut short; a compressed
 * body that does not inflate; a path that does not decode. Anything else is not a request
 * error (undefined), whatever `status` it carries.
 */
export function requestError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return undefined;
  const { type, code } = error as { type?: unknown; code?: unknown };
  if (typeof type === 'string' && type in BODY_ERRORS) return BODY_ERRORS[type]!();
  // zlib's own codes (Brotli's decoder: `ERR__ERROR_FORMAT_…`): the body says gzip/deflate/br
  // and is not, or is truncated.
  if (typeof code === 'string' && /^Z_|^ERR_(ZLIB|BROTLI|_ERROR)/.test(code)) {
    return new AppError(
      'BAD_REQUEST',
      'Corpo comprimido inválido ou incompleto (Content-Encoding)',
    );
  }
  if (error instanceof URIError) return malformedPath();
  return undefined;
}

/** Failures outside the procedures: body parsing, size, media type, and anything unexpected. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const translated = requestError(error) ?? error;
  if (toHttpError(translated).status >= 500)
    req.log?.error({ err: error, reqId: req.headers['x-request-id'] }, 'unhandled error');
  if (res.headersSent) return;
  sendError(res, translated);
};

/**
 * The same malformed-request failures on /trpc (its bodies go through the same parser as REST),
 * answered in tRPC's envelope so its clients read them as TRPCClientErrors.
 */
export const trpcRequestErrorHandler: ErrorRequestHandler = (error, req, res, next) => {
  const app = error instanceof AppError ? error : requestError(error);
  if (!app || res.headersSent) return next(error);
  const { status, body } = toHttpError(app);
  res.set(errorHeaders(status, body.reason));
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
