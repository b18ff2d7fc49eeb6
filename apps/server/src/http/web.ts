import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { restRoutes } from '@campus/api';
import type { ServerResponse } from 'node:http';
import express, { Router, type Request, type Response } from 'express';
import { setRouteLabel } from '../metrics';
import { chooseEncoding, matchesIfNoneMatch, type Encoding } from './content-coding';
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

const CODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

interface Precompressed {
  bytes: Buffer;
  etag: string;
}

/**
 * The compressed forms the build wrote beside the files (`assets/index-3f2a.js.br`, `.gz`; see
 * apps/web/build/precompress.ts), by the URL path of the original: read into memory once at start
 * (a few hundred kB), so a request costs a map lookup, as for the static lists.
 */
function precompressedForms(root: string): Map<string, Partial<Record<Encoding, Precompressed>>> {
  const forms = new Map<string, Partial<Record<Encoding, Precompressed>>>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' });
  const present = new Set(files);
  for (const file of files) {
    for (const [encoding, suffix] of Object.entries(CODING_SUFFIX) as [Encoding, string][]) {
      const original = file.slice(0, -suffix.length);
      if (!file.endsWith(suffix) || !present.has(original)) continue;
      const bytes = readFileSync(join(root, file));
      const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
      const urlPath = `/${original.split(sep).join('/')}`;
      forms.set(urlPath, { ...forms.get(urlPath), [encoding]: { bytes, etag: `"${hash}"` } });
    }
  }
  return forms;
}

const escapeAttribute = (value: string) =>
  value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

/**
 * index.html for one page: the Open Graph address and image made absolute for this request, as
 * link previews (WhatsApp, Telegram) need them and run no script. The origin is the request's
 * (Express's `trust proxy` decides whether X-Forwarded-Proto/Host count).
 */
function pageFor(template: string, req: Request): string {
  const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return template
    .replace(
      'property="og:url" content="/"',
      `property="og:url" content="${escapeAttribute(origin + req.originalUrl)}"`,
    )
    .replace(
      'content="/icons/og-image.png"',
      `content="${escapeAttribute(origin)}/icons/og-image.png"`,
    );
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
  const index = readFileSync(join(root, 'index.html'), 'utf8');
  // One metrics label for everything served here (`setHeaders` runs only when a file is sent).
  const label = (res: ServerResponse) => setRouteLabel((res as Response).req, 'web');
  // The app-wide `no-store` (API answers) would stop serve-static from writing its own caching.
  const caching = (value: string) => (res: ServerResponse) => {
    label(res);
    res.setHeader('Cache-Control', value);
  };

  const immutable = 'public, max-age=31536000, immutable';
  const compressed = precompressedForms(root);
  // Brotli or gzip as the build wrote them, when the client accepts one; else the file as is.
  router.use(function precompressed(req, res, next) {
    const forms =
      req.method === 'GET' || req.method === 'HEAD' ? compressed.get(req.path) : undefined;
    if (!forms) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    const form = encoding && forms[encoding];
    if (!form) {
      next();
      return;
    }
    caching(req.path.startsWith('/assets/') ? immutable : 'public, max-age=0')(res);
    res.setHeader('ETag', form.etag);
    if (matchesIfNoneMatch(req.headers['if-none-match'], form.etag)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Encoding', encoding);
    res.type(extname(req.path));
    res.send(form.bytes);
  });
  router.use(
    '/assets',
    // File names carry a content hash: cache them for good.
    express.static(join(root, 'assets'), {
      index: false,
      setHeaders: caching(immutable),
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
    res.type('html').send(pageFor(index, req));
  });
  return router;
}
