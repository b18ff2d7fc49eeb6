import { AppError } from '@campus/core';
import { toHttpError } from '@campus/api';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { setErrorHeaders } from './rest';

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ code: 'NOT_FOUND', message: `Rota não encontrada: ${req.method} ${req.path}` });
};

/** Failures outside the procedures: body parsing, size, media type, and anything unexpected. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const type = (error as { type?: string }).type;
  const translated =
    type === 'entity.parse.failed'
      ? new AppError('BAD_REQUEST', 'JSON malformado no corpo da requisição')
      : type === 'entity.too.large'
        ? new AppError('PAYLOAD_TOO_LARGE', 'Corpo da requisição maior que 100 kB')
        : type === 'encoding.unsupported' || type === 'charset.unsupported'
          ? new AppError('UNSUPPORTED_MEDIA_TYPE', 'Codificação do corpo não suportada')
          : error;
  const { status, body } = toHttpError(translated);
  if (status >= 500) req.log?.error({ err: error, reqId: req.headers['x-request-id'] }, 'unhandled error');
  if (res.headersSent) return;
  setErrorHeaders(res, status);
  res.status(status).json(body);
};

/** POST, PATCH and PUT bodies must be JSON (decisions.md §4): anything else is a 415. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (['POST', 'PATCH', 'PUT'].includes(req.method) && hasBody && !req.is(['application/json', 'application/*+json'])) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'O corpo da requisição deve ser JSON (application/json)'));
    return;
  }
  next();
};
