import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRouter, type Meta } from '@campus/api';
import type { AnyProcedure } from '@trpc/server';
import type { ServerResponse } from 'node:http';
import express, { Router, type Response } from 'express';
import { setRouteLabel } from '../metrics';

/**
 * The built web app (apps/web/dist), seen from the bundle (apps/server/dist/main.js) or from the
 * sources (apps/server/src/http/web.ts). Absent → the server serves the API only.
 */
export function findWebRoot(): string | undefined {
  for (const relative of ['../../web/dist', '../../../web/dist']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

/** First path segments that belong to the API: every REST path, /trpc, the docs and probes. */
function apiSegments(): Set<string> {
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  const rest = Object.values(procedures).flatMap((procedure) => {
    const path = (procedure._def.meta as Meta | undefined)?.openapi?.path;
    return path ? [path.split('/')[1]!] : [];
  });
  return new Set([...rest, 'trpc', 'docs', 'openapi.json', 'health', 'ready', 'metrics']);
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
