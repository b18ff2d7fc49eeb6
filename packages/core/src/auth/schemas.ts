import { z } from 'zod';
import { PERFIS, USER_STATUSES } from '../users/enums';
import { envelope } from '../common/envelope';
import { LIMITS } from '../common/limits';

export const emailSchema = z
  .string({ error: 'obrigatório' })
  .trim()
  .max(LIMITS.user.email.max, `deve ter no máximo ${LIMITS.user.email.max} caracteres`)
  .pipe(z.email('e-mail inválido'))
  .transform((email) => email.toLowerCase());

export const loginInput = z
  .object({
    email: emailSchema,
    senha: z
      .string({ error: 'obrigatório' })
      .min(1, 'obrigatório')
      .max(LIMITS.user.senha.max, `deve ter no máximo ${LIMITS.user.senha.max} caracteres`),
  })
  .meta({ examples: [{ email: 'maria.silva@campus.test', senha: 'senha-forte-123' }] });

export const refreshTokenInput = z
  .object({
    refreshToken: z
      .string({ error: 'obrigatório' })
      .min(1, 'obrigatório')
      .max(LIMITS.refreshToken.max, 'token inválido'),
  })
  .meta({ examples: [{ refreshToken: 'kq3b9XzR1v0sYl2m8NwE5tGf7hJcPa4dUo6iQeLrT1w' }] });

/** The account as its owner and the administrators see it. */
export const usuarioSchema = z
  .object({
    id: z.uuid(),
    nome: z.string(),
    nickname: z.string(),
    email: z.string(),
    perfil: z.enum(PERFIS),
    status: z.enum(USER_STATUSES),
  })
  .meta({ id: 'Usuario' });
export type Usuario = z.infer<typeof usuarioSchema>;

export const sessionSchema = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    /** Lifetime of the access token in seconds. */
    expiresIn: z.number().int(),
    usuario: usuarioSchema,
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const sessionResponse = envelope(sessionSchema).meta({ id: 'SessionResponse' });
export const usuarioResponse = envelope(usuarioSchema).meta({ id: 'UsuarioResponse' });
