import type { z } from 'zod';
import { pt } from 'zod/locales';
import type { Reason } from '../errors';

/**
 * Portuguese copy for clients (browser-safe: exported by `@campus/core/schemas`). Every reason
 * has its sentence, so a reason added to `REASONS` does not typecheck until it has one.
 */
export const REASON_MESSAGES: Record<Reason, string> = {
  INVALID_CREDENTIALS: 'E-mail ou senha inválidos.',
  ACCOUNT_NOT_ACTIVE: 'Esta conta não está ativa.',
  TOKEN_INVALID: 'Sua sessão terminou. Entre novamente.',
  TOKEN_EXPIRED: 'Sua sessão terminou. Entre novamente.',
  REFRESH_TOKEN_REUSED: 'Sua sessão terminou. Entre novamente.',
  ADMIN_REQUIRED: 'Acesso restrito a administradores.',
  NOT_OWNER: 'Só o autor pode fazer isso.',
  EMAIL_IN_USE: 'Este e-mail já está cadastrado.',
  NICKNAME_IN_USE: 'Este nickname já está em uso.',
  CANNOT_CHANGE_OWN_STATUS: 'Você não pode alterar o seu próprio status.',
  CANNOT_CHANGE_ADMIN_STATUS: 'Não é possível alterar o status de um administrador.',
  ALREADY_LIKED: 'Você já curtiu este post.',
  ALREADY_ATTENDING: 'Sua presença já está confirmada.',
  ALREADY_REPORTED: 'Você já denunciou este post.',
  NOT_AN_EVENT: 'Só é possível confirmar presença em eventos.',
  NOT_LIKED: 'Você não tinha curtido este post.',
  NOT_ATTENDING: 'Sua presença não estava confirmada.',
  MATCH_FULL: 'A partida está lotada.',
  MATCH_STARTED: 'A partida já começou.',
  TEAM_FULL: 'O outro time já está completo.',
  ALREADY_SUBSCRIBED: 'Você já está inscrito nesta partida.',
  INVALID_TRANSITION: 'Essa mudança de status não é permitida.',
  CAPACITY_BELOW_PLAYERS: 'Já há mais jogadores inscritos do que esse limite.',
  ALREADY_WAITING: 'Você já está na lista de espera desta partida.',
  MATCH_NOT_FULL: 'Ainda há vaga nesta partida: inscreva-se.',
  MATCH_NOT_FINISHED: 'O placar só pode ser registrado depois que a partida for finalizada.',
  RATE_LIMITED: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
  IDEMPOTENCY_KEY_REUSED: 'Este envio já foi usado para outro pedido. Recarregue a página.',
  IDEMPOTENCY_KEY_IN_USE: 'Seu envio anterior ainda está sendo processado. Aguarde um instante.',
  TOO_MANY_STREAMS: 'Muitas atualizações ao vivo abertas. Feche outras abas e tente de novo.',
  GROUP_NOT_FOUND: 'Grupo não encontrado.',
  GROUP_NAME_IN_USE: 'Já existe um grupo com este nome.',
  GROUP_FORBIDDEN: 'Só os donos e administradores do grupo podem fazer isso.',
  GROUP_CLOSED: 'Este grupo não está aceitando novos membros.',
  ALREADY_MEMBER: 'Você já é membro deste grupo.',
  ALREADY_REQUESTED: 'Você já pediu para entrar neste grupo.',
  REQUEST_ALREADY_DECIDED: 'Este pedido já foi decidido.',
  LAST_OWNER: 'O grupo precisa de outro dono antes que este saia.',
  ALREADY_FOLLOWING: 'Você já segue este grupo.',
  NOT_FOLLOWING: 'Você não segue este grupo.',
  ACCOUNT_PENDING: 'Seu cadastro aguarda a aprovação de um administrador.',
  RESET_TOKEN_INVALID:
    'Este link de redefinição é inválido, expirou ou já foi usado. Peça um novo.',
  WRONG_PASSWORD: 'Senha incorreta.',
};

const ptLocale = pt().localeError;
const plural = (n: number | bigint) => (Number(n) === 1 ? '' : 's');

/**
 * A zod issue in Portuguese, from its structure (code, bounds, format), not from its message:
 * the feed and match schemas speak English to the API's clients, and a form shows Portuguese.
 * The house phrasing for the usual cases ("deve ter no máximo 200 caracteres"); anything else in
 * zod's own Portuguese locale.
 */
export function portugueseIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'obrigatório'
          : `deve ter no mínimo ${issue.minimum} caractere${plural(issue.minimum)}`;
      if (issue.origin === 'number') return `deve ser no mínimo ${issue.minimum}`;
      break;
    case 'too_big':
      if (issue.origin === 'string') return `deve ter no máximo ${issue.maximum} caracteres`;
      if (issue.origin === 'number') return `deve ser no máximo ${issue.maximum}`;
      break;
    case 'invalid_type':
      if (issue.expected === 'string') return 'obrigatório';
      if (issue.expected === 'number') return 'deve ser um número';
      if (issue.expected === 'int') return 'deve ser um número inteiro';
      break;
    case 'invalid_format':
      if (issue.format === 'datetime') return 'data e hora inválidas';
      if (issue.format === 'uuid') return 'identificador inválido';
      if (issue.format === 'email') return 'e-mail inválido';
      break;
  }
  const message = ptLocale(issue as Parameters<typeof ptLocale>[0]);
  return (typeof message === 'string' ? message : message?.message) ?? 'valor inválido';
}
