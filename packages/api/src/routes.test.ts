import { describe, expect, it } from 'vitest';
import { allowedMethods, matchRestRoute, resolveLocation, restRoutes, routes } from './routes';

const concrete = (template: string) =>
  template.replace(/\{[^}]+\}/g, '3f1b7f9e-0000-4000-8000-000000000000');

describe('REST route table', () => {
  it('every documented route answers its own path (declaration orders: route-order.test.ts)', () => {
    // A literal path (e.g. /autenticacao/alunos/nacionalidades) must never be taken by a route
    // with a parameter in that place, and vice versa.
    for (const route of restRoutes) {
      const found = matchRestRoute(route.rest.method, concrete(route.rest.template));
      expect(found?.route.path, `${route.rest.method} ${route.rest.template}`).toBe(route.path);
    }
  });

  it('has no two routes for the same method and path', () => {
    const keys = restRoutes.map(
      (r) => `${r.rest.method} ${r.rest.template.replace(/\{[^}]+\}/g, '{}')}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('takes a trailing slash, decodes parameters, and answers HEAD with the GET route', () => {
    expect(matchRestRoute('GET', '/exemplos/')?.route.path).toBe('examples.list');
    expect(matchRestRoute('GET', '/exemplos/a%20b')?.params).toEqual({ id: 'a b' });
    expect(matchRestRoute('HEAD', '/exemplos')?.route.path).toBe('examples.list');
    expect(matchRestRoute('GET', '/exemplos/%E0%A4%A')).toBeUndefined();
    expect(matchRestRoute('PUT', '/exemplos')).toBeUndefined();
  });
});

describe('route policy', () => {
  it('every procedure declares its reply language', () => {
    const missing = routes
      .filter((route) => route.meta.language === undefined)
      .map((route) => route.path);
    expect(missing).toEqual([]);
  });

  it('login, every other password check (change, deletion), registrations with their availability checks and password recovery, and nothing else, count against the authentication limit (a refresh counts per session instead)', () => {
    const limited = routes
      .filter((route) => route.meta.rateLimit === 'auth')
      .map((route) => route.path);
    expect(limited.sort()).toEqual([
      'accounts.changePassword',
      'accounts.deleteAccount',
      'accounts.forgotPassword',
      'accounts.registerTeacher',
      'accounts.resetPassword',
      'auth.login',
      'students.emailAvailable',
      'students.nicknameAvailable',
      'students.register',
    ]);
  });

  it('static lists are REST GETs with a precomputed body', () => {
    const lists = routes.filter((route) => route.meta.staticList);
    expect(lists.map((route) => route.path).sort()).toEqual([
      'localities.cidades',
      'localities.estados',
      'matches.sports',
      'students.nacionalidades',
      'students.opcoesAcademicas',
    ]);
    for (const route of lists) expect(route.rest?.method, route.path).toBe('GET');
    expect(
      lists.find((r) => r.path === 'localities.cidades')!.meta.staticList!({ uf: 'sp' })?.body,
    ).toBeDefined();
    expect(
      lists.find((r) => r.path === 'localities.cidades')!.meta.staticList!({ uf: 'XX' }),
    ).toBeUndefined();
  });

  it('REST success statuses: 201 only on POST, 202 only on POST, 204 only on POST, DELETE and PATCH /autenticacao/senha', () => {
    for (const route of restRoutes) {
      if (route.rest.successStatus === 201) expect(route.rest.method, route.path).toBe('POST');
      if (route.rest.successStatus === 202) expect(route.rest.method, route.path).toBe('POST');
      // docs/contract/accounts.md: the password change answers 204.
      if (route.rest.successStatus === 204 && route.path !== 'accounts.changePassword')
        expect(['POST', 'DELETE'], route.path).toContain(route.rest.method);
    }
  });
});

describe('REST conventions from the route list', () => {
  it('every 201 names the created resource, at a path the REST routes serve with GET or DELETE', () => {
    const creating = restRoutes.filter((r) => r.rest.successStatus === 201);
    expect(creating.length).toBeGreaterThan(0);
    for (const route of creating) {
      const template = route.meta.location;
      expect(template, route.path).toBeDefined();
      const ids = {
        id: '3f1b7f9e-0000-4000-8000-000000000000',
        dados: { id: '3f1b7f9e-0000-4000-8000-000000000001' },
      };
      const path = resolveLocation(template!, ids, ids);
      expect(path, route.path).toBeDefined();
      expect(
        allowedMethods(path!).some((m) => m === 'GET' || m === 'DELETE'),
        `${route.path} → ${path}`,
      ).toBe(true);
    }
  });

  it('fills a location from the input and the answer, encoded, and refuses a missing value', () => {
    expect(resolveLocation('/post/{input.id}/like', { id: 'a/b' }, undefined)).toBe(
      '/post/a%2Fb/like',
    );
    expect(resolveLocation('/exemplos/{output.dados.id}', {}, { dados: { id: 7 } })).toBe(
      '/exemplos/7',
    );
    expect(resolveLocation('/post/{output.id}', {}, {})).toBeUndefined();
  });

  it('knows the methods of a path, for 405 and Allow', () => {
    expect(allowedMethods('/exemplos')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods('/post/3f1b7f9e-0000-4000-8000-000000000000/like')).toEqual([
      'DELETE',
      'GET',
      'HEAD',
      'POST',
    ]);
    expect(allowedMethods('/no/such/path')).toEqual([]);
  });
});
