import {
  cidadesList,
  estadosList,
  nacionalidadesList,
  opcoesAcademicasList,
  type PrecomputedResponse,
} from '@campus/core';
import { localitiesRouter } from '../localities/router';
import type { Meta } from '../trpc';
import { studentsRouter } from './router';

/**
 * The static lists' REST routes, for a host that answers them from the precomputed bodies with
 * ETag/304 (the REST adapter cannot). Paths are read from the procedures' meta, so the served path
 * is always the documented one. `resolve` gets the path parameters; undefined means "not a
 * static answer" (an unknown UF): the host passes the request on to the procedure, which answers 400.
 */
export interface StaticListRoute {
  /** OpenAPI form, e.g. `/autenticacao/alunos/localidades/estados/{uf}/cidades`. */
  path: string;
  resolve(params: Record<string, unknown>): PrecomputedResponse<unknown> | undefined;
}

const pathOf = (procedure: { _def: { meta?: unknown } }): string => {
  const path = (procedure._def.meta as Meta | undefined)?.openapi?.path;
  if (!path) throw new Error('static list procedure without an OpenAPI path');
  return path;
};

export const staticListRoutes: readonly StaticListRoute[] = [
  { path: pathOf(studentsRouter.nacionalidades), resolve: () => nacionalidadesList },
  { path: pathOf(studentsRouter.opcoesAcademicas), resolve: () => opcoesAcademicasList },
  { path: pathOf(localitiesRouter.estados), resolve: () => estadosList },
  {
    path: pathOf(localitiesRouter.cidades),
    resolve: ({ uf }) =>
      typeof uf === 'string' ? cidadesList(uf.trim().toUpperCase()) : undefined,
  },
];
