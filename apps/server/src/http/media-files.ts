import { MEDIA_FILES_PATH, type MediaService } from '@campus/core';
import { Router } from 'express';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { setRouteLabel } from '../metrics';
import { methodNotAllowed } from './errors';

const FILE_ROUTE = `${MEDIA_FILES_PATH}/{name}`;

/**
 * The stored images, read without a token (an `<img>` sends none) at URLs whose key is 144
 * random bits (docs/contract/media.md, Serving): immutable, so cached for a year, with an ETag.
 * A file whose image was discarded answers 404 within a minute (`MediaService.file`'s cache).
 */
export function mediaFilesRouter(media: MediaService): Router {
  const router = Router();
  router.get(`${MEDIA_FILES_PATH}/:name`, async function serveMediaFile(req, res, next) {
    setRouteLabel(req, FILE_ROUTE);
    try {
      const name = req.params.name!;
      const file = await media.file(name);
      if (!file) return next();
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('ETag', file.etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
      const body = req.method === 'HEAD' ? undefined : await media.storage.open(name);
      if (req.method !== 'HEAD' && !body) return next();
      res.status(200).type(file.contentType).setHeader('Content-Length', String(file.bytes));
      if (!body) return void res.end();
      // `pipe`, as express.static does: `pipeline` makes and aborts an AbortController per file
      // (a DOMException with its stack), about a quarter of this route's CPU in `pnpm bench`
      // (290 → 220 µs a request). A failed read or a gone client ends both.
      body.on('error', () => res.destroy());
      res.on('close', () => body.destroy());
      body.pipe(res);
    } catch (error) {
      if (!res.headersSent) next(error);
      else res.destroy();
    }
  });
  // GET and HEAD only: another method is told so, as on every documented path.
  router.all(`${MEDIA_FILES_PATH}/:name`, (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next(); // no such file: 404
    setRouteLabel(req, FILE_ROUTE);
    methodNotAllowed(req, res, ['GET', 'HEAD']);
  });
  return router;
}

/** The document's entry for the files (host paths beside the procedures). */
export const mediaFilePaths: NonNullable<OpenAPIObject['paths']> = {
  [FILE_ROUTE]: {
    get: {
      operationId: 'getMediaFile',
      summary: 'Uma imagem guardada (foto, miniatura, avatar ou logo), sem token',
      tags: ['Fotos'],
      security: [],
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'A imagem (WebP, sem metadados), imutável: Cache-Control por um ano',
          headers: {
            ETag: { $ref: '#/components/headers/ETag' },
            'Cache-Control': { $ref: '#/components/headers/CacheControl' },
          },
          content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } },
        },
        '304': { description: 'Not modified (If-None-Match)' },
        '404': { description: 'No such image, or deleted' },
      },
    },
  },
};
