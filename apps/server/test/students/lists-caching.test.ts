import { cidadesList, estadosList, nacionalidadesList, opcoesAcademicasList } from '@campus/core';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type TestApp, onTestApp } from '../support/app';

/** The static lists over HTTP: ETag and 304, Brotli or gzip, the same body over REST and /trpc. Their content: lists.test.ts. */
let t: TestApp;
onTestApp((app) => (t = app));

/** The plain JSON form (supertest would otherwise ask for gzip); compression is tested with Accept-Encoding. */
const get = (path: string) => t.request.get(path).set('Accept-Encoding', 'identity');
const BASE = '/autenticacao/alunos';

describe('static lists: caching and one body for every transport', () => {
  const paths = [
    [`${BASE}/nacionalidades`, nacionalidadesList],
    [`${BASE}/opcoes-academicas`, opcoesAcademicasList],
    [`${BASE}/localidades/estados`, estadosList],
    [`${BASE}/localidades/estados/mg/cidades`, cidadesList('MG')!],
  ] as const;

  it.each(paths)(
    '%s: Cache-Control, a strong ETag, and 304 with no body on If-None-Match',
    async (path, list) => {
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      expect(first.headers['cache-control']).toBe('public, max-age=86400');
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(etag).toBe(list.etag);
      expect(first.text).toBe(list.bytes.toString());
      expect(first.body).toEqual(list.body);

      const again = await get(path).set('If-None-Match', etag);
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=86400');

      expect((await get(path).set('If-None-Match', `"stale", ${etag}`)).status).toBe(304);
      expect((await get(path).set('If-None-Match', `W/${etag}`)).status).toBe(304);
      expect((await get(path).set('If-None-Match', '*')).status).toBe(304);
      // Was a bug: Node's fetch sends no-cache with every conditional request, and got 200.
      expect(
        (await get(path).set('If-None-Match', etag).set('Cache-Control', 'no-cache')).status,
      ).toBe(304);
      const stale = await get(path).set('If-None-Match', '"something-else"');
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(first.body);
    },
  );

  /** The answer's bytes as sent (supertest would add its own Accept-Encoding and decode gzip). */
  const raw = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        httpGet(`${t.baseUrl}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      },
    );

  it.each([
    ['br', 'gzip, deflate, br, zstd', brotliDecompressSync], // Chrome's
    ['br', '*', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync], // most HTTP libraries'
    ['gzip', 'br;q=0, *', gunzipSync],
  ] as const)(
    'compressed as %s when the client accepts it, with an ETag of its own and 304',
    async (encoding, accept, decode) => {
      const path = `${BASE}/localidades/estados/SP/cidades`;
      const list = cidadesList('SP')!;
      const res = await raw(path, { 'Accept-Encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      const bytes = res.body;
      expect(bytes.length).toBeLessThan(list.bytes.length / 3);
      expect(decode(bytes).equals(list.bytes)).toBe(true);
      const etag = res.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(etag).not.toBe(list.etag);
      const again = await raw(path, { 'Accept-Encoding': accept, 'If-None-Match': etag });
      expect(again.status).toBe(304);
      // The plain form's ETag does not validate the compressed form, nor the other way round.
      expect(
        (await raw(path, { 'Accept-Encoding': accept, 'If-None-Match': list.etag })).status,
      ).toBe(200);
      expect(
        (await raw(path, { 'Accept-Encoding': 'identity', 'If-None-Match': etag })).status,
      ).toBe(200);
    },
  );

  it('plain JSON without Accept-Encoding, and when the client refuses both codings', async () => {
    const path = `${BASE}/localidades/estados/SP/cidades`;
    const list = cidadesList('SP')!;
    const cases: Record<string, string>[] = [
      {},
      { 'Accept-Encoding': 'identity' },
      { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of cases) {
      const res = await raw(path, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(list.bytes)).toBe(true);
      expect(res.headers.etag).toBe(list.etag);
    }
  });

  it('each list and each state has its own ETag, the same on every request', async () => {
    const etags = await Promise.all(
      [
        `${BASE}/nacionalidades`,
        `${BASE}/opcoes-academicas`,
        `${BASE}/localidades/estados`,
        `${BASE}/localidades/estados/SP/cidades`,
        `${BASE}/localidades/estados/RJ/cidades`,
      ].map(async (path) => (await get(path)).headers.etag),
    );
    expect(new Set(etags).size).toBe(5);
    expect((await get(`${BASE}/localidades/estados/sp/cidades`)).headers.etag).toBe(etags[3]);
  });

  it('a trailing slash is optional', async () => {
    const res = await get(`${BASE}/localidades/estados/DF/cidades/`);
    expect(res.status).toBe(200);
    expect(res.body.dados).toEqual([{ nome: 'Brasília', uf: 'DF' }]);
    expect((await get(`${BASE}/nacionalidades/`)).headers.etag).toBe(nacionalidadesList.etag);
  });

  it('/trpc answers the same bodies', async () => {
    const trpc = async (path: string, input?: unknown) => {
      const query =
        input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      return t.request.get(`/trpc/${path}${query}`);
    };
    expect((await trpc('students.nacionalidades')).body.result.data).toEqual(
      nacionalidadesList.body,
    );
    expect((await trpc('students.opcoesAcademicas')).body.result.data).toEqual(
      opcoesAcademicasList.body,
    );
    expect((await trpc('localities.estados')).body.result.data).toEqual(estadosList.body);
    expect((await trpc('localities.cidades', { uf: 'df' })).body.result.data).toEqual(
      cidadesList('DF')!.body,
    );
    const unknown = await trpc('localities.cidades', { uf: 'ZZ' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.data.issues).toEqual([{ path: 'uf', message: expect.any(String) }]);
  });

  it('/openapi.json documents every registration and locality path as public', async () => {
    const doc = (await get('/openapi.json')).body;
    const expected = {
      '/autenticacao/cadastro': 'post',
      '/autenticacao/alunos/nickname-disponivel': 'get',
      '/autenticacao/alunos/email-disponivel': 'get',
      '/autenticacao/alunos/nacionalidades': 'get',
      '/autenticacao/alunos/opcoes-academicas': 'get',
      '/autenticacao/alunos/localidades/estados': 'get',
      '/autenticacao/alunos/localidades/estados/{uf}/cidades': 'get',
    };
    for (const [path, method] of Object.entries(expected)) {
      const operation = doc.paths[path]?.[method];
      expect(operation, path).toBeDefined();
      expect(operation.security ?? [], path).toEqual([]);
    }
    expect(Object.keys(doc.paths['/autenticacao/cadastro'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '409']),
    );
  });
});
