import { buildOpenApiDocument, restRoutes, routes } from '@campus/api';
import { REASONS } from '@campus/core';
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
        const schema = response.content['application/json'].schema as { allOf: unknown[] };
        expect(schema.allOf[0], key).toEqual({ $ref: '#/components/schemas/Error' });
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

  it('documents the statuses and headers every operation can answer (docs/contract/protocol.md)', () => {
    const byKey = new Map(
      restRoutes.map((route) => [`${route.rest.method} ${route.meta.openapi!.path}`, route]),
    );
    type Response = { headers?: Record<string, unknown> };
    for (const { key, operation } of operations) {
      const route = byKey.get(key);
      if (!route) continue; // the host's probes
      const responses = operation.responses as Record<string, Response>;
      // A static list is served from memory: it cannot be a 503.
      const statuses = route.meta.staticList ? ['429'] : ['429', '503'];
      expect(Object.keys(responses), key).toEqual(expect.arrayContaining(statuses));
      for (const status of statuses)
        expect(Object.keys(responses[status]!.headers ?? {}), key).toContain('Retry-After');
      if (!route.meta.staticList) {
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

  it('names every operation with a unique verb-first camelCase operationId', () => {
    const ids = operations.map(({ operation }) => operation.operationId ?? '');
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(
        /^(list|get|create|update|delete|check|register|login|logout|refresh|comment|like|unlike|attend|withdraw|report|subscribe|unsubscribe|switch|approve|reject|follow|unfollow|change|remove|join|leave|request|reset|export)[A-Z]?[A-Za-z]*$/,
      );
  });

  it('gives every request body a valid example, path parameters aside', () => {
    // Path parameters that are not ids: a valid value of each.
    const pathExample: Record<string, string> = { uf: 'SP', tipo: 'POST' };
    for (const route of restRoutes) {
      const operation =
        doc.paths![route.meta.openapi!.path]![route.rest.method.toLowerCase() as 'post']!;
      const media = (operation.requestBody as { content?: Record<string, unknown> } | undefined)
        ?.content?.['application/json'] as { example?: Record<string, unknown> } | undefined;
      if (!media) continue;
      expect(media.example, route.path).toBeDefined();
      const params = Object.fromEntries(
        route.rest.segments.flatMap((s) =>
          'param' in s
            ? [[s.param, pathExample[s.param] ?? '3f1b7f9e-0000-4000-8000-000000000000']]
            : [],
        ),
      );
      const input = route.procedure._def.inputs.at(-1) as unknown as {
        safeParse: (v: unknown) => { success: boolean; error?: unknown };
      };
      const parsed = input.safeParse({ ...media.example, ...params });
      expect(parsed.success, `${route.path}: ${String(parsed.error)}`).toBe(true);
    }
  });

  it('closes `reason` per operation and status, and every reason is answered somewhere', () => {
    const declared = new Set<string>();
    for (const route of routes) {
      for (const [status, reasons] of Object.entries(route.meta.reasons ?? {})) {
        const responses = route.meta.openapi?.errorResponses as Record<string, string> | undefined;
        expect(Object.keys(responses ?? {}), `${route.path} declares ${status}`).toContain(status);
        for (const reason of reasons) declared.add(reason);
      }
    }
    const documented = new Set(
      JSON.stringify(doc.paths)
        .match(/"enum":\[[^\]]*\]/g)!
        .flatMap((list) => JSON.parse(list.slice(7)) as string[]),
    );
    for (const reason of REASONS) expect(documented.has(reason), reason).toBe(true);
    expect(doc.components?.schemas?.Error).toMatchObject({
      properties: { reason: { enum: [...REASONS] } },
    });
  });

  it('names the shared shapes as components', () => {
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['Error', 'UserRef', 'MatchUser', 'Usuario', 'PageMeta', 'Metadados']),
    );
  });
});
