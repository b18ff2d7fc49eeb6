import { z } from 'zod';
import { emailSchema, usuarioSchema } from '../auth/schemas';
import { envelope } from '../common/envelope';
import { LIMITS } from '../common/limits';
import { ufSchema } from '../localities/schemas';
import {
  checkCityOfUf,
  confirmsPassword,
  newPasswordSchema,
  registerStudentExample,
  requiredText,
  signUpFields,
} from '../students/schemas';

// A teacher's example shares the student's password and institution.
const { senha, confirmacaoSenha, instituicao } = registerStudentExample;
const teacherAccount = { senha, confirmacaoSenha, instituicao };

/** POST /autenticacao/cadastro/professor (docs/contract/accounts.md, Teacher registration). */
export const registerTeacherInput = z
  .object({
    ...signUpFields,
    departamento: requiredText(LIMITS.user.departamento.max),
    siape: z
      .string({ error: 'obrigatório' })
      .trim()
      .regex(/^\d{7}$/, 'deve ter 7 dígitos')
      .meta({ description: 'Matrícula SIAPE: 7 dígitos' }),
  })
  .superRefine(confirmsPassword, { when: () => true })
  .meta({
    examples: [
      {
        nome: 'João Pereira',
        nickname: 'prof_joao',
        email: 'joao.pereira@campus.test',
        ...teacherAccount,
        departamento: 'Departamento de Ciência da Computação',
        siape: '1234567',
      },
    ],
  });
export type RegisterTeacherInput = z.infer<typeof registerTeacherInput>;

export const forgotPasswordInput = z
  .object({ email: emailSchema })
  .meta({ examples: [{ email: 'maria.silva@campus.test' }] });

export const resetPasswordInput = z
  .object({
    token: z.string({ error: 'obrigatório' }).min(1, 'obrigatório').max(200, 'token inválido'),
    senha: newPasswordSchema,
    confirmacaoSenha: z.string({ error: 'obrigatório' }),
  })
  .superRefine(confirmsPassword, { when: () => true })
  .meta({
    examples: [
      {
        token: 'kq3b9XzR1v0sYl2m8NwE5tGf7hJcPa4dUo6iQeLrT1w',
        senha: 'nova-senha-456',
        confirmacaoSenha: 'nova-senha-456',
      },
    ],
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

const currentPassword = z
  .string({ error: 'obrigatório' })
  .min(1, 'obrigatório')
  .max(LIMITS.user.senha.max, `deve ter no máximo ${LIMITS.user.senha.max} caracteres`);

export const changePasswordInput = z
  .object({ senhaAtual: currentPassword, novaSenha: newPasswordSchema })
  .meta({ examples: [{ senhaAtual: 'senha-forte-123', novaSenha: 'nova-senha-456' }] });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const deleteAccountInput = z
  .object({ senha: currentPassword })
  .meta({ examples: [{ senha: 'senha-forte-123' }] });

/**
 * PATCH /autenticacao/usuario-atual: the registration rules, each field optional; `estado` and
 * `cidade` travel together (the city is checked against the UF and stored in IBGE's spelling).
 */
export const updateProfileInput = z
  .object({
    nome: requiredText(LIMITS.user.nome.max).optional(),
    instituicao: requiredText(LIMITS.user.instituicao.max).optional(),
    curso: requiredText(LIMITS.user.curso.max).optional(),
    periodo: requiredText(LIMITS.user.periodo.max).optional(),
    estado: ufSchema.optional(),
    cidade: requiredText(LIMITS.user.cidade.max).optional(),
  })
  .superRefine(
    (input, ctx) => {
      const { estado, cidade } = (input ?? {}) as Partial<Record<string, unknown>>;
      if (Object.values(input ?? {}).every((v) => v === undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: 'informe ao menos um campo' });
      }
      if ((estado === undefined) !== (cidade === undefined)) {
        const path = [estado === undefined ? 'estado' : 'cidade'];
        ctx.addIssue({ code: 'custom', path, message: 'estado e cidade são alterados juntos' });
      } else {
        checkCityOfUf(estado, cidade, ctx);
      }
    },
    { when: () => true },
  )
  .meta({ examples: [{ curso: 'Ciência da Computação', periodo: '5º período' }] });
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

/** The account with its registration details, as its owner edits them. */
export const profileSchema = usuarioSchema
  .extend({
    instituicao: z.string().nullable(),
    curso: z.string().nullable(),
    periodo: z.string().nullable(),
    estado: z.string().nullable(),
    cidade: z.string().nullable(),
  })
  .meta({ id: 'UsuarioPerfil' });
export type Profile = z.infer<typeof profileSchema>;
export const profileResponse = envelope(profileSchema);

const rows = z.array(z.record(z.string(), z.unknown()));
/**
 * GET /autenticacao/meus-dados (LGPD art. 18): every personal datum held about the caller.
 * Each section is the rows of one kind, as stored (secrets, such as password and token hashes,
 * are left out and said to exist).
 */
export const personalDataSchema = z
  .object({
    geradoEm: z.string(),
    conta: z.record(z.string(), z.unknown()),
    sessoes: rows,
    redefinicoesDeSenha: rows,
    historicoDeStatus: rows,
    posts: rows,
    comentarios: rows,
    curtidas: rows,
    presencas: rows,
    denuncias: rows,
    denunciasDeComentarios: rows,
    decisoesDeModeracao: rows,
    partidasCriadas: rows,
    partidasComoJogador: rows,
    listasDeEspera: rows,
    grupos: rows,
    pedidosDeEntrada: rows,
    gruposSeguidos: rows,
    notificacoes: rows,
    emails: rows,
    exemplos: rows,
    chavesDeIdempotencia: rows,
    dispositivosPush: rows.describe(
      'Push subscriptions: the push service host only, not the endpoint',
    ),
    preferenciasDeNotificacao: rows,
    enviosPush: rows,
    fotos: rows,
  })
  .meta({ id: 'MeusDados' });
export type PersonalData = z.infer<typeof personalDataSchema>;
export const personalDataResponse = envelope(personalDataSchema);
