import { staticListRoutes } from '@campus/api';
import { Router } from 'express';

/** The lists change only with a release: a day in any cache, revalidated by ETag after that. */
export const STATIC_LIST_CACHE_CONTROL = 'public, max-age=86400';

/** `{uf}` (OpenAPI) → `:uf` (Express). */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * REST GETs of the static lists (nationalities, academic options, states, cities), sent from the
 * bodies computed once in core, with a strong ETag; `If-None-Match` with that ETag → 304, no body.
 * Mounted before the REST adapter; anything not answered here (an unknown UF) goes on to it.
 */
export function staticListsRouter(): Router {
  const router = Router();
  for (const route of staticListRoutes) {
    router.get(expressPath(route.path), (req, res, next) => {
      const list = route.resolve(req.params);
      if (!list) {
        next();
        return;
      }
      res.setHeader('Cache-Control', STATIC_LIST_CACHE_CONTROL);
      res.setHeader('ETag', list.etag);
      // req.fresh compares If-None-Match with the ETag just set.
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.send(list.bytes);
    });
  }
  return router;
}
