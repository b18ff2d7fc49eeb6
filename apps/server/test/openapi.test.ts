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
});
