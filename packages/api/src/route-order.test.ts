import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restRouteMatcher, routesOf, type RestRoute } from './routes';
import { publicProcedure, router } from './trpc';

/** A GET procedure documented at `path`; its tRPC name says which one answered. */
const get = (path: `/${string}`) =>
  publicProcedure
    .meta({ openapi: { method: 'GET', path } })
    .input(z.object({ id: z.string().optional(), uf: z.string().optional() }))
    .output(z.string())
    .query(() => path);

/**
 * Literal and parameter routes that compete for the same paths: `/aluno/nacionalidades` against
 * `/aluno/{id}`, and, one level down, `/aluno/{id}/cidades` against `/aluno/estados/cidades`.
 */
const declarations = {
  byId: get('/aluno/{id}'),
  nationalities: get('/aluno/nacionalidades'),
  citiesOf: get('/aluno/{id}/cidades'),
  allCities: get('/aluno/estados/cidades'),
  cityOf: get('/aluno/estados/{uf}'),
};
type Name = keyof typeof declarations;

/** A real tRPC router with the procedures declared in `order`, and a matcher over its REST routes. */
function matcherFor(order: Name[]) {
  const procedures = Object.fromEntries(order.map((name) => [name, declarations[name]]));
  const list = routesOf(router(procedures)).filter((r): r is RestRoute => r.rest !== undefined);
  expect(list.map((r) => r.path)).toEqual(order);
  const match = restRouteMatcher(list);
  return (path: string) => {
    const found = match('GET', path);
    return found && { name: found.route.path, params: found.params };
  };
}

const names = Object.keys(declarations) as Name[];
const orders: Array<[string, Name[]]> = [
  ['parameters first', names],
  ['literals first', [...names].reverse()],
  ['interleaved', ['nationalities', 'citiesOf', 'byId', 'cityOf', 'allCities']],
];

describe.each(orders)('REST matching with %s', (_label, order) => {
  const match = matcherFor(order);

  it('a literal segment wins over a parameter in the same place', () => {
    expect(match('/aluno/nacionalidades')).toEqual({ name: 'nationalities', params: {} });
    expect(match('/aluno/estados/cidades')).toEqual({ name: 'allCities', params: {} });
  });

  it('any other value of that segment goes to the parameter route, decoded', () => {
    expect(match('/aluno/42')).toEqual({ name: 'byId', params: { id: '42' } });
    expect(match('/aluno/nacionalidade')).toEqual({
      name: 'byId',
      params: { id: 'nacionalidade' },
    });
    expect(match('/aluno/a%20b/cidades')).toEqual({ name: 'citiesOf', params: { id: 'a b' } });
    expect(match('/aluno/estados/sp')).toEqual({ name: 'cityOf', params: { uf: 'sp' } });
  });

  it('a path of another length matches nothing', () => {
    expect(match('/aluno')).toBeUndefined();
    expect(match('/aluno/estados/cidades/sp')).toBeUndefined();
  });
});

const permutations = (items: Name[]): Name[][] =>
  items.length <= 1
    ? [items]
    : items.flatMap((item, i) =>
        permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
      );

const probes = [
  '/aluno/nacionalidades',
  '/aluno/x',
  '/aluno/estados',
  '/aluno/estados/cidades',
  '/aluno/estados/rj',
  '/aluno/x/cidades',
  '/aluno/nacionalidades/cidades',
];

const answers = (order: Name[]) => {
  const match = matcherFor(order);
  return probes.map((probe) => `${probe} → ${match(probe)?.name}`);
};

describe('REST matching is the same in every declaration order', () => {
  it('answers every probe alike for all 120 orders of the five routes', () => {
    const expected = answers(names);
    for (const order of permutations(names))
      expect(answers(order), order.join(' ')).toEqual(expected);
  });

  it('with as many literals on both sides, the leftmost literal wins, in every order', () => {
    // Without /aluno/estados/cidades, that path is claimed by /aluno/{id}/cidades and by
    // /aluno/estados/{uf}, two literals each: the one whose literal comes first takes it.
    const four = names.filter((name) => name !== 'allCities');
    for (const order of permutations(four))
      expect(matcherFor(order)('/aluno/estados/cidades'), order.join(' ')).toEqual({
        name: 'cityOf',
        params: { uf: 'cidades' },
      });
  });
});
