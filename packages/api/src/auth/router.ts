import { avatarResponse, loginInput, refreshTokenInput, sessionResponse } from '@campus/core';
import { z } from 'zod';
import { countKeyed, domainProcedures, router } from '../trpc';
import { passwordCheck, refreshKey } from './password-checks';

const { authedProcedure, publicProcedure } = domainProcedures('pt');

const tags = ['Autenticação'];

export const authRouter = router({
  login: publicProcedure
    .meta({
      reasons: {
        401: ['INVALID_CREDENTIALS'],
        403: ['ACCOUNT_NOT_ACTIVE', 'ACCOUNT_PENDING'],
        503: ['SERVER_BUSY'],
      },
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/autenticacao/login',
        operationId: 'login',
        tags,
        summary: 'Entrar com e-mail e senha',
        protect: false,
        errorResponses: {
          400: 'Dados inválidos',
          401: 'E-mail ou senha inválidos',
          403: 'Conta não está ativa (ACCOUNT_NOT_ACTIVE) ou aguardando aprovação (ACCOUNT_PENDING)',
          503: 'Servidor ocupado com verificações de senha (SERVER_BUSY); tente de novo após Retry-After',
        },
      },
    })
    .input(loginInput)
    .output(sessionResponse)
    .mutation(async ({ ctx, input }) => ({
      mensagem: 'Login realizado com sucesso',
      dados: await passwordCheck(ctx, input.email, () => ctx.services.auth.login(input)),
    })),

  refresh: publicProcedure
    .meta({
      reasons: {
        401: ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'REFRESH_TOKEN_REUSED', 'ACCOUNT_NOT_ACTIVE'],
      },
      openapi: {
        method: 'POST',
        path: '/autenticacao/atualizar-token',
        operationId: 'refreshSession',
        tags,
        summary: 'Trocar um refresh token por um novo par de tokens',
        description:
          'O refresh token apresentado deixa de valer (rotação). Reapresentar um token já trocado revoga toda a cadeia.',
        protect: false,
        errorResponses: {
          400: 'Dados inválidos',
          401: 'Refresh token inválido, expirado ou reutilizado',
        },
      },
    })
    .input(refreshTokenInput)
    .output(sessionResponse)
    .mutation(async ({ ctx, input }) => {
      // Per session, not per address: a campus behind one NAT refreshes on every page load.
      await countKeyed(ctx, 'refresh', refreshKey(input.refreshToken));
      return {
        mensagem: 'Token atualizado com sucesso',
        dados: await ctx.services.auth.refresh(input.refreshToken),
      };
    }),

  logout: authedProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: 'POST',
        path: '/autenticacao/sair',
        operationId: 'logout',
        tags,
        summary: 'Sair: o refresh token informado deixa de valer',
        successDescription: 'Sessão encerrada',
        errorResponses: { 400: 'Dados inválidos', 401: 'Token ausente ou inválido' },
      },
    })
    .input(refreshTokenInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.auth.logout(ctx.actor, input.refreshToken);
    }),

  me: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/autenticacao/usuario-atual',
        operationId: 'getCurrentUser',
        tags,
        summary: 'O usuário do token, com seu avatar (avatarUrl, null quando não há)',
        errorResponses: { 401: 'Token ausente ou inválido' },
      },
    })
    .input(z.void())
    .output(avatarResponse)
    .query(async ({ ctx }) => {
      const [usuario, avatarUrl] = await Promise.all([
        ctx.services.auth.me(ctx.actor),
        ctx.services.media.avatarUrl(ctx.actor.id),
      ]);
      return { mensagem: 'Usuário atual', dados: { ...usuario, avatarUrl } };
    }),
});
