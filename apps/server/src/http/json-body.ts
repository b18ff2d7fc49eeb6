import { AppError } from '@campus/core';
import express, { type RequestHandler } from 'express';

/** The largest request body, REST and /trpc alike: 100 kB (docs/contract/protocol.md). */
export const BODY_LIMIT_BYTES = 100 * 1024;

/** The media types a body may have: JSON. */
const JSON_TYPES = ['application/json', 'application/*+json'];
const jsonBodyOptions = { limit: BODY_LIMIT_BYTES, type: JSON_TYPES };

/** The refusal of a body that is not JSON (415), the same on every API path. */
export const notJson = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'O corpo da requisição deve ser JSON (application/json)');

/** POST, PATCH and PUT bodies must be JSON (docs/contract/errors.md): anything else is a 415. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  // An upload's multipart body was read already (`receiveUpload`).
  if (req.upload) return next();
  if (req.method !== 'POST' && req.method !== 'PATCH' && req.method !== 'PUT') return next();
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0;
  next(hasBody && !req.is(JSON_TYPES) ? notJson() : undefined);
};

/** The one JSON body parser of REST requests (media type, charset, size, Content-Encoding). */
const parseJson = express.json(jsonBodyOptions);
export const jsonBody: RequestHandler = function jsonParser(req, res, next) {
  if (req.upload) return next();
  parseJson(req, res, next);
};

/**
 * /trpc bodies pass the same parser, and tRPC then gets the body's text, not the parsed value:
 * it would re-serialise an object with JSON.stringify, which overflows the stack on a deeply
 * nested body (a 500 instead of a 400).
 */
const parseTrpcJson = express.json({
  ...jsonBodyOptions,
  verify: (req, _res, raw) => {
    (req as { rawBody?: Buffer }).rawBody = raw;
  },
});
export const trpcJsonBody: RequestHandler[] = [
  function trpcJsonParser(req, res, next) {
    if (req.upload) return next();
    parseTrpcJson(req, res, next);
  },
  function trpcBodyText(req, _res, next) {
    if (req.upload) return next();
    const raw = (req as { rawBody?: Buffer }).rawBody;
    if (raw) req.body = raw.toString('utf8');
    next();
  },
];
