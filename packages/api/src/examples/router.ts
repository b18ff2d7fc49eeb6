import {
  createExampleInput,
  exampleIdInput,
  exampleListResponse,
  exampleResponse,
  listExamplesInput,
} from '@campus/core';
import { domainProcedures, router } from '../trpc';

const { authedProcedure } = domainProcedures('pt');

const tags = ['Exemplos'];

/** The reference slice: schema (core) → service (core) → procedure with REST meta (here). */
export const examplesRouter = router({
  create: authedProcedure
    .meta({
      successStatus: 201,
      location: '/exemplos/{output.dados.id}',
      openapi: {
        method: 'POST',
        path: '/exemplos',
        operationId: 'createExample',
        tags,
        summary: 'Criar um exemplo',
        successDescription: 'Exemplo criado',
        errorResponses: { 400: 'Dados inválidos', 401: 'Token ausente ou inválido' },
      },
    })
    .input(createExampleInput)
    .output(exampleResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Exemplo criado com sucesso',
      dados: await ctx.services.examples.create(input, ctx.actor),
    })),

  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/exemplos',
        operationId: 'listExamples',
        tags,
        summary: 'Listar exemplos, mais recentes primeiro',
        errorResponses: { 400: 'Paginação inválida', 401: 'Token ausente ou inválido' },
      },
    })
    .input(listExamplesInput)
    .output(exampleListResponse)
    .query(({ ctx, input }) => ctx.services.examples.list(input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/exemplos/{id}',
        operationId: 'getExample',
        tags,
        summary: 'Ler um exemplo',
        errorResponses: { 401: 'Token ausente ou inválido', 404: 'Exemplo não encontrado' },
      },
    })
    .input(exampleIdInput)
    .output(exampleResponse)
    .query(async ({ ctx, input }) => ({
      mensagem: 'Exemplo encontrado',
      dados: await ctx.services.examples.get(input.id),
    })),
});
