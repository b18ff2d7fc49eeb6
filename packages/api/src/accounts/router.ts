import {
  changePasswordInput,
  deleteAccountInput,
  envelope,
  forgotPasswordInput,
  personalDataResponse,
  profileResponse,
  registerTeacherInput,
  resetPasswordInput,
  studentResponse,
  updateProfileInput,
} from '@campus/core';
import { z } from 'zod';
import { signUpPolicy } from '../students/router';
import { passwordCheck } from '../auth/password-checks';
import { bearerToken, domainProcedures, router } from '../trpc';

const { authedProcedure, publicProcedure } = domainProcedures('pt');

const tags = ['Conta'];
const messageOnly = envelope(z.null());

/** Teacher sign-up, password recovery and change, profile, LGPD export and deletion (§E). */
export const accountsRouter = router({
  registerTeacher: publicProcedure
    .meta({
      ...signUpPolicy,
      openapi: {
        method: 'POST',
        path: '/autenticacao/cadastro/professor',
        operationId: 'registerTeacher',
        tags,
        summary: 'Cadastrar um professor (aguarda aprovação)',
        description:
          'Cria uma conta PROFESSOR com status PENDENTE: o login responde 403 ACCOUNT_PENDING até um ' +
          'administrador aprovar (PATCH /admin/usuarios/{id}/status → ATIVO), e a aprovação é avisada por e-mail.',
        successDescription: 'Professor cadastrado, aguardando aprovação',
        protect: false,
        errorResponses: {
          400: 'Dados inválidos',
          409: 'E-mail ou nickname já cadastrado',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(registerTeacherInput)
    .output(studentResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Cadastro enviado: aguarde a aprovação de um administrador',
      dados: await passwordCheck(ctx, undefined, () =>
        ctx.services.accounts.registerTeacher(input),
      ),
    })),

  forgotPassword: publicProcedure
    .meta({
      rateLimit: 'auth',
      successStatus: 202,
      openapi: {
        method: 'POST',
        path: '/autenticacao/recuperar-senha',
        operationId: 'requestPasswordReset',
        tags,
        summary: 'Pedir um link de redefinição de senha por e-mail',
        description:
          'Responde 202 exista ou não uma conta com o e-mail, no mesmo tempo. Havendo conta, um e-mail com um ' +
          'link de uso único, válido por 1 hora, é enviado.',
        successDescription: 'Pedido aceito',
        protect: false,
        errorResponses: { 400: 'Dados inválidos' },
      },
    })
    .input(forgotPasswordInput)
    .output(messageOnly)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.accounts.requestPasswordReset(input.email);
      return {
        mensagem: 'Se houver uma conta com este e-mail, enviaremos um link para redefinir a senha',
        dados: null,
      };
    }),

  resetPassword: publicProcedure
    .meta({
      reasons: { 400: ['RESET_TOKEN_INVALID'], 503: ['SERVER_BUSY'] },
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/autenticacao/redefinir-senha',
        operationId: 'resetPassword',
        tags,
        summary: 'Definir uma nova senha com o token do e-mail',
        description: 'O token vale uma vez, por 1 hora. Todas as sessões da conta terminam.',
        protect: false,
        errorResponses: {
          400: 'Dados inválidos, ou token inválido, expirado ou já usado',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(resetPasswordInput)
    .output(messageOnly)
    .mutation(async ({ ctx, input }) => {
      await passwordCheck(ctx, undefined, () => ctx.services.accounts.resetPassword(input));
      return { mensagem: 'Senha redefinida: entre com a nova senha', dados: null };
    }),

  changePassword: authedProcedure
    .meta({
      reasons: { 403: ['WRONG_PASSWORD'], 503: ['SERVER_BUSY'] },
      rateLimit: 'auth',
      successStatus: 204,
      openapi: {
        method: 'PATCH',
        path: '/autenticacao/senha',
        operationId: 'changePassword',
        tags,
        summary: 'Trocar a senha',
        description:
          'As outras sessões da conta terminam. Esta continua pelo seu refresh token: o access token usado aqui é recusado (401) a partir da troca; renove-o em `/autenticacao/atualizar-token`.',
        successDescription: 'Senha trocada',
        errorResponses: {
          400: 'Dados inválidos',
          401: 'Token ausente ou inválido',
          403: 'Senha atual incorreta',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(changePasswordInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const session = ctx.services.auth.claims(bearerToken(ctx.authorization)).sid;
      const { email } = await ctx.services.auth.me(ctx.actor);
      await passwordCheck(ctx, email, () =>
        ctx.services.accounts.changePassword(ctx.actor, input, session),
      );
    }),

  updateProfile: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/autenticacao/usuario-atual',
        operationId: 'updateCurrentUser',
        tags,
        summary: 'Editar o próprio perfil',
        description:
          'nome, instituicao, curso, periodo, estado e cidade, com as regras do cadastro.',
        errorResponses: { 400: 'Dados inválidos', 401: 'Token ausente ou inválido' },
      },
    })
    .input(updateProfileInput)
    .output(profileResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Perfil atualizado',
      dados: await ctx.services.accounts.updateProfile(ctx.actor, input),
    })),

  exportData: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/autenticacao/meus-dados',
        operationId: 'exportPersonalData',
        tags,
        summary: 'Todos os meus dados pessoais (LGPD, art. 18)',
        errorResponses: { 401: 'Token ausente ou inválido' },
      },
    })
    .input(z.void())
    .output(personalDataResponse)
    .query(async ({ ctx }) => ({
      mensagem: 'Seus dados',
      dados: await ctx.services.accounts.exportData(ctx.actor),
    })),

  deleteAccount: authedProcedure
    .meta({
      reasons: { 403: ['WRONG_PASSWORD'], 409: ['LAST_OWNER'], 503: ['SERVER_BUSY'] },
      rateLimit: 'auth',
      successStatus: 204,
      bodyOnDelete: true,
      openapi: {
        method: 'DELETE',
        path: '/autenticacao/conta',
        operationId: 'deleteAccount',
        tags,
        summary: 'Excluir a própria conta (LGPD, art. 18)',
        description:
          'Confirma com a senha (no corpo JSON). Sessões terminam, dados pessoais são apagados, e-mail e nickname ' +
          'ficam livres; posts e comentários ficam, como de "Usuário removido". O último dono de um grupo ' +
          'precisa passá-lo adiante antes (409 LAST_OWNER).',
        successDescription: 'Conta excluída',
        errorResponses: {
          400: 'Dados inválidos',
          401: 'Token ausente ou inválido',
          403: 'Senha incorreta',
          409: 'Último dono de um grupo',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(deleteAccountInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { email } = await ctx.services.auth.me(ctx.actor);
      await passwordCheck(ctx, email, () =>
        ctx.services.accounts.deleteAccount(ctx.actor, input.senha),
      );
    }),
});
