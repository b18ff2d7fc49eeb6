import { z } from 'zod';
import { PERFIS, USER_STATUSES } from '../common/user-enums';

/* The two answers that show a user's account row; users/records.ts selects their columns. */

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

/** The registration result (docs/contract/accounts.md, User). */
export const studentSchema = z
  .object({
    id: z.uuid(),
    nome: z.string(),
    nickname: z.string(),
    email: z.string(),
    papel: z.enum(PERFIS),
    status: z.enum(USER_STATUSES),
  })
  .meta({ id: 'Student' });
export type Student = z.infer<typeof studentSchema>;
