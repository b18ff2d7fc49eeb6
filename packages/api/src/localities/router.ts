import {
  cidadesInput,
  cidadesList,
  cidadesResponse,
  estadosList,
  estadosResponse,
} from '@campus/core';
import { z } from 'zod';
import { domainProcedures, router } from '../trpc';

const { publicProcedure } = domainProcedures('pt');

const tags = ['Localidades'];
const CACHED =
  'Lista estática: responde com `ETag` e `Cache-Control`; `If-None-Match` com o mesmo ETag → 304.';

export const localitiesRouter = router({
  estados: publicProcedure
    .meta({
      staticList: () => estadosList,
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/localidades/estados',
        operationId: 'listEstados',
        tags,
        summary: 'Os 27 estados (UF e nome), em ordem alfabética',
        description: CACHED,
        protect: false,
        errorResponses: {},
      },
    })
    .input(z.void())
    .output(estadosResponse)
    .query(() => estadosList.body),

  cidades: publicProcedure
    .meta({
      staticList: ({ uf }) => (uf === undefined ? undefined : cidadesList(uf.trim().toUpperCase())),
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/localidades/estados/{uf}/cidades',
        operationId: 'listCidades',
        tags,
        summary: 'Os municípios de um estado (IBGE), em ordem alfabética',
        description: `${CACHED} A UF pode vir em minúsculas.`,
        protect: false,
        errorResponses: { 400: 'UF inválida' },
      },
    })
    .input(cidadesInput)
    .output(cidadesResponse)
    // cidadesInput has checked the UF, so the list exists.
    .query(({ input }) => cidadesList(input.uf)!.body),
});
