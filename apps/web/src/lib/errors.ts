/*
 * API failures → what the UI shows. Over /trpc an error carries `data.appCode` (BAD_REQUEST,
 * CONFLICT, …), `data.reason` (a stable word such as MATCH_FULL) and `data.issues`
 * (`[{path, message}]`). Field problems go beside their fields; the rest is one message.
 * The feed and match endpoints answer in English: their usual messages are put in Portuguese.
 */

export interface FieldIssue {
  path: string;
  message: string;
}

export interface ApiFailure {
  message: string;
  appCode: string | undefined;
  reason: string | undefined;
  httpStatus: number | undefined;
  /** The tRPC procedure, e.g. `matches.subscribe`. */
  path: string | undefined;
  issues: FieldIssue[];
}

const REASON_MESSAGES: Record<string, string> = {
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
  RATE_LIMITED: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
};

/** Reasons that belong to one field of the form that caused them. */
const REASON_FIELDS: Record<string, string> = {
  EMAIL_IN_USE: 'email',
  NICKNAME_IN_USE: 'nickname',
  CAPACITY_BELOW_PLAYERS: 'maxPlayers',
};

const CODE_MESSAGES: Record<string, string> = {
  BAD_REQUEST: 'Confira os dados informados.',
  UNAUTHORIZED: 'Sua sessão terminou. Entre novamente.',
  FORBIDDEN: 'Você não tem permissão para isso.',
  NOT_FOUND: 'Não encontrado.',
  CONFLICT: 'Conflito com o estado atual. Atualize a página e tente de novo.',
  PAYLOAD_TOO_LARGE: 'O conteúdo enviado é grande demais.',
  TOO_MANY_REQUESTS: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
  INTERNAL_SERVER_ERROR: 'Erro no servidor. Tente de novo em instantes.',
};

const NETWORK_MESSAGE = 'Não foi possível falar com o servidor. Verifique sua conexão.';

/** English messages of the feed and match endpoints, in Portuguese (without the field name). */
const TRANSLATIONS: [RegExp, (match: RegExpMatchArray) => string][] = [
  [
    /must have at least (\d+) characters?$/,
    (m) => `deve ter no mínimo ${m[1]} caractere${m[1] === '1' ? '' : 's'}`,
  ],
  [/must have at most (\d+) characters$/, (m) => `deve ter no máximo ${m[1]} caracteres`],
  [/must not be empty$/, () => 'obrigatório'],
  [/must be a string$/, () => 'obrigatório'],
  [/must be an ISO 8601/, () => 'data e hora inválidas'],
  [/must be in the future$/, () => 'deve ser uma data futura'],
  [/must be at least (\d+)$/, (m) => `deve ser no mínimo ${m[1]}`],
  [/must be at most (\d+)$/, (m) => `deve ser no máximo ${m[1]}`],
  [/must be an integer$/, () => 'deve ser um número inteiro'],
  [/must be a number$/, () => 'deve ser um número'],
  [/is required for an EVENT$/, () => 'obrigatório para eventos'],
  [/must not be before eventDate$/, () => 'não pode ser antes do início'],
  [/must be null for a GENERAL post$/, () => 'só vale para eventos'],
  [/must be a UUID$/, () => 'identificador inválido'],
  [/^Invalid input$/, () => CODE_MESSAGES.BAD_REQUEST!],
];

export function translateMessage(message: string): string {
  for (const [pattern, render] of TRANSLATIONS) {
    const match = message.match(pattern);
    if (match) return render(match);
  }
  return message;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Reads any thrown value (a TRPCClientError or anything else) as an API failure. */
export function readFailure(error: unknown): ApiFailure {
  const data = isRecord(error) && isRecord(error.data) ? error.data : {};
  const issues = Array.isArray(data.issues)
    ? data.issues.filter(
        (issue): issue is FieldIssue =>
          isRecord(issue) && typeof issue.path === 'string' && typeof issue.message === 'string',
      )
    : [];
  return {
    message: error instanceof Error ? error.message : String(error),
    appCode: typeof data.appCode === 'string' ? data.appCode : undefined,
    reason: typeof data.reason === 'string' ? data.reason : undefined,
    httpStatus: typeof data.httpStatus === 'number' ? data.httpStatus : undefined,
    path: typeof data.path === 'string' ? data.path : undefined,
    issues,
  };
}

export const isUnauthorized = (error: unknown) => readFailure(error).httpStatus === 401;

/**
 * Field errors by form field name. `fields` lists the form's fields (API path → field name when
 * they differ, e.g. `{ MatchDate: 'matchDate' }`, else the same name); issues of unknown paths
 * stay out, for the form-level message.
 */
export function fieldErrors(
  error: unknown,
  fields: Record<string, string>,
): Record<string, string> {
  const failure = readFailure(error);
  const result: Record<string, string> = {};
  for (const issue of failure.issues) {
    const field = fields[issue.path.split('.')[0] ?? ''];
    if (field && !result[field]) result[field] = translateMessage(issue.message);
  }
  const reasonField = failure.reason ? REASON_FIELDS[failure.reason] : undefined;
  const mapped = reasonField ? fields[reasonField] : undefined;
  if (mapped && !result[mapped]) result[mapped] = REASON_MESSAGES[failure.reason!]!;
  return result;
}

/**
 * The message for the whole form: a known reason's own words; for field problems, a pointer to
 * the fields (plus any problem no field shows); otherwise by error code; a failed connection says so.
 */
export function formMessage(error: unknown, fields: Record<string, string> = {}): string {
  const failure = readFailure(error);
  if (failure.reason && REASON_MESSAGES[failure.reason]) return REASON_MESSAGES[failure.reason]!;
  if (failure.issues.length > 0) {
    const unplaced = failure.issues.filter((issue) => !fields[issue.path.split('.')[0] ?? '']);
    if (unplaced.length === 0) return 'Corrija os campos indicados.';
    return unplaced.map((issue) => translateMessage(issue.message)).join(' ');
  }
  if (failure.httpStatus === undefined) return NETWORK_MESSAGE;
  const english = /^(feed|matches)\./.test(failure.path ?? '');
  // The Portuguese endpoints explain themselves; the English ones by their code.
  if (!english || failure.httpStatus >= 500) return failure.message;
  return CODE_MESSAGES[failure.appCode ?? ''] ?? translateMessage(failure.message);
}

/** `{ a: 'a', b: 'b' }` from field names, for `fieldErrors`/`formMessage`. */
export const sameNames = (...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, name]));
