import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { restRoutes } from '@campus/api';
import type { ServerResponse } from 'node:http';
import express, { Router, type Response } from 'express';
import { setRouteLabel } from '../metrics';
import { HOST_PATHS } from './host-paths';

/**
 * The built web app (apps/web/dist), seen from the bundle (apps/server/dist/main.js) or from the
 * sources (apps/server/src/http/web.ts). Absent → the server serves the API only.
 */
export const WEB_ROOT_CANDIDATES = ['../../web/dist', '../../../web/dist'];

export function findWebRoot(): string | undefined {
  for (const relative of WEB_ROOT_CANDIDATES) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

/** First path segments that belong to the API: every REST path, /trpc, the docs and probes. */
function apiSegments(): Set<string> {
  const firstSegment = (path: string) => path.split('/')[1]!;
  return new Set([
    ...restRoutes.map((route) => firstSegment(route.rest.template)),
    ...Object.values(HOST_PATHS).map(firstSegment),
  ]);
}

/**
 * The web app's files at `/`, and index.html for any other GET that asks for HTML (the app's own
 * routes, such as /feed or /partidas/:id, after a reload). Mounted after every API route, so it
 * never answers an API path; paths under an API segment keep the JSON 404 whatever they accept.
 */
export function webApp(root: string | undefined): Router {
  const router = Router();
  if (!root) return router;
  const api = apiSegments();
  const index = join(root, 'index.html');
  // One metrics label for everything served here (`setHeaders` runs only when a file is sent).
  const label = (res: ServerResponse) => setRouteLabel((res as Response).req, 'web');
  // The app-wide `no-store` (API answers) would stop serve-static from writing its own caching.
  const caching = (value: string) => (res: ServerResponse) => {
    label(res);
    res.setHeader('Cache-Control', value);
  };

  router.use(
    '/assets',
    // File names carry a content hash: cache them for good.
    express.static(join(root, 'assets'), {
      index: false,
      setHeaders: caching('public, max-age=31536000, immutable'),
    }),
  );
  router.use(express.static(root, { index: false, setHeaders: caching('public, max-age=0') }));
  // A plain middleware, not a route: a request it passes on stays "unmatched" in the metrics.
  router.use(function webAppPage(req, res, next) {
    const segment = req.path.split('/')[1] ?? '';
    if (req.method !== 'GET' || api.has(segment) || !req.headers.accept?.includes('text/html')) {
      next();
      return;
    }
    setRouteLabel(req, 'web');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
