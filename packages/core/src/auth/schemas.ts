import { z } from 'zod';
import { PERFIS, USER_STATUSES } from '../users/table';
import { envelope } from '../common/envelope';

export const emailSchema = z
  .string({ error: 'obrigatório' })
  .trim()
  .max(254, 'deve ter no máximo 254 caracteres')
  .pipe(z.email('e-mail inválido'))
  .transform((email) => email.toLowerCase());

export const loginInput = z.object({
  email: emailSchema,
  senha: z
    .string({ error: 'obrigatório' })
    .min(1, 'obrigatório')
    .max(128, 'deve ter no máximo 128 caracteres'),
});

export const refreshTokenInput = z.object({
  refreshToken: z.string({ error: 'obrigatório' }).min(1, 'obrigatório').max(200, 'token inválido'),
});

/** The account as its owner and the administrators see it. */
export const usuarioSchema = z.object({
  id: z.uuid(),
  nome: z.string(),
  nickname: z.string(),
  email: z.string(),
  perfil: z.enum(PERFIS),
  status: z.enum(USER_STATUSES),
});
export type Usuario = z.infer<typeof usuarioSchema>;

export const sessionSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  /** Lifetime of the access token in seconds. */
  expiresIn: z.number().int(),
  usuario: usuarioSchema,
});
export type Session = z.infer<typeof sessionSchema>;

export const sessionResponse = envelope(sessionSchema);
export const usuarioResponse = envelope(usuarioSchema);
