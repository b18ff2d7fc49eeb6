import { z } from 'zod';
import { emailSchema } from '../auth/schemas';
import { envelope } from '../common/envelope';
import { isUf, officialCityName } from '../localities/localities';
import { ufSchema } from '../localities/schemas';
import { ESCOLARIDADE_CODES, ESCOLARIDADE_LABELS, toEscolaridadeCode } from './escolaridades';
import { LIMITS } from '../common/limits';
import { studentSchema } from '../users/schemas';

/**
 * Later checks of a field run only while the field has no issue yet, so each bad field gets one
 * issue. (`abort: true` would do the same but also stop the cross-field checks below.)
 */
const ifNoIssueYet = { when: (payload: z.core.ParsePayload) => payload.issues.length === 0 };

export const requiredText = (max: number) =>
  z
    .string({ error: 'obrigatório' })
    .trim()
    .min(1, 'obrigatório')
    .max(max, { message: `deve ter no máximo ${max} caracteres`, ...ifNoIssueYet });

/** A password being chosen (registration, reset, change): 8-128 characters. */
export const newPasswordSchema = z
  .string({ error: 'obrigatório' })
  .min(LIMITS.user.senha.min, `deve ter no mínimo ${LIMITS.user.senha.min} caracteres`)
  .max(LIMITS.user.senha.max, {
    message: `deve ter no máximo ${LIMITS.user.senha.max} caracteres`,
    ...ifNoIssueYet,
  });

export const NICKNAME_PATTERN = /^[a-z][a-z0-9_]*$/;

export const nicknameSchema = z
  .string({ error: 'obrigatório' })
  .trim()
  .min(LIMITS.user.nickname.min, `deve ter no mínimo ${LIMITS.user.nickname.min} caracteres`)
  .max(LIMITS.user.nickname.max, {
    message: `deve ter no máximo ${LIMITS.user.nickname.max} caracteres`,
    ...ifNoIssueYet,
  })
  .regex(NICKNAME_PATTERN, {
    message: 'deve começar com uma letra e ter apenas letras minúsculas, números e _',
    ...ifNoIssueYet,
  });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True when `yyyy-mm-dd` names a day that exists (2024-02-29 yes, 2023-02-30 no). */
export function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** Today's date where it is latest (UTC+14), so nobody's own "today" is refused as future. */
const latestToday = () => new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);

export const birthDateSchema = z
  .string({ error: 'obrigatório' })
  .regex(ISO_DATE, 'informe a data completa: dia, mês e ano')
  .refine(isCalendarDate, { message: 'não é uma data existente', ...ifNoIssueYet })
  .refine((date) => date >= '1900-01-01', {
    message: 'deve ser a partir de 01/01/1900',
    ...ifNoIssueYet,
  })
  .refine((date) => date <= latestToday(), {
    message: 'não pode ser uma data futura',
    ...ifNoIssueYet,
  })
  .meta({
    description: 'Data existente, aaaa-mm-dd, de 1900-01-01 até hoje',
    examples: ['2003-05-17'],
  });

export const escolaridadeSchema = z
  .enum([...ESCOLARIDADE_LABELS, ...ESCOLARIDADE_CODES], {
    error: `escolha uma destas: ${ESCOLARIDADE_LABELS.join(', ')}`,
  })
  .transform(toEscolaridadeCode)
  .meta({ description: 'Como listada em opcoes-academicas ou pelo código; guardada como código' });

/** The fields every sign-up (student, teacher) starts with, in this order. */
export const signUpFields = {
  nome: requiredText(LIMITS.user.nome.max),
  nickname: nicknameSchema,
  email: emailSchema,
  senha: newPasswordSchema,
  confirmacaoSenha: z.string({ error: 'obrigatório' }),
  instituicao: requiredText(LIMITS.user.instituicao.max),
};

/** `confirmacaoSenha` must repeat `senha`. */
export function confirmsPassword(
  input: { senha?: unknown; confirmacaoSenha?: unknown } | undefined,
  ctx: z.core.$RefinementCtx,
) {
  if (typeof input?.senha === 'string' && input.senha !== input.confirmacaoSenha) {
    ctx.addIssue({ code: 'custom', path: ['confirmacaoSenha'], message: 'deve ser igual à senha' });
  }
}

/** `cidade` must be a municipality of `estado` (when both are text and `estado` is a UF). */
export function checkCityOfUf(estado: unknown, cidade: unknown, ctx: z.core.$RefinementCtx) {
  if (
    typeof estado === 'string' &&
    typeof cidade === 'string' &&
    isUf(estado) &&
    !officialCityName(estado, cidade)
  ) {
    ctx.addIssue({ code: 'custom', path: ['cidade'], message: `não é um município de ${estado}` });
  }
}

/** A valid registration: the document's example, and the body tests and benchmarks start from. */
export const registerStudentExample = {
  nome: 'Maria da Silva',
  nickname: 'maria_silva',
  email: 'maria.silva@campus.test',
  senha: 'senha-forte-123',
  confirmacaoSenha: 'senha-forte-123',
  instituicao: 'Universidade de Brasília (UnB)',
  curso: 'Engenharia de Software',
  periodo: '3º período',
  dataNascimento: '2003-05-17',
  nacionalidade: 'Brasileira',
  estado: 'DF',
  cidade: 'Brasília',
  escolaridade: 'Graduação',
};

/**
 * POST /autenticacao/cadastro (docs/contract/accounts.md, Student registration). Field rules first;
 * then the cross-field rules, which run even when other fields failed, so every problem is reported
 * at once. `cidade` is checked against the UF here; the service stores its official spelling.
 */
export const registerStudentInput = z
  .object({
    ...signUpFields,
    curso: requiredText(LIMITS.user.curso.max),
    periodo: requiredText(LIMITS.user.periodo.max),
    dataNascimento: birthDateSchema,
    nacionalidade: requiredText(LIMITS.user.nacionalidade.max),
    estado: ufSchema,
    cidade: requiredText(LIMITS.user.cidade.max).meta({
      description:
        'Município da UF (sem distinguir maiúsculas nem acentos); guardado na grafia do IBGE',
    }),
    escolaridade: escolaridadeSchema,
  })
  .superRefine(
    (input, ctx) => {
      const failed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
      if (!failed.has('confirmacaoSenha')) confirmsPassword(input, ctx);
      if (!failed.has('estado') && !failed.has('cidade')) {
        const { estado, cidade } = (input ?? {}) as Partial<Record<string, unknown>>;
        checkCityOfUf(estado, cidade, ctx);
      }
    },
    { when: () => true },
  )
  .meta({ examples: [registerStudentExample] });
export type RegisterStudentInput = z.infer<typeof registerStudentInput>;

export { studentSchema, type Student } from '../users/schemas';
export const studentResponse = envelope(studentSchema);

export const nicknameAvailabilityInput = z.object({ nickname: nicknameSchema });
export const nicknameAvailabilityResponse = envelope(
  z.object({ nickname: z.string(), disponivel: z.boolean() }),
);
export const emailAvailabilityInput = z.object({ email: emailSchema });
export const emailAvailabilityResponse = envelope(
  z.object({ email: z.string(), disponivel: z.boolean() }),
);

export const nacionalidadesResponse = envelope(z.array(z.string()));
export type NacionalidadesResponse = z.infer<typeof nacionalidadesResponse>;

export const opcoesAcademicasResponse = envelope(
  z.object({
    escolaridades: z.array(z.string()),
    instituicoes: z.array(z.string()),
    cursos: z.array(z.string()),
    periodos: z.array(z.string()),
    naoSeAplica: z.string(),
  }),
);
export type OpcoesAcademicasResponse = z.infer<typeof opcoesAcademicasResponse>;
