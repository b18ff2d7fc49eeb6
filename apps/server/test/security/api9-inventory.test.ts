import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp, type TestUser } from '../support/app';
import { UNKNOWN_ID } from '../support/feed';
import {
  documentedOperations,
  expectErrorFormat,
  fillPath,
  HTTP_METHODS,
  openApiDocument,
  procedures,
} from './support';

/**
 * Everything the app answers is either in /openapi.json or one of the operational routes below,
 * each with its reason; what is not there answers 404.
 */
let t: TestApp;
let admin: TestUser;
// A stand-in for apps/web/dist, so the inventory includes the web app whether or not it was built.
const webRoot = mkdtempSync(join(tmpdir(), 'campus-web-'));
beforeAll(async () => {
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Campus</title>');
  t = await startTestApp({ webRoot });
  admin = await t.createUser({ perfil: 'ADMIN' });
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

/** Routes outside the OpenAPI document, on purpose. (/health, /ready, /metrics are documented.) */
const OPERATIONAL_ROUTES: Record<string, string> = {
  'GET /openapi.json': 'the inventory itself',
  'GET /docs': 'redirect to /docs/ (Swagger UI)',
  'GET /docs/swagger-initializer.js': 'Swagger UI boot script pointing at /openapi.json',
  '_ALL /media/files/{name}': 'the photo files’ other methods → 405 with Allow: GET, HEAD',
};
/** Middleware mounted under a path (not global), with its reason. */
const MOUNTED_MIDDLEWARE: Record<string, string> = {
  'swaggerUiFiles /docs': "Swagger UI's page files only (local, no CDN)",
  'trpc /trpc': 'tRPC clients: the same procedures as the REST operations, checked below',
  'requireDecodablePath /trpc': 'a path that does not decode → 400, in tRPC’s envelope',
  'labelTrpc /trpc': "the metrics label: the procedure's name, or trpc:batch",
  'noStore /trpc': 'Cache-Control: no-store on tRPC answers',
  'requireJsonBody /trpc': 'tRPC bodies are JSON, as REST bodies (415 otherwise)',
  'trpcJsonParser /trpc': 'the same JSON parser as REST (UTF-8, 100 kB, Content-Encoding)',
  'receiveMultipart /trpc':
    'the upload procedures’ multipart bodies, streamed with their limits (docs/contract/media.md)',
  'trpcBodyText /trpc': 'the parsed body handed to tRPC as its text (req.body)',
  'trpcRequestErrorHandler /trpc': 'malformed tRPC requests answered in tRPC’s envelope',
};

interface Layer {
  name: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  match(path: string): boolean;
}

/** Express's router: routes as `METHOD /path`, other layers by name (mounted ones with their path). */
function expressInventory(app: TestApp['app']) {
  const routes: string[] = [];
  const middleware: string[] = [];
  const walk = (stack: Layer[], mountedAt?: string) => {
    for (const layer of stack) {
      // A global layer matches any path; a mounted one only its own prefix.
      const prefix =
        mountedAt ??
        ['/docs', '/trpc'].find((p) => !layer.match('/inventory-probe') && layer.match(`${p}/x`));
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          routes.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, prefix);
      } else {
        middleware.push(
          prefix ? `${layer.name === '<anonymous>' ? 'trpc' : layer.name} ${prefix}` : layer.name,
        );
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return { routes, middleware };
}

/** Every operation of the document: the procedures' and the host's own (/health, /ready, /metrics). */
const documentedKeys = new Set(
  Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map(
      (method) => `${method.toUpperCase()} ${path}`,
    ),
  ),
);
const toOpenApiPath = (route: string) => route.replace(/:(\w+)/g, '{$1}');

describe('API9:2023 Improper Inventory Management', () => {
  it('every route of the Express app is in /openapi.json or is a named operational route', () => {
    const { routes, middleware } = expressInventory(t.app);
    const undocumented = routes.map(toOpenApiPath).filter((route) => !documentedKeys.has(route));
    expect(undocumented.sort()).toEqual(Object.keys(OPERATIONAL_ROUTES).sort());
    const mounted = middleware.filter((name) => name.includes(' /'));
    expect(mounted.sort()).toEqual(Object.keys(MOUNTED_MIDDLEWARE).sort());
    // The global middleware, in order: a new one (a second router, a debug handler) shows here.
    expect(middleware.filter((name) => !name.includes(' /'))).toEqual([
      // request id, helmet's headers, metrics and the access log, in one layer (http/operators.ts)
      'operatorsLayer',
      // (cors: run only when CORS_ORIGINS names an origin; this app allows none)
      'staticLists', // the static lists, answered before anything they do not need
      'probeMethods', // 405 with Allow on /health, /ready and /metrics for other methods
      // The REST router (http/rest.ts): the documented operations only, others leave it.
      'requireDecodablePath',
      'documentedOperation',
      'receiveMultipart', // an upload operation's multipart body (http/uploads.ts)
      'requireJsonBody',
      'jsonParser',
      'callOperation',
      'precompressed', // the Brotli/gzip forms the web build wrote, from memory
      'serveStatic', // the web app's hashed files under /assets
      'serveStatic', // its other files (index.html, icons)
      'webAppPage', // index.html for other GETs asking for HTML, never under an API segment
      'notFoundHandler',
      'errorHandler',
    ]);
  });

  it('every tRPC procedure (the /trpc surface and the REST adapter) is a documented operation', () => {
    const undocumented = procedures.filter(
      (p) => !p.route || !documentedKeys.has(`${p.route.method.toUpperCase()} ${p.route.path}`),
    );
    expect(undocumented.map((p) => p.path)).toEqual([]);
    expect(documentedOperations).toHaveLength(procedures.length);
  });

  it('on every documented path, the methods it does not document → 405 with Allow', async () => {
    const paths = Object.keys(openApiDocument.paths ?? {});
    const templateOf = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    // PATCH /match/sports is PATCH /match/{id} with id "sports" (a 400), as in any router where a
    // literal path wins only for the methods it has: no 405 is owed there.
    const otherwiseRouted = (method: string, url: string) =>
      paths.some(
        (other) =>
          documentedKeys.has(`${method.toUpperCase()} ${other}`) && templateOf(other).test(url),
      );
    let probed = 0;
    for (const path of paths) {
      const url = fillPath(path, {
        id: UNKNOWN_ID,
        requestId: UNKNOWN_ID,
        userId: UNKNOWN_ID,
        uf: 'SP',
        tipo: 'POST',
        name: 'unknown.webp',
      });
      for (const method of HTTP_METHODS.filter(
        (m) => !documentedKeys.has(`${m.toUpperCase()} ${path}`) && !otherwiseRouted(m, url),
      )) {
        const res = await t.request[method](url).set(admin.auth).send({});
        expect(res.status, `${method.toUpperCase()} ${path}`).toBe(405);
        const documented = HTTP_METHODS.filter((m) =>
          documentedKeys.has(`${m.toUpperCase()} ${path}`),
        );
        const allow = String(res.headers.allow).split(', ');
        for (const m of documented)
          expect(allow, `${method.toUpperCase()} ${path}`).toContain(m.toUpperCase());
        expect(allow).not.toContain(method.toUpperCase());
        expectErrorFormat(res);
        probed++;
      }
    }
    expect(probed).toBeGreaterThan(100);
  });

  const COMMON_PROBES = [
    '/admin',
    '/api',
    '/api/v1',
    '/api/v2',
    '/v1',
    '/v2',
    '/debug',
    '/debug/vars',
    '/debug/pprof',
    '/.env',
    '/.git/config',
    '/graphql',
    '/graphiql',
    '/console',
    '/actuator',
    '/actuator/env',
    '/server-status',
    '/swagger.json',
    '/swagger-ui.html',
    '/api-docs',
    '/openapi.yaml',
    '/phpinfo.php',
    '/wp-admin',
    '/backup.zip',
    '/package.json',
    '/config',
    '/env',
    '/status',
    '/info',
    '/internal',
    '/private',
    '/test',
    '/users',
    '/usuarios',
    '/login',
    '/register',
    '/auth/login',
    '/admin/usuarios/export/all',
    '/trpc-playground',
    '/trpc-panel',
    '/panel',
    '/docs/..%2fpackage.json',
    '/docs/%2e%2e/%2e%2e/package.json',
    '/metrics/../.env',
  ];

  it.each(['get', 'post'] as const)(
    'common undocumented paths → 404 in the error format (%s)',
    async (method) => {
      for (const path of COMMON_PROBES) {
        const res = await t.request[method](path).set(admin.auth);
        expect(res.status, path).toBe(404);
        expectErrorFormat(res);
      }
    },
  );

  it('/trpc answers only procedure names: others → 404 in tRPC’s envelope', async () => {
    for (const path of [
      '',
      'admin',
      'appRouter',
      '_def',
      'admin.listUsers.x',
      'admin.__proto__',
      'constructor',
      'feed.list/..',
    ]) {
      const res = await t.request.get(`/trpc/${path}`).set(admin.auth);
      expect(res.status, path).toBe(404);
      expect(res.body.error.data, path).toMatchObject({ httpStatus: 404, appCode: 'NOT_FOUND' });
    }
  });

  it('a documented operation is not reachable by other spellings (trailing slash and letter case aside)', async () => {
    // Paths match case-insensitively (Express's default, followed by the REST adapter): the same
    // procedure with the same checks, so no way around them; a proxy rule on "/admin" should know.
    await t.request.get('/admin/usuarios/').set(admin.auth).expect(200);
    for (const variant of [
      '/admin//usuarios',
      '/admin/usuarios.json',
      '/admin/usuarios;x',
      '/admin/usuarios%2F',
      '/admin%2Fusuarios',
    ]) {
      const res = await t.request.get(variant).set(admin.auth);
      expect(res.status, variant).toBe(404);
    }
  });

  // Was a bug (fixed in buildOpenApiDocument): the error responses of /openapi.json are not each operation's own. Every 401 reads
  // "E-mail ou senha inválidos" (login's), every 404 "Exemplo não encontrado", every 403 "Conta não
  // está ativa", every 409 the registration's, whatever the procedure's meta says: the document
  // misinforms clients about why each operation fails. Request: GET /openapi.json.
  it("each operation's error responses carry its own descriptions (those of its procedure)", () => {
    const wrong: string[] = [];
    for (const op of documentedOperations) {
      const declared = procedures.find((p) => p.path === op.procedure)!.errorResponses;
      for (const [status, description] of Object.entries(declared)) {
        const documented = (op.operation.responses as Record<string, { description?: string }>)[
          status
        ]?.description;
        // Its own first; a convention's own cause may follow ("…; or: the first request with this
        // Idempotency-Key is still running").
        if (documented !== description && !documented?.startsWith(`${description}; or: `))
          wrong.push(`${op.key} ${status}: "${documented}" instead of "${description}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  // Was found (fixed: an allow-list of the page's files): /docs served the whole swagger-ui-dist package directory, files the UI does not need
  // among them (package.json with the exact version, README.md, build logs, Node entry points).
  // Requests: GET /docs/package.json, GET /docs/README.md, GET /docs/log.bundle-sizes.swagger-ui.txt.
  it('/docs serves the UI, not the package around it', async () => {
    expect((await t.request.get('/docs/swagger-ui-bundle.js')).status).toBe(200);
    for (const file of [
      'package.json',
      'README.md',
      'log.bundle-sizes.swagger-ui.txt',
      'absolute-path.js',
    ]) {
      expectError(await t.request.get(`/docs/${file}`), 404, 'NOT_FOUND');
    }
  });
});
