import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { restRouteMatcher, restRoutes } from '@campus/api';
import type { PrecomputedResponse } from '@campus/core';
import { setRouteLabel } from '../metrics';
import { chooseEncoding, matchesIfNoneMatch, type Encoding } from './content-coding';

/** The lists change only with a release: a day in any cache, revalidated by ETag after that. */
export const STATIC_LIST_CACHE_CONTROL = 'public, max-age=86400';

interface Representation {
  bytes: Buffer;
  etag: string;
}
type List = PrecomputedResponse<unknown>;

/**
 * A strong ETag names one representation, so each compressed form has its own (RFC 9110 §8.8.3):
 * `"<hash>"` → `"<hash>-br"`.
 */
const etagOf = (list: List, encoding: Encoding) => `${list.etag.slice(0, -1)}-${encoding}"`;

/**
 * Each list's compressed forms, made on its first compressed request and kept for the life of
 * the process (the lists are module-level constants). Brotli at its best quality takes a few
 * milliseconds per list once; all of them at start would add a quarter of a second to it.
 */
const compressedForms = new WeakMap<List, Record<Encoding, Representation>>();

function representationOf(list: List, encoding: Encoding | false): Representation {
  if (!encoding) return list;
  let forms = compressedForms.get(list);
  if (!forms) {
    const br = brotliCompressSync(list.bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: list.bytes.length,
      },
    });
    forms = {
      br: { bytes: br, etag: etagOf(list, 'br') },
      gzip: { bytes: gzipSync(list.bytes, { level: 9 }), etag: etagOf(list, 'gzip') },
    };
    compressedForms.set(list, forms);
  }
  return forms[encoding];
}

/** The REST routes whose meta names a static list, and each path's start before any parameter. */
const listRoutes = restRoutes.filter((route) => route.meta.staticList);
const matchListRoute = restRouteMatcher(listRoutes);
const listStarts = [...new Set(listRoutes.map((route) => route.rest.template.split('/{')[0]!))];

interface FoundList {
  list: List;
  label: string;
}
/** Paths already answered with a list (the lists are constants): at most ~60 in use. */
const foundAt = new Map<string, FoundList>();
const FOUND_MAX = 256;

/**
 * The list at a URL path, if any. Every GET passes here on its way to the REST adapter, so a
 * path that starts like no list route is turned away by a few `startsWith`, without the route
 * match (which splits the path); a path already answered is one map lookup.
 */
function staticListAt(path: string): FoundList | undefined {
  const known = foundAt.get(path);
  if (known) return known;
  if (!listStarts.some((start) => path.startsWith(start))) return undefined;
  const match = matchListRoute('GET', path);
  const list = match?.route.meta.staticList?.(match.params);
  if (!list) return undefined;
  const found = { list, label: match!.route.path };
  if (foundAt.size >= FOUND_MAX) foundAt.clear();
  foundAt.set(path, found);
  return found;
}

/** `Vary: Accept-Encoding`, added to what an earlier middleware (cors: `Origin`) set. */
function varyOnEncoding(res: ServerResponse) {
  const vary = res.getHeader('Vary');
  if (vary === undefined) res.setHeader('Vary', 'Accept-Encoding');
  else if (!/\baccept-encoding\b/i.test(String(vary)))
    res.setHeader('Vary', `${String(vary)}, Accept-Encoding`);
}

function send(req: IncomingMessage, res: ServerResponse, list: List) {
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const { bytes, etag } = representationOf(list, encoding);
  res.setHeader('Cache-Control', STATIC_LIST_CACHE_CONTROL);
  res.setHeader('ETag', etag);
  varyOnEncoding(res);
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * REST GETs of the static lists (the procedures whose meta names a `staticList`: nationalities,
 * academic options, states, cities), sent from the bodies computed once in core: Brotli or gzip
 * when the client accepts it (SP's 645 cities are 21 kB as JSON, 4 kB in Brotli), each form with
 * its strong ETag; `If-None-Match` with that ETag → 304, no body. Anything not answered here (an
 * unknown UF) goes on to the REST router. An Express middleware placed after the operators' ones
 * and the per-address ceiling, before the REST router: a list answer carries what any answer
 * carries, and skips the body parsing and the procedure call it does not need.
 */
export const staticLists: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const found = staticListAt(req.path);
  if (!found) return next();
  setRouteLabel(req, found.label);
  send(req, res, found.list);
};
