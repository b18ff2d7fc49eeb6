import { buildOpenApiDocument, restRoutes } from '@campus/api';
import { describe, expect, it } from 'vitest';
import { probePaths } from '../src/http/probes';

const doc = buildOpenApiDocument('/', probePaths);
const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
  (['get', 'post', 'patch', 'put', 'delete'] as const)
    .filter((method) => item[method])
    .map((method) => ({ key: `${method.toUpperCase()} ${path}`, operation: item[method]! })),
);

describe('/openapi.json', () => {
  it('documents every procedure that has a REST path, and nothing else', () => {
    const routes = restRoutes.map((route) => `${route.rest.method} ${route.meta.openapi!.path}`);
    const operational = ['GET /health', 'GET /metrics', 'GET /ready'];
    expect(operations.map((o) => o.key).sort()).toEqual([...routes, ...operational].sort());
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /autenticacao/login',
        'POST /autenticacao/atualizar-token',
        'POST /autenticacao/sair',
        'GET /autenticacao/usuario-atual',
        'POST /exemplos',
        'GET /exemplos',
        'GET /exemplos/{id}',
      ]),
    );
  });

  it('is OpenAPI 3.1 with a bearer scheme, and every error response uses the Error schema', () => {
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { key, operation } of operations) {
      const errors = Object.entries(operation.responses ?? {}).filter(
        ([code]) => Number(code) >= 400,
      );
      // /health answers while the process lives: it has no failure to document.
      if (key !== 'GET /health') expect(errors.length, key).toBeGreaterThan(0);
      for (const [, response] of errors) {
        expect(response.content['application/json'].schema, key).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  it('documents 201 and 204 where the server answers them', () => {
    const created = doc.paths!['/exemplos']!.post!.responses!;
    expect(Object.keys(created)).toContain('201');
    expect(Object.keys(created)).not.toContain('200');
    const loggedOut = doc.paths!['/autenticacao/sair']!.post!.responses!;
    expect(loggedOut['204']).toBeDefined();
    expect(loggedOut['204'].content).toBeUndefined();
  });

  it('matches the reviewed snapshot (a contract change shows in review)', async () => {
    await expect(JSON.stringify(doc, null, 2)).toMatchFileSnapshot('./__snapshots__/openapi.json');
  });

  it('documents the statuses and headers every operation can answer (extensions.md §F)', () => {
    const byKey = new Map(
      restRoutes.map((route) => [`${route.rest.method} ${route.meta.openapi!.path}`, route]),
    );
    type Response = { headers?: Record<string, unknown> };
    for (const { key, operation } of operations) {
      const route = byKey.get(key);
      if (!route) continue; // the host's probes
      const responses = operation.responses as Record<string, Response>;
      expect(Object.keys(responses), key).toEqual(expect.arrayContaining(['429', '503']));
      expect(Object.keys(responses['429']!.headers ?? {}), key).toContain('Retry-After');
      expect(Object.keys(responses['503']!.headers ?? {}), key).toContain('Retry-After');
      if (['POST', 'PATCH', 'PUT'].includes(route.rest.method)) {
        expect(Object.keys(responses), key).toEqual(expect.arrayContaining(['413', '415']));
      }
      if (responses['401'])
        expect(Object.keys(responses['401'].headers ?? {}), key).toContain('WWW-Authenticate');
      const success = responses[String(route.rest.successStatus)]!;
      if (route.rest.successStatus === 201)
        expect(Object.keys(success.headers ?? {}), key).toContain('Location');
      if (route.meta.staticList) {
        expect(responses['304'], key).toBeDefined();
        expect(Object.keys(success.headers ?? {}), key).toContain('ETag');
      }
      if (route.meta.rateLimit)
        expect(Object.keys(success.headers ?? {}), key).toContain('RateLimit-Remaining');
      const params = JSON.stringify(operation.parameters ?? []);
      expect(params.includes('IdempotencyKey'), key).toBe(
        route.rest.successStatus === 201 && route.meta.openapi?.protect !== false,
      );
    }
  });
});
