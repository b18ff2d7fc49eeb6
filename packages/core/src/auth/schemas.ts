import { z } from 'zod';
import { envelope } from '../common/envelope';
import { LIMITS } from '../common/limits';
import { usuarioSchema } from '../users/schemas';

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

export { usuarioSchema, type Usuario } from '../users/schemas';

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
