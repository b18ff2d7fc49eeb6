import { describe, expect, inject, it } from 'vitest';

const e2e = inject('e2e');

/**
 * How apps/server serves the built app: files and the SPA fallback at `/`, without shadowing any
 * API path (apps/server/src/http/web.ts).
 */
describe('the server serves the web app', { tags: ['chromium'] }, () => {
  const baseUrl = e2e.skip ? '' : e2e.baseUrl;
  const get = (
    path: string,
    accept = 'text/html,application/xhtml+xml,*/*;q=0.8',
    method = 'GET',
  ) => fetch(`${baseUrl}${path}`, { method, headers: { accept } });
  /** GETs each path (as a browser would), checks its status and content type. */
  const answers = (paths: string[], status: number, type: RegExp) =>
    Promise.all(
      paths.map(async (path) => {
        const response = await get(path);
        expect(response.status, path).toBe(status);
        expect(response.headers.get('content-type'), path).toMatch(type);
        return response;
      }),
    );

  it('answers index.html at / and at the app’s own paths, under a CSP that allows it', async () => {
    for (const response of await answers(
      [
        '/',
        '/entrar',
        '/feed',
        '/partidas/3f1c2a9e-0000-4000-8000-000000000000',
        '/administracao',
        '/nada-aqui',
      ],
      200,
      /^text\/html/,
    ))
      expect(await response.text()).toContain('<div id="root"></div>');
    const response = await get('/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/); // same-origin files only, nothing inline
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    // Every script is a file; the one inline block is data, never run: the landing pages' files.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    const listed = html.match(
      /<script type="application\/json" id="campus-landing-chunks">([^<]*)</,
    );
    const landing = JSON.parse(listed![1]!) as Record<string, string[]>;
    expect(Object.keys(landing)).toEqual(['/', '/feed', '/partidas', '/grupos', '/notificacoes']);
    for (const file of landing['/feed']!) expect((await get(file, '*/*')).status).toBe(200);
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const script = await get(asset, '*/*');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
  });

  it('keeps every API path: REST, /trpc, docs, probes, and the JSON 404 of unknown API paths', async () => {
    const health = await get('/health');
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await get('/ready')).headers.get('content-type')).toMatch(/json/);
    expect((await get('/openapi.json')).headers.get('content-type')).toMatch(/json/);
    expect(await (await get('/docs/')).text()).toContain('swagger');
    expect((await get('/metrics')).headers.get('content-type')).toMatch(/text\/plain/);

    const rest = await get('/post');
    expect(rest.status).toBe(401);
    expect((await rest.json()).code).toBe('UNAUTHORIZED');
    const trpc = await get('/trpc/localities.estados');
    expect(trpc.status).toBe(200);
    expect(
      ((await trpc.json()) as { result: { data: { dados: unknown[] } } }).result.data.dados,
    ).toHaveLength(27);

    await answers(
      [
        '/post/a/b/c',
        '/match/x/y/z',
        '/autenticacao/nada',
        '/admin/usuarios/x/y',
        '/trpc/nada.aqui',
        '/docs/nada.js',
      ],
      404,
      /json/,
    );
    // Not asking for HTML (a script, an API client) or not a GET: the JSON 404.
    for (const [path, accept, method] of [
      ['/assets/nada.js', '*/*', 'GET'],
      ['/qualquer', 'application/json', 'GET'],
      ['/feed', 'text/html', 'POST'],
    ] as const) {
      const response = await get(path, accept, method);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await response.json()).code).toBe('NOT_FOUND');
    }
    // The app's pages and files count as one route in the metrics; unknown paths stay unmatched.
    const metrics = await (await get('/metrics', 'text/plain')).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="web",status="200"\} \d+/);
    expect(metrics).toMatch(
      /http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/,
    );
  });
});
