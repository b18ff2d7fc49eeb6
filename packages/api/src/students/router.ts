import {
  emailAvailabilityInput,
  emailAvailabilityResponse,
  nacionalidadesList,
  nacionalidadesResponse,
  nicknameAvailabilityInput,
  nicknameAvailabilityResponse,
  opcoesAcademicasList,
  opcoesAcademicasResponse,
  registerStudentInput,
  studentResponse,
} from '@campus/core';
import { z } from 'zod';
import { passwordCheck } from '../auth/password-checks';
import { domainProcedures, router, type Meta } from '../trpc';

const { publicProcedure } = domainProcedures('pt');

const tags = ['Cadastro de estudantes'];
const CACHED =
  'Lista estática: responde com `ETag` e `Cache-Control`; `If-None-Match` com o mesmo ETag → 304.';

/**
 * What every sign-up (student, teacher) declares besides its document: 409 for a taken e-mail or
 * nickname, the per-address auth limit, and 201 with the new account's record as `Location`.
 */
export const signUpPolicy = {
  reasons: { 409: ['EMAIL_IN_USE', 'NICKNAME_IN_USE'], 503: ['SERVER_BUSY'] },
  rateLimit: 'auth',
  successStatus: 201,
  location: '/admin/usuarios/{output.dados.id}',
} as const satisfies Meta;

export const studentsRouter = router({
  register: publicProcedure
    .meta({
      ...signUpPolicy,
      openapi: {
        method: 'POST',
        path: '/autenticacao/cadastro',
        operationId: 'registerStudent',
        tags,
        summary: 'Cadastrar um estudante',
        description:
          'Cria uma conta ALUNO ativa. `email` é guardado em minúsculas, `estado` em maiúsculas, `cidade` na grafia ' +
          'oficial do IBGE e `escolaridade` como código. Todos os problemas dos campos vêm juntos em `issues`.',
        successDescription: 'Estudante cadastrado',
        protect: false,
        errorResponses: {
          400: 'Dados inválidos',
          409: 'E-mail (EMAIL_IN_USE) ou nickname (NICKNAME_IN_USE) já cadastrado',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(registerStudentInput)
    .output(studentResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Cadastro realizado com sucesso',
      dados: await passwordCheck(ctx, undefined, () => ctx.services.students.register(input)),
    })),

  nicknameAvailable: publicProcedure
    .meta({
      // Whether an e-mail or nickname has an account: bounded like the registration it serves.
      rateLimit: 'auth',
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/nickname-disponivel',
        operationId: 'checkNicknameAvailability',
        tags,
        summary: 'Saber se um nickname está livre',
        protect: false,
        errorResponses: { 400: 'Nickname em formato inválido' },
      },
    })
    .input(nicknameAvailabilityInput)
    .output(nicknameAvailabilityResponse)
    .query(async ({ ctx, input }) => {
      const disponivel = await ctx.services.students.isNicknameAvailable(input.nickname);
      return {
        mensagem: disponivel ? 'Nickname disponível' : 'Nickname já está em uso',
        dados: { nickname: input.nickname, disponivel },
      };
    }),

  emailAvailable: publicProcedure
    .meta({
      // Whether an e-mail or nickname has an account: bounded like the registration it serves.
      rateLimit: 'auth',
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/email-disponivel',
        operationId: 'checkEmailAvailability',
        tags,
        summary: 'Saber se um e-mail está livre (sem distinguir maiúsculas)',
        protect: false,
        errorResponses: { 400: 'E-mail inválido' },
      },
    })
    .input(emailAvailabilityInput)
    .output(emailAvailabilityResponse)
    .query(async ({ ctx, input }) => {
      const disponivel = await ctx.services.students.isEmailAvailable(input.email);
      return {
        mensagem: disponivel ? 'E-mail disponível' : 'E-mail já cadastrado',
        dados: { email: input.email, disponivel },
      };
    }),

  nacionalidades: publicProcedure
    .meta({
      staticList: () => nacionalidadesList,
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/nacionalidades',
        operationId: 'listNacionalidades',
        tags,
        summary: 'Nacionalidades, "Brasileira" primeiro e as demais em ordem alfabética',
        description: CACHED,
        protect: false,
        errorResponses: {},
      },
    })
    .input(z.void())
    .output(nacionalidadesResponse)
    .query(() => nacionalidadesList.body),

  opcoesAcademicas: publicProcedure
    .meta({
      staticList: () => opcoesAcademicasList,
      openapi: {
        method: 'GET',
        path: '/autenticacao/alunos/opcoes-academicas',
        operationId: 'listOpcoesAcademicas',
        tags,
        summary: 'Escolaridades, instituições, cursos e períodos sugeridos no cadastro',
        description: `${CACHED} Instituição, curso e período continuam texto livre no cadastro.`,
        protect: false,
        errorResponses: {},
      },
    })
    .input(z.void())
    .output(opcoesAcademicasResponse)
    .query(() => opcoesAcademicasList.body),
});
