import { describe, expect, it } from 'vitest';
import { matchRestRoute, restRoutes } from './rest-routes';

const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '3f1b7f9e-0000-4000-8000-000000000000');

describe('REST route table', () => {
  it('every documented route answers its own path, whatever the declaration order', () => {
    // A literal path (e.g. /autenticacao/alunos/nacionalidades) must never be taken by a route
    // with a parameter in that place, and vice versa.
    for (const route of restRoutes) {
      const found = matchRestRoute(route.method, concrete(route.template));
      expect(found?.route.procedurePath, `${route.method} ${route.template}`).toBe(route.procedurePath);
    }
  });

  it('has no two routes for the same method and path', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.template.replace(/\{[^}]+\}/g, '{}')}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('takes a trailing slash, decodes parameters, and answers HEAD with the GET route', () => {
    expect(matchRestRoute('GET', '/exemplos/')?.route.procedurePath).toBe('examples.list');
    expect(matchRestRoute('GET', '/exemplos/a%20b')?.params).toEqual({ id: 'a b' });
    expect(matchRestRoute('HEAD', '/exemplos')?.route.procedurePath).toBe('examples.list');
    expect(matchRestRoute('GET', '/exemplos/%E0%A4%A')).toBeUndefined();
    expect(matchRestRoute('PUT', '/exemplos')).toBeUndefined();
  });
});
